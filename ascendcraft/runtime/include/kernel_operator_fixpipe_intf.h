// AscendCraft: kernel_operator_fixpipe_intf.h of the AscendC SDK, one of the interface headers kernel_operator.h gathers (kernels of
// cann-ops include it by name). The emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
