// AscendCraft host side: exe_graph/runtime/kernel_run_context.h of the CANN SDK (the C layout under the gert kernel
// contexts), which op_host sources include beside tiling_context.h (hicann ops-nn swi_glu_grad's tiling). The emulated
// contexts live in register/op_def_registry.h; nothing of the C layout itself is emulated.
#pragma once
#include "register/op_def_registry.h"
