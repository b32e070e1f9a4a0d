// AscendCraft: kernel_event.h under impl/, where CANN's kernel include path has had it (beside impl/kernel_macros.h):
// the ATB-style shared kernel headers include it by that name (MindSpore's ms_custom_ops
// op_kernel_common/asd/common/include/mem.h). The same as "kernel_event.h".
#pragma once
#include "kernel_event.h"
