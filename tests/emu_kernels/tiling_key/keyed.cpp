/* One kernel, three code paths chosen by the tiling key: 1 -> x + 1, 2 -> 2 x, 3 or 4 -> -x. */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 256;

template <int MODE> __aicore__ inline void Compute(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * N, N);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * N, N);
    pipe.InitBuffer(inQueue, 1, N * sizeof(float));
    pipe.InitBuffer(outQueue, 1, N * sizeof(float));
    LocalTensor<float> a = inQueue.AllocTensor<float>();
    DataCopy(a, xGm, N);
    inQueue.EnQue(a);
    a = inQueue.DeQue<float>();
    LocalTensor<float> b = outQueue.AllocTensor<float>();
    if (MODE == 1) Adds(b, a, 1.0f, N);
    else if (MODE == 2) Muls(b, a, 2.0f, N);
    else Muls(b, a, -1.0f, N);
    outQueue.EnQue(b);
    inQueue.FreeTensor(a);
    b = outQueue.DeQue<float>();
    DataCopy(yGm, b, N);
    outQueue.FreeTensor(b);
}

extern "C" __global__ __aicore__ void keyed(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        Compute<1>(x, y);
    } else if (TILING_KEY_IS(2)) {
        Compute<2>(x, y);
    } else if (TILING_KEY_LIST(3, 4)) {
        Compute<3>(x, y);
    }
}
