/* Tiling data of MatmulBiasReluCustom: the Matmul object's TCubeTiling, filled by matmul_tiling::MultiCoreMatmulTiling. */
#ifndef MATMUL_BIAS_RELU_CUSTOM_TILING_H
#define MATMUL_BIAS_RELU_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulBiasReluTilingData)
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulBiasReluCustom, MatmulBiasReluTilingData)
}  // namespace optiling
#endif  // MATMUL_BIAS_RELU_CUSTOM_TILING_H
