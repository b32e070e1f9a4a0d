// AscendCraft: the host-side temporary-size functions of the Sigmoid, SwiGLU, GeGLU, Gelu, Silu and Swish advanced APIs, as an op's TilingFunc calls it through
// tiling/tiling_api.h. The sizes follow the public AscendC API reference: at least 256 bytes, at most the input's
// bytes (when larger); SwiGLU / GeGLU need none for float and a few float intermediates per element for half
// (6 and 4 live buffers of at least one 256-byte repeat). No vendor code.
#pragma once

#include <algorithm>
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
namespace glu_tiling_detail {
// Live float intermediates per element: SwiGLU 6, GeGLU 4 for half; float computes in place.
inline uint32_t live_nodes(bool swiglu, uint32_t typeSize) { return typeSize == 4 ? 0u : (swiglu ? 6u : 4u); }
inline void sizes(bool swiglu, const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    const uint64_t n = srcShape.GetShapeSize() > 0 ? static_cast<uint64_t>(srcShape.GetShapeSize()) : 0;
    const uint32_t live = live_nodes(swiglu, typeSize);
    minValue = live * 256u;
    maxValue = static_cast<uint32_t>(live * std::max<uint64_t>(n * typeSize, 256u));
}
}  // namespace glu_tiling_detail
inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue,
                                   const bool isReuseSource) {
    (void)isReuseSource;
    glu_tiling_detail::sizes(true, srcShape, typeSize, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = glu_tiling_detail::live_nodes(true, typeSize);
    extraBuffer = 0;
}
inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    glu_tiling_detail::sizes(false, srcShape, typeSize, maxValue, minValue);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = glu_tiling_detail::live_nodes(false, typeSize);
    extraBuf = 0;
}
// Gelu / FasterGelu / FasterGeluV2: three float intermediates of one 256-byte repeat at least (the minimum), or of
// the whole input in float (the maximum, never below the minimum); half and float alike, as the reference gives one
// rule for both.
namespace gelu_tiling_detail {
constexpr uint32_t kLiveFloatBuffers = 3;
inline uint32_t min_size() { return kLiveFloatBuffers * 256u; }
inline uint32_t max_size(const ge::Shape& srcShape) {
    const uint64_t n = srcShape.GetShapeSize() > 0 ? static_cast<uint64_t>(srcShape.GetShapeSize()) : 0;
    return static_cast<uint32_t>(std::max<uint64_t>(kLiveFloatBuffers * n * sizeof(float), min_size()));
}
}  // namespace gelu_tiling_detail
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    (void)srcShape;
    (void)typeSize;
    return gelu_tiling_detail::min_size();
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    (void)typeSize;
    return gelu_tiling_detail::max_size(srcShape);
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
    minValue = GetGeluMinTmpSize(srcShape, typeSize);
}
// Silu and Swish compute in the destination: they need no temporary buffer (both sizes 0, which the reference reads
// as "no temporary space needed").
inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue) {
    (void)srcShape;
    (void)typeSize;
    (void)isReuseSource;
    maxValue = 0;
    minValue = 0;
}
inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                            uint32_t& minValue) {
    GetSiluTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
}  // namespace AscendC
