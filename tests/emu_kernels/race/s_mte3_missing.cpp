/*
 * y = 2x with y[0] overwritten by the scalar unit (SetValue) before the copy-out. The VECOUT queue
 * orders the vector pipe before MTE3 (EnQue / DeQue), but not the scalar unit's store: MTE3 can copy
 * the tile out before SetValue has landed. The AscendC documentation's own example of S_MTE3.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void s_mte3_missing(GM_ADDR x, GM_ADDR y)
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
    DataCopy(xLocal, xGm, COLS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Muls(yLocal, xLocal, 2.0f, COLS);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    yLocal.SetValue(0, -1.0f);  // FIRST
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);  // EXPECT: ub-race
    outQueue.FreeTensor(yLocal);
}
