/* Tiling data of RmsScaleCustom: a nested struct for the shape, registered on its own as CANN requires. */
#ifndef RMS_SCALE_CUSTOM_TILING_H
#define RMS_SCALE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowShape)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowShapeOp, RowShape)

BEGIN_TILING_DATA_DEF(RmsScaleTilingData)
TILING_DATA_FIELD_DEF_STRUCT(RowShape, shape);
TILING_DATA_FIELD_DEF(uint32_t, chunk);
TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RmsScaleCustom, RmsScaleTilingData)
}  // namespace optiling
#endif  // RMS_SCALE_CUSTOM_TILING_H
