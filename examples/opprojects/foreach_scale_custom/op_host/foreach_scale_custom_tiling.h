/* Tiling data of ForeachScaleCustom (y[i] = alpha * x[i] over a tensor list): the list's length and each tensor's. */
#ifndef FOREACH_SCALE_CUSTOM_TILING_H
#define FOREACH_SCALE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ForeachScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, tensorCount);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, lengths);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachScaleCustom, ForeachScaleTilingData)
}  // namespace optiling
#endif  // FOREACH_SCALE_CUSTOM_TILING_H
