// AscendCraft: kernel_macros.h under impl/, where CANN's kernel include path has had it (the SDK's tikcfw folder kept
// the basic API's internal headers under impl/): the ATB-style shared kernel headers include it by that name outside
// the CPU-debug build (MindSpore's ms_custom_ops op_kernel_common/asd/common/include/common_func.h). The same as
// "kernel_macros.h": the emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_macros.h"
