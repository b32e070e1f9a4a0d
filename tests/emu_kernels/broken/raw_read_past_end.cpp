// Broken: kernel code reads x through a raw pointer 100 floats past its end (into the guard page).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    yGm.SetValue(0, ((__gm__ float *)x)[4096 + 100]);  // EXPECT: gm-out-of-bounds
}
