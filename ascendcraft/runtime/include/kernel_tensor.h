// AscendCraft: kernel_tensor.h of the AscendC SDK, the header of LocalTensor / GlobalTensor that kernel_operator.h
// gathers (ops-nn gemm_v3 includes it by name). The emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
