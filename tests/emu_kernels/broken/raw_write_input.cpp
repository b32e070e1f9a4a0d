// Broken: kernel code writes into the input through a raw GM pointer (x is mapped read-only).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    float first = xGm.GetValue(0);
    ((__gm__ float *)x)[1] = first;  // EXPECT: gm-write-input
}
