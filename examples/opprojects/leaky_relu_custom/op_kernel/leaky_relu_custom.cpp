/* LeakyReluCustom kernel. DTYPE_X is the element type CANN's build derives from the op definition. */
#include "kernel_operator.h"

using namespace AscendC;

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t offset, uint32_t length, uint32_t tileLength, float slope)
    {
        this->length = length;
        this->tileLength = tileLength;
        this->slope = static_cast<DTYPE_X>(slope);
        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y + offset, length);
        pipe.InitBuffer(inQueue, 2, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(DTYPE_Y));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;  // the last tile may be shorter
            LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            DataCopy(xLocal, xGm[done], n);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<DTYPE_X>();
            LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();
            LeakyRelu(yLocal, xLocal, slope, n);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<DTYPE_Y>();
            DataCopy(yGm[done], yLocal, n);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    uint32_t length = 0, tileLength = 0;
    DTYPE_X slope;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLeakyRelu op;
    const uint32_t core = GetBlockIdx();
    if (TILING_KEY_IS(1)) {           // even split: every core the same length
        const uint32_t length = tilingData.coreLength[0];
        op.Init(x, y, core * length, length, tilingData.tileLength, tilingData.negativeSlope);
    } else if (TILING_KEY_IS(2)) {    // uneven split: each core's own offset and length
        op.Init(x, y, tilingData.coreOffset[core], tilingData.coreLength[core], tilingData.tileLength, tilingData.negativeSlope);
    } else {
        return;
    }
    op.Process();
}
