/* Tiling data of MatmulReluByPassCustom: the problem's sizes, how its 16-row tiles are shared among the groups (one
 * cube core and its two vector cores each), and the activation's slope. */
#ifndef MATMUL_RELU_BY_PASS_CUSTOM_TILING_H
#define MATMUL_RELU_BY_PASS_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulReluByPassTilingData)
TILING_DATA_FIELD_DEF(uint32_t, m);
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, k);
TILING_DATA_FIELD_DEF(uint32_t, tiles);           // M / 16
TILING_DATA_FIELD_DEF(uint32_t, tilesPerGroup);   // the last group may have fewer
TILING_DATA_FIELD_DEF(float, negativeSlope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulReluByPassCustom, MatmulReluByPassTilingData)
}  // namespace optiling
#endif  // MATMUL_RELU_BY_PASS_CUSTOM_TILING_H
