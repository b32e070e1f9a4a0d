// AscendCraft: what CANN's build generates as kernel_tiling/kernel_tiling.h for an op project's kernel:
// the tiling macros (GET_TILING_DATA, TILING_KEY_IS, ...) and the tiling structs, which the emulator takes
// from the op's op_host/<op>_tiling.h (included by the generated driver). No vendor code.
#pragma once

#include "kernel_operator.h"
#include "register/tilingdata_base.h"
#include "ascendcraft_emu/cube_tiling.h"   // TCubeTiling
#include "ascendcraft_emu/hccl_tiling.h"   // Mc2InitTiling, Mc2CcTiling
