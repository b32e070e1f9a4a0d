// AscendCraft: the host-side GetSelectMaxMinTmpSize / GetSelectWithBytesMaskMaxMinTmpSize of the Select
// (SelectWithBytesMask) advanced API, as an op's TilingFunc or the asc-devkit select example calls them. The buffer
// holds the selected elements' half-precision mask expansion (the source's element count rounded up to 32, two bytes
// each) plus 512 reserved bytes, at least 1 KB; the minimum works in 4096-element pieces; a mask whose last axis differs
// from the source's (and is not reused in place) adds a copy of the mask for the source's size. Rules from the public
// API reference; no vendor code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "norm_tiling.h"

namespace AscendC {
namespace select_tiling_detail {
inline uint32_t pad32(uint64_t a) { return static_cast<uint32_t>((a + 31) / 32 * 32); }
inline bool scalar(const ge::Shape& s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; }
inline int64_t last(const ge::Shape& s) { return s.GetDimNum() ? s.GetDim(s.GetDimNum() - 1) : 1; }
inline uint32_t bytes(const ge::Shape& src0, const ge::Shape& src1, const ge::Shape& mask, uint32_t maskTypeSize,
                      bool isReuseMask, bool minimum) {
    const bool s0 = scalar(src0);
    const uint64_t n = static_cast<uint64_t>(std::max<int64_t>(0, (s0 ? src1 : src0).GetShapeSize()));
    const uint64_t piece = (minimum && n > 4096) ? 4096 : n;
    uint32_t need = std::max<uint32_t>(1024, pad32(piece) * 2 + 512);
    const int64_t maskLast = last(mask), srcLast = last(s0 ? src1 : src0);
    if (maskLast != srcLast && !isReuseMask && maskLast > 1) need += pad32(n * maskTypeSize);
    return need;
}
}  // namespace select_tiling_detail

inline void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                   const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                                   uint32_t& maxValue, uint32_t& minValue) {
    if (srcTypeSize != 2 && srcTypeSize != 4)
        std::fprintf(stderr, "[WARNING] [Select][GetSelectMaxMinTmpSize] srcTypeSize is %u, should be 2 or 4 (not used)\n", srcTypeSize);
    if (maskTypeSize != 1 && maskTypeSize != 2 && maskTypeSize != 4)
        std::fprintf(stderr, "[ERROR] [Select][GetSelectMaxMinTmpSize] maskTypeSize is %u, should be 1, 2 or 4\n", maskTypeSize);
    if (src0Shape.GetDimNum() != 2 && src1Shape.GetDimNum() != 2)
        std::fprintf(stderr, "[ERROR] [Select][GetSelectMaxMinTmpSize] one of src0Shape / src1Shape should be 2-D\n");
    maxValue = select_tiling_detail::bytes(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
    minValue = select_tiling_detail::bytes(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                                uint32_t& minValue) {
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}
// The same two bounds one at a time (sgl-kernel-npu's ada_block_sparse_attention tiling sizes its select buffer with
// GetSelectWithBytesMaskMinTmpSize).
inline uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    uint32_t maxValue = 0, minValue = 0;
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
    return minValue;
}
inline uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    uint32_t maxValue = 0, minValue = 0;
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
    return maxValue;
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
}  // namespace AscendC
