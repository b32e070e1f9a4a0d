// AscendCraft: what an op's host code gets from CANN's tiling/tiling_api.h — the advanced APIs' host tiling
// functions and structs (emulated subset): normalisation tilings, Sum / Mean temporary sizes, and the matmul tiling (matmul_tiling::
// MultiCoreMatmulTiling and TCubeTiling). No vendor code.
#pragma once

#include "register/op_def_registry.h"
#include "securec.h"   // CANN's host headers bring the bounds-checked memcpy_s / memset_s (examples' host tiling code calls them)
#include "register/tilingdata_base.h"
#include "ascendcraft_emu/norm_tiling.h"
#include "ascendcraft_emu/softmax_flashv3_tiling.h"
#include "ascendcraft_emu/matmul_tiling.h"
#include "ascendcraft_emu/reduce_tiling.h"
#include "ascendcraft_emu/activation_tiling.h"
#include "ascendcraft_emu/adv_ext_tiling.h"
#include "ascendcraft_emu/math_tiling.h"
#include "ascendcraft_emu/reduce_pattern_tiling.h"
#include "ascendcraft_emu/pad_tiling.h"
#include "ascendcraft_emu/broadcast_tiling.h"   // GetBroadCastMaxMinTmpSize (lib/pad/broadcast_tiling.h)
#include "ascendcraft_emu/select_tiling.h"
#include "ascendcraft_emu/sort_tiling.h"
#include "ascendcraft_emu/transpose_tiling.h"   // GetConfusionTransposeTilingInfo (TRANSPOSE_ND2ND_ONLY)

// The cube and datablock sizes the host side of AscendC declares too (op hosts name AscendC::BLOCK_CUBE in their tilings:
// cann-ops conv3d_backprop_filter_v2, quant_batch_matmul_v3): unsigned on the host, each under the guard the kernel
// side's declaration (ascendcraft_emu/base.h) also sets.
namespace AscendC {
#ifndef ASCC_PARAM_BLOCK_CUBE
#define ASCC_PARAM_BLOCK_CUBE
constexpr uint32_t BLOCK_CUBE = 16;
#endif
#ifndef ASCC_PARAM_ONE_BLK_SIZE
#define ASCC_PARAM_ONE_BLK_SIZE
constexpr uint32_t ONE_BLK_SIZE = 32;
#endif
#ifndef ASCC_PARAM_CUBE_MAX_SIZE
#define ASCC_PARAM_CUBE_MAX_SIZE
constexpr int32_t CUBE_MAX_SIZE = 256;
#endif
}  // namespace AscendC
