/* Tiling data of RowNormCustom: the rows each core takes, and the advanced APIs' own tiling structs embedded, as
 * public kernels carry them (TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, ...)). */
#ifndef ROW_NORM_CUSTOM_TILING_H
#define ROW_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowNormTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rms);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowNormCustom, RowNormTilingData)
}  // namespace optiling
#endif  // ROW_NORM_CUSTOM_TILING_H
