/*
 * y = relu(x) with y[0] = 7 stored by the scalar unit. The S -> MTE3 flag before the copy-out is
 * there, but nothing makes the SetValue wait for the Relu that writes the same bytes: on the NPU the
 * vector write can land after the scalar store and overwrite it (write-after-write).
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;

extern "C" __global__ __aicore__ void v_s_waw(GM_ADDR x, GM_ADDR y)
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
    Relu(yLocal, xLocal, COLS);  // FIRST
    yLocal.SetValue(0, 7.0f);  // EXPECT: ub-race
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, COLS);
    outQueue.FreeTensor(yLocal);
}
