// TplScaleCustom's tiling: a plain struct shared by op_host and op_kernel (the newer style has no
// BEGIN_TILING_DATA_DEF; the kernel reads it with GET_TILING_DATA_WITH_STRUCT).
#ifndef TPL_SCALE_CUSTOM_TILING_DATA_H
#define TPL_SCALE_CUSTOM_TILING_DATA_H
#include <cstdint>
struct TplScaleCustomTilingData {
    uint32_t perCore = 0;     // elements of each core (a multiple of the tile count times 16)
    uint32_t usedCores = 0;
    float scale = 1.0f;
};
#endif
