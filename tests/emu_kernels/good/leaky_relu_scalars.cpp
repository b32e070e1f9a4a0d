/*
 * LeakyRelu with its parameters passed as kernel scalars: the element count (uint32_t), the slope
 * (float) and the tile length (int32_t). Blocks split the tensor evenly.
 */
#include "kernel_operator.h"

using namespace AscendC;

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, float alpha, int32_t tileLength)
    {
        this->alpha = alpha;
        this->tileLength = tileLength;
        blockLength = totalLength / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < blockLength; off += tileLength) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[off], tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            LeakyRelu(yLocal, xLocal, alpha, tileLength);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<float>();
            DataCopy(yGm[off], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t blockLength = 0;
    int32_t tileLength = 0;
    float alpha = 0;
};

extern "C" __global__ __aicore__ void leaky_relu(GM_ADDR x, GM_ADDR y, uint32_t totalLength, float alpha, int32_t tileLength)
{
    KernelLeakyRelu op;
    op.Init(x, y, totalLength, alpha, tileLength);
    op.Process();
}
