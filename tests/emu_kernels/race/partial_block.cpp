/*
 * y = x * (sum(x) * 2): the scalar unit stores 2.0 into red[4] while ReduceSum writes red[0] of the
 * same 32-byte block, with no flag between the two. They touch different bytes, so this is not a race;
 * after the V -> S flag the scalar unit reads both. (The check tracks the bytes of each access inside
 * its 32-byte block.)
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void partial_block(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf, redBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * COLS, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * COLS, COLS);
    pipe.InitBuffer(inQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(outQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(tmpBuf, COLS * sizeof(float));
    pipe.InitBuffer(redBuf, 32);

    LocalTensor<float> red = redBuf.Get<float>();
    red.SetValue(4, 2.0f);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, COLS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> tmp = tmpBuf.Get<float>();
    ReduceSum(red, xLocal, tmp, COLS);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    float scale = red.GetValue(0) * red.GetValue(4);
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Muls(yLocal, xLocal, scale, COLS);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
