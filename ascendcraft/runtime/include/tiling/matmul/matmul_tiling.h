// AscendCraft: CANN installs the matmul host tiling (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling) also as
// tiling/matmul/matmul_tiling.h (a CANN operator challenge op's tiling includes it by that path); the emulated subset
// is in tiling/tiling_api.h.
#pragma once
#include "tiling/tiling_api.h"
