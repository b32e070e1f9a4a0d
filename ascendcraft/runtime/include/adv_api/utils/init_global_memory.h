// AscendCraft: CANN's adv_api/utils/init_global_memory.h (Fill, InitGlobalMemory of a GM tensor). The emulated
// advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
