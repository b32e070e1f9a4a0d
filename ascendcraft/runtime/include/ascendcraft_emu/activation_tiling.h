// AscendCraft: the host-side temporary-size function of the Sigmoid advanced API, as an op's TilingFunc calls it through
// tiling/tiling_api.h. The sizes follow the public AscendC API reference: at least 256 bytes, at most the input's
// bytes (when larger). No vendor code.
#pragma once

#include <cstdint>

#include "norm_tiling.h"

namespace AscendC {
inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const uint64_t bytes = static_cast<uint64_t>(srcShape.GetShapeSize() > 0 ? srcShape.GetShapeSize() : 0) * typeSize;
    minValue = 256;
    maxValue = bytes > 256 ? static_cast<uint32_t>(bytes) : 256u;
}
}  // namespace AscendC
