// AscendCraft CPU emulation: the macros that a build's own -D flags (or the driver's defines) decide. They are kept
// out of kernel_api.h, whose precompiled form every kernel build reads: g++ refuses a .gch whose headers tested a
// macro that the build then defines, so an op project's -D ASCENDCRAFT_OP_TYPE (or a per-key build's TILING_KEY_VAR)
// would make each such build parse the whole header set again. kernel_operator.h includes this after kernel_api.h.
#pragma once

#include "ascendcraft_emu/tiling.h"

// The tiling struct GET_TILING_DATA declares: an op project build (ascendcraft.opproject) defines ASCENDCRAFT_OP_TYPE
// and each registration gets the op's name (REGISTER_TILING_DATA_CLASS); REGISTER_TILING_DEFAULT names the one struct.
#if defined(ASCENDCRAFT_OP_TYPE) && !defined(ASCENDCRAFT_TILING_DEFAULT)
#define ASCENDCRAFT_TILING_TYPE ASCENDCRAFT_CAT(AscendCraftTilingData_, ASCENDCRAFT_OP_TYPE)
#else
#define ASCENDCRAFT_TILING_TYPE AscendCraftTilingData
#endif
// The launch's tiling key, unless a per-key build defined it as that key's literal (CANN compiles one binary a key).
// There TILING_KEY_IS / TILING_KEY_LIST are constant expressions too, as with CANN's per-key macros: ops-nn
// fused_patch_mlp chooses its branch with `if constexpr (TILING_KEY_IS(1))`.
#ifdef TILING_KEY_VAR
#undef TILING_KEY_IS
#undef TILING_KEY_LIST
#define TILING_KEY_IS(key) (::ascendcraft::emu::tiling_key_built(TILING_KEY_VAR, ::ascendcraft::emu::SrcLoc(), (key)))
#define TILING_KEY_LIST(...) (::ascendcraft::emu::tiling_key_built(TILING_KEY_VAR, ::ascendcraft::emu::SrcLoc(), __VA_ARGS__))
#else
#define TILING_KEY_VAR (::ascendcraft::emu::tiling_key())
#endif
