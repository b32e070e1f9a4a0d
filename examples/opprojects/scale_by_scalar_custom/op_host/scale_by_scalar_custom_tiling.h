/* Tiling data of ScaleByScalarCustom (y = x * scalar): each core's length and its tile. */
#ifndef SCALE_BY_SCALAR_CUSTOM_TILING_H
#define SCALE_BY_SCALAR_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleByScalarTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleByScalarCustom, ScaleByScalarTilingData)
}  // namespace optiling
#endif  // SCALE_BY_SCALAR_CUSTOM_TILING_H
