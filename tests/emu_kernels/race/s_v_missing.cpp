/*
 * y = x * w, where the scalar unit fills w (a TBuf) with SetValue and the vector unit then reads it
 * with no S -> V flag: on the NPU the Mul can read w before the scalar stores have landed.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void s_v_missing(GM_ADDR x, GM_ADDR y)
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
        w.SetValue(k, static_cast<float>(k % 7) - 3.0f);  // FIRST
    }
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, COLS);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Mul(yLocal, xLocal, w, COLS);  // EXPECT: ub-race
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
