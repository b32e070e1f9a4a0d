// Broken: kernel code dereferences a null pointer after its last AscendC call.
#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline float *Pick(GM_ADDR p, int64_t block) { return block >= 0 ? nullptr : (float *)p; }
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    float v = xGm.GetValue(0);
    Pick(y, GetBlockIdx())[4] = v;  // EXPECT: crash
}
