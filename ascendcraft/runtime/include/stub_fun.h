// AscendCraft: stub_fun.h of CANN's CPU debug library, which a kernel includes under __CCE_KT_TEST__ (the CPU debug
// build) for the functions behind the kernel intrinsics (ops-nn transpose_batch_mat_mul and gemm_v3). The emulation is
// that CPU build here: kernel_operator.h declares them.
#pragma once
#include "kernel_operator.h"
