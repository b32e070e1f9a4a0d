/*
 * y = relu(x) with x loaded into a TBuf (no queue): the vector unit reads the TBuf right after the
 * DataCopy that fills it on MTE2, after an MTE2 -> V flag (the older set_flag / wait_flag spelling).
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void mte2_v_flag(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * COLS, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * COLS, COLS);
    pipe.InitBuffer(xBuf, COLS * sizeof(float));
    pipe.InitBuffer(outQueue, 1, COLS * sizeof(float));

    LocalTensor<float> xLocal = xBuf.Get<float>();
    DataCopy(xLocal, xGm, COLS);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Relu(yLocal, xLocal, COLS);
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
