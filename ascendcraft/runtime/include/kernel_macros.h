// AscendCraft: kernel_macros.h of the AscendC SDK, an internal header of its basic API that CANN's kernel include path
// has (hicann ops-transformer's shared common_func.h includes it by name outside the CPU-debug build). The emulated
// API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
