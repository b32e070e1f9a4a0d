/* ScaleByScalarCustom kernel: y = x * scalar. DTYPE_X comes from the macro's arguments, DTYPE_SCALAR from the list
 * the definition computes (float for both float16 and float32 tensors). */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, typename S, int32_t BUFFER_NUM> class KernelScaleByScalar {
public:
    __aicore__ inline KernelScaleByScalar() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        GlobalTensor<S> scalarGm;
        scalarGm.SetGlobalBuffer((__gm__ S *)scalar, 1);
        this->value = static_cast<T>(static_cast<float>(scalarGm.GetValue(0)));
        this->tileLength = tileLength;
        this->tiles = blockLength / tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<T>();
            LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            Muls(yLocal, xLocal, value, tileLength);
            outQueue.EnQue<T>(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<T>();
            DataCopy(yGm[i * tileLength], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<T> xGm, yGm;
    uint32_t tileLength = 0, tiles = 0;
    T value;
};

extern "C" __global__ __aicore__ void scale_by_scalar_custom(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace,
                                                             GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelScaleByScalar<DTYPE_X, DTYPE_SCALAR, 1> op;
        op.Init(x, scalar, y, tilingData.blockLength, tilingData.tileLength);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelScaleByScalar<DTYPE_X, DTYPE_SCALAR, 2> op;
        op.Init(x, scalar, y, tilingData.blockLength, tilingData.tileLength);
        op.Process();
    }
}
