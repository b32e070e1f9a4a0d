/*
 * A kernel with a bug that only poison exposes: it loads half of each tile but doubles all of it,
 * so the second half of every output tile is computed from UB nothing ever wrote.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE = 128;

extern "C" __global__ __aicore__ void uninit_read(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + TILE * GetBlockIdx(), TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * GetBlockIdx(), TILE);
    pipe.InitBuffer(inQueue, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQueue, 1, TILE * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, TILE / 2);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Muls(yLocal, xLocal, 2.0f, TILE);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, TILE);
    outQueue.FreeTensor(yLocal);
}
