// AscendCraft: what CANN's build generates as kernel_tiling/kernel_tiling.h for an op project's kernel:
// the tiling macros (GET_TILING_DATA, TILING_KEY_IS, ...) and the tiling structs, which the emulator takes
// from the op's op_host/<op>_tiling.h (included by the generated driver). No vendor code.
#pragma once

// A kernel gets the tiling macros from kernel_operator.h. An op_host source (ASCENDCRAFT_OP_HOST: op_host.h comes first in
// every host unit) gets the tiling structs alone, as CANN's generated header holds nothing else: kernel_operator.h would
// define the device compiler's __CCE_AICORE__ / __NPU_ARCH__ in host code, and a header that picks its includes by them
// (ops-nn fused_mat_mul_tiling_key_public.h, reached from mat_mul_v3's arch35 tiling through mat_mul_tiling_data.h,
// which includes this file) would take its device branch.
#ifndef ASCENDCRAFT_OP_HOST
#include "kernel_operator.h"
#endif
#include "register/tilingdata_base.h"
#include "ascendcraft_emu/cube_tiling.h"   // TCubeTiling
#include "ascendcraft_emu/hccl_tiling.h"   // Mc2InitTiling, Mc2CcTiling
