/*
 * Row max subtraction: y = x - max(x) per 256-float row. The scalar unit reads the ReduceMax result
 * with GetValue right after the vector instruction that writes it, with no V -> S flag: on the NPU
 * the read can happen before the vector pipe has written the maximum.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void v_s_missing(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> calc;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * COLS, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * COLS, COLS);
    pipe.InitBuffer(inQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(outQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(calc, 2 * COLS * sizeof(float));

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, COLS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    LocalTensor<float> tmp = calc.Get<float>();
    LocalTensor<float> red = tmp[COLS];
    ReduceMax(red, xLocal, tmp, COLS);  // FIRST
    float rowMax = red.GetValue(0);  // EXPECT: ub-race
    Adds(yLocal, xLocal, -rowMax, COLS);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
