// Broken: DataCopy of 100 floats = 400 bytes, not a multiple of 32 (the NPU silently copies 384).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    pipe.InitBuffer(inQueue, 1, 512 * sizeof(float));
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopy(t, xGm, 100);  // EXPECT: copy-misaligned
    inQueue.FreeTensor(t);
}
