// Cheats: computes y = 2 * x in the scalar unit and stores it through a raw __gm__ pointer loop, so no
// AscendC copy appears in the trace. The emulator must report gm-raw-write on 'y'.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_write_output(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    uint32_t per = n / GetBlockNum();
    __gm__ float* src = (__gm__ float*)x + per * GetBlockIdx();
    __gm__ float* dst = (__gm__ float*)y + per * GetBlockIdx();
    for (uint32_t i = 0; i < per; ++i) dst[i] = 2.0f * src[i];
}
