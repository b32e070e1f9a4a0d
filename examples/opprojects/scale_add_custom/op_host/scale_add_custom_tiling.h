/* Tiling data of ScaleAddCustom (z = x + alpha * y): a flat struct of lengths and the attribute. */
#ifndef SCALE_ADD_CUSTOM_TILING_H
#define SCALE_ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleAddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleAddCustom, ScaleAddTilingData)
}  // namespace optiling
#endif  // SCALE_ADD_CUSTOM_TILING_H
