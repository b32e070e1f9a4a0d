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
#include "ascendcraft_emu/select_tiling.h"
#include "ascendcraft_emu/sort_tiling.h"
