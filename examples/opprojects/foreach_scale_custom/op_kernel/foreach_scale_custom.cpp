/* ForeachScaleCustom kernel: block i scales tensor i of the list. A list argument is a GM descriptor: its first word
 * is the byte offset of the data pointers (as the public Foreach kernels read it). */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T> __aicore__ inline __gm__ T* ListTensor(GM_ADDR list, uint32_t index)
{
    __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(list);
    return reinterpret_cast<__gm__ T*>(*(words + (*words >> 3) + index));
}

template <typename T> class KernelForeachScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t length, float alpha)
    {
        this->length = length;
        this->alpha = static_cast<T>(alpha);
        xGm.SetGlobalBuffer(ListTensor<T>(x, GetBlockIdx()), length);
        yGm.SetGlobalBuffer(ListTensor<T>(y, GetBlockIdx()), length);
        pipe.InitBuffer(inQueue, 1, length * sizeof(T));
        pipe.InitBuffer(outQueue, 1, length * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        DataCopy(xLocal, xGm, length);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<T>();
        LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        Muls(yLocal, xLocal, alpha, length);
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<T>();
        DataCopy(yGm, yLocal, length);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<T> xGm, yGm;
    uint32_t length = 0;
    T alpha;
};

extern "C" __global__ __aicore__ void foreach_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.tensorCount) return;
    if (TILING_KEY_IS(1)) {
        KernelForeachScale<DTYPE_X> op;
        op.Init(x, y, tilingData.lengths[GetBlockIdx()], tilingData.alpha);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelForeachScale<DTYPE_X> op;
        op.Init(x, y, tilingData.lengths[GetBlockIdx()], tilingData.alpha);
        op.Process();
    }
}
