// AscendCraft: kernel_operator_atomic_intf.h of the AscendC SDK, one of the interface headers kernel_operator.h gathers
// (ops-nn transpose_batch_mat_mul includes it by name). The emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
