// AscendCraft: kernel_common.h of the AscendC SDK, the basic-API header of the kernel macros, events, registers and
// utilities that kernel_operator.h gathers (hicann ops-nn conv3d_backprop_filter_v2 / input_v2 include it by name).
// The emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
