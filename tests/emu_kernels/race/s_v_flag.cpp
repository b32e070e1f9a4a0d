/*
 * y = x * w, where the scalar unit fills w (a TBuf) with SetValue and the vector unit then reads it
 * after an S -> V flag (the TQueSync form): the vector unit waits for the scalar stores.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void s_v_flag(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> weights;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * COLS, COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * COLS, COLS);
    pipe.InitBuffer(inQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(outQueue, 1, COLS * sizeof(float));
    pipe.InitBuffer(weights, COLS * sizeof(float));

    LocalTensor<float> w = weights.Get<float>();
    for (int32_t k = 0; k < COLS; ++k) {
        w.SetValue(k, static_cast<float>(k % 7) - 3.0f);
    }
    TQueSync<PIPE_S, PIPE_V> sToV;
    sToV.SetFlag(EVENT_ID0);
    sToV.WaitFlag(EVENT_ID0);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, COLS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Mul(yLocal, xLocal, w, COLS);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
