// AscendCraft: the kernel API under the path a CANN install also gives it. CANN installs the basic API's headers
// under include/ascendc/basic_api/ (its API reference names include/ascendc/basic_api/interface/kernel_struct_mm.h),
// and kernels built with include/ on their path write `#include "ascendc/basic_api/kernel_operator.h"`
// (MindSpore's ms_custom_ops reshape_and_cache_npd, unpad_fa_npd). The same header set as "kernel_operator.h".
#pragma once

#include "kernel_operator.h"
