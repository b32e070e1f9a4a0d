// The kernel file of tests/torch_ext_oga: the kernel and its host launcher `_do` in one file, as an agent's
// ascendc_library source holds them.
#include "oga_scale_kernel.h"

extern "C" __global__ __aicore__ void oga_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        AscendC::TPipe pipe;
        OgaScaleKernel kernel;
        kernel.Init(x, y, tiling, &pipe);
        kernel.Process();
    }
}

extern "C" void oga_scale_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    oga_scale_custom<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
