/* ScaleAddCustom kernel: z = x + alpha * y. DTYPE_X comes from the op definition (float16 or float32). */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, int32_t BUFFER_NUM> class KernelScaleAdd {
public:
    __aicore__ inline KernelScaleAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileLength, float alpha)
    {
        this->tileLength = tileLength;
        this->tiles = blockLength / tileLength;
        this->alpha = static_cast<T>(alpha);
        xGm.SetGlobalBuffer((__gm__ T *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + blockLength * GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        DataCopy(xLocal, xGm[i * tileLength], tileLength);
        DataCopy(yLocal, yGm[i * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        Muls(zLocal, yLocal, alpha, tileLength);
        Add(zLocal, xLocal, zLocal, tileLength);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        DataCopy(zGm[i * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t tileLength = 0, tiles = 0;
    T alpha;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelScaleAdd<DTYPE_X, 1> op;
        op.Init(x, y, z, tilingData.blockLength, tilingData.blockLength, tilingData.alpha);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelScaleAdd<DTYPE_X, 2> op;
        op.Init(x, y, z, tilingData.blockLength, tilingData.tileLength, tilingData.alpha);
        op.Process();
    }
}
