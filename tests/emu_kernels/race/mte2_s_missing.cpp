/*
 * y = x * x[0]: the scalar unit reads x[0] from the VECIN tile just after DeQue. DeQue makes the
 * vector pipe wait for the copy-in (MTE2 -> V), not the scalar unit, so the GetValue can read the tile
 * before MTE2 has written it.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void mte2_s_missing(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * COLS, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * COLS, COLS);
    pipe.InitBuffer(inQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(outQueue, 1, COLS * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, COLS);  // FIRST
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    float first = xLocal.GetValue(0);  // EXPECT: ub-race
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Muls(yLocal, xLocal, first, COLS);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
