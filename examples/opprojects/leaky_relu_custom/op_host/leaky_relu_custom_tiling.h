/* Tiling data of LeakyReluCustom: per-core offsets and lengths as arrays (uneven splits). */
#ifndef LEAKY_RELU_CUSTOM_TILING_H
#define LEAKY_RELU_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t MAX_CORES = 48;

BEGIN_TILING_DATA_DEF(LeakyReluTilingData)
TILING_DATA_FIELD_DEF(uint32_t, usedCores);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, negativeSlope);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 48, coreOffset);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 48, coreLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyReluCustom, LeakyReluTilingData)
}  // namespace optiling
#endif  // LEAKY_RELU_CUSTOM_TILING_H
