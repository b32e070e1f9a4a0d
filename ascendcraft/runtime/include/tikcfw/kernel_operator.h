// AscendCraft: the kernel API under tikcfw/, the folder of CANN's tikcpp tree that held kernel_operator.h (its kernel
// include path has the folder above it): the ATB-style shared kernel headers include it by that name
// (MindSpore's ms_custom_ops op_kernel_common/asd/common/include/iterator.h). The same as "kernel_operator.h".
#pragma once
#include "kernel_operator.h"
