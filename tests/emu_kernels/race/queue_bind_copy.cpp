/*
 * y = x through one TQueBind<VECIN, VECOUT> (a pure copy kernel): its EnQue / DeQue order MTE2
 * before MTE3 and its FreeTensor / AllocTensor order MTE3 before the next copy-in, so the single UB
 * buffer is reused four times without a race.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE = 128;
constexpr int32_t TILES = 4;

extern "C" __global__ __aicore__ void queue_bind_copy(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> queue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * TILE * TILES, TILE * TILES);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * TILE * TILES, TILE * TILES);
    pipe.InitBuffer(queue, 1, TILE * sizeof(float));
    for (int32_t i = 0; i < TILES; ++i) {
        LocalTensor<float> t = queue.AllocTensor<float>();
        DataCopy(t, xGm[i * TILE], TILE);
        queue.EnQue(t);
        t = queue.DeQue<float>();
        DataCopy(yGm[i * TILE], t, TILE);
        queue.FreeTensor(t);
    }
}
