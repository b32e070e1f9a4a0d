// Broken: DataCopyPad with 16 floats (64 bytes) of left padding; each side may pad 32 bytes.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopyExtParams params{1, 13 * sizeof(float), 0, 0, 0};
    DataCopyPadExtParams<float> pad{true, 16, 0, 0.0f};
    DataCopyPad(t, xGm, params, pad);  // EXPECT: pad-limit
    inQueue.FreeTensor(t);
}
