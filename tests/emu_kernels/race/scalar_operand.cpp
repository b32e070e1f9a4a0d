/*
 * y = x / (max(x) + 1): the shape AscendCraft's lowering gave `muls(y, x, 1.0 / (get(red, 0) + 1.0), n)`
 * when get() sat inside the scalar operand of a vector instruction. The GetValue is evaluated on the
 * scalar unit just before the Muls is issued, right after the ReduceMax that writes red, and nothing
 * makes the scalar unit wait for the vector pipe.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void scalar_operand(GM_ADDR x, GM_ADDR y)
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

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, COLS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    LocalTensor<float> tmpLocal = tmpBuf.Get<float>();
    LocalTensor<float> redLocal = redBuf.Get<float>();
    ReduceMax(redLocal, xLocal, tmpLocal, COLS);  // FIRST
    Muls(yLocal, xLocal, 1.0f / (redLocal.GetValue(0) + 1.0f), COLS);  // EXPECT: ub-race
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
