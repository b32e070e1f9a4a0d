/*
 * Cross-block accumulation: block 0 zeroes y, all blocks SyncAll, then each block copies its slice
 * of x through a TQueBind<VECIN, VECOUT> (no compute) and adds it into y with SetAtomicAdd.
 * y = sum over blocks of x[block].
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void atomic_bind(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + N * GetBlockIdx(), N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    pipe.InitBuffer(bind, 1, N * sizeof(float));
    if (GetBlockIdx() == 0) {
        InitGlobalMemory(yGm, N, 0.0f);
    }
    SyncAll();

    LocalTensor<float> t = bind.AllocTensor<float>();
    DataCopy(t, xGm, N);
    bind.EnQue(t);
    t = bind.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(yGm, t, N);
    SetAtomicNone();
    bind.FreeTensor(t);
}
