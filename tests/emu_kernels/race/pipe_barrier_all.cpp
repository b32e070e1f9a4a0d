/*
 * y = relu(x) with y[1] = x[0] + x[1], every stage on TBufs (no queues) and separated by
 * PipeBarrier<PIPE_ALL>: each barrier waits until every pipe of the core has finished, so copy-in,
 * vector work, scalar fix-up and copy-out are ordered without any flag.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void pipe_barrier_all(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * COLS, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * COLS, COLS);
    pipe.InitBuffer(xBuf, COLS * sizeof(float));
    pipe.InitBuffer(yBuf, COLS * sizeof(float));
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();

    DataCopy(xLocal, xGm, COLS);
    PipeBarrier<PIPE_ALL>();
    Relu(yLocal, xLocal, COLS);
    PipeBarrier<PIPE_ALL>();  // BARRIER
    yLocal.SetValue(1, xLocal.GetValue(0) + xLocal.GetValue(1));
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yLocal, COLS);
}
