// AscendCraft: the host side of the Pad / UnPad advanced APIs (lib/pad/pad_tiling.h): GetPadMaxMinTmpSize,
// PadTilingFunc, GetUnPadMaxMinTmpSize and UnPadTilingFunc, as an op's TilingFunc (or an .asc example's host code)
// calls them; and BroadCast's (lib/pad/broadcast_tiling.h, GetBroadCastMaxMinTmpSize), at the end. Pad's temporary space is two 16-row transpose address lists of 32-byte blocks (at least one list, at
// most enough for every element); A2's UnPad needs none. The TilingFuncs fill the shape fields the emulated kernel
// reads (srcHeight, srcWidth, srcOriWidth); the NPU's temporary-buffer plan in the other fields is left 0, as the
// emulation never reads it. Sizes from the public API reference; no vendor code.
#pragma once

#include <cstdint>
#include <cstdio>

#include "norm_tiling.h"
#include "pad_tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
namespace pad_tiling_detail {
inline bool shape2(const char* api, const ge::Shape& s, uint32_t typeSize, uint32_t& h, uint32_t& w) {
    if (s.GetDimNum() != 2 || s.GetDim(0) <= 0 || s.GetDim(1) <= 0 || typeSize == 0) {
        std::fprintf(stderr, "[ERROR] %s: srcShape must be 2-D [height, width] with both axes > 0, and typeSize > 0\n", api);
        return false;
    }
    h = static_cast<uint32_t>(s.GetDim(0));
    w = static_cast<uint32_t>(s.GetDim(1));
    return true;
}
// 2 buffers of 16 rows x one 32-byte block, for every 16 elements (max) or once (min).
inline uint32_t list_bytes(uint64_t elems, uint32_t typeSize) {
    const uint64_t lists = (elems + 15) / 16;
    return static_cast<uint32_t>(lists * 16 * (32 / typeSize) * 2 * typeSize);
}
}  // namespace pad_tiling_detail

inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t h = 0, w = 0;
    if (!pad_tiling_detail::shape2("GetPadMaxMinTmpSize", srcShape, typeSize, h, w)) return;
    maxValue = pad_tiling_detail::list_bytes(uint64_t(h) * w, typeSize);
    minValue = pad_tiling_detail::list_bytes(1, typeSize);
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, AscendC::tiling::PadTiling& tiling) {
    (void)stackBufferSize;
    uint32_t h = 0, w = 0, oh = 0, ow = 0;
    if (!pad_tiling_detail::shape2("PadTilingFunc", srcShape, typeSize, h, w) ||
        !pad_tiling_detail::shape2("PadTilingFunc", oriSrcShape, typeSize, oh, ow)) return;
    tiling.set_srcHeight(h);
    tiling.set_srcWidth(w);
    tiling.set_srcOriWidth(ow);
}
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    uint32_t h = 0, w = 0;
    if (!pad_tiling_detail::shape2("GetUnPadMaxMinTmpSize", srcShape, typeSize, h, w)) return;
    maxValue = minValue = 0;      // A2's UnPad copies rows with a stride: no temporaries
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            AscendC::tiling::UnPadTiling& tiling) {
    (void)stackBufferSize;
    uint32_t h = 0, w = 0;
    if (!pad_tiling_detail::shape2("UnPadTilingFunc", srcShape, typeSize, h, w)) return;
    tiling.set_srcHeight(h);
    tiling.set_srcWidth(w);
}

// BroadCast's temporary space on A2 (the API reference's sizes, restated). An int8 / uint8 BroadCast works in half: two
// half copies (source and result, each rounded up to 16 elements) come first. Then, by the broadcast's form:
// - nothing to broadcast (the source is the whole result) or one element to fill it: no space (one 32-byte block for int8);
// - [1, k] -> [m, k] (axis 0, k a whole number of 32-byte blocks): one block;
// - [m, 1] -> [m, k] (axis 1): the per-row brcb of one block per 8 rows (min: one 8-row group of a block per element;
//   max: every row's group), and when k is not whole blocks the rows are also laid out at k rounded up to a block
//   (min: one block's worth of rows; max: all m rows).
// A shape it cannot take (rank other than 1 or 2, ranks differing, an axis neither equal nor 1, an element size other
// than 1, 2 or 4, an empty source, an axis-0 row not whole blocks) is an [ERROR] line, and the sizes are left as they were.
namespace pad_tiling_detail {
inline bool broadcast_refused(const char* why) {
    std::fprintf(stderr, "[ERROR] GetBroadCastMaxMinTmpSize: %s\n", why);
    return false;
}
inline bool broadcast_shapes(const ge::Shape& src, const ge::Shape& dst, uint32_t typeSize) {
    const size_t rank = dst.GetDimNum();
    if (rank != 1 && rank != 2) return broadcast_refused("A2 broadcasts 1-D or 2-D shapes only");
    if (src.GetDimNum() != rank) return broadcast_refused("srcShape and dstShape must have the same number of axes");
    if (typeSize != 1 && typeSize != 2 && typeSize != 4) return broadcast_refused("typeSize must be 1, 2 or 4");
    for (size_t i = 0; i < rank; ++i)
        if (src.GetDim(i) != dst.GetDim(i) && src.GetDim(i) != 1)
            return broadcast_refused("each srcShape axis must equal dstShape's or be 1");
    if (src.GetShapeSize() <= 0) return broadcast_refused("srcShape must hold at least one element");
    return true;
}
inline uint32_t round_up(uint64_t v, uint64_t unit) { return static_cast<uint32_t>((v + unit - 1) / unit * unit); }
}  // namespace pad_tiling_detail

inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform; (void)isReuseSource;
    namespace d = pad_tiling_detail;
    if (!d::broadcast_shapes(srcShape, dstShape, typeSize)) return;
    uint32_t cast = 0, es = typeSize;
    if (typeSize == 1) {   // computed in half
        es = 2;
        cast = (d::round_up(srcShape.GetShapeSize(), 16) + d::round_up(dstShape.GetShapeSize(), 16)) * es;
    }
    const int64_t srcSize = srcShape.GetShapeSize();
    if (srcSize == dstShape.GetShapeSize() || srcSize == 1) {
        minValue = maxValue = typeSize == 1 ? cast + 32u : 0u;
        return;
    }
    const uint32_t perBlock = 32u / es;
    const uint32_t rows = static_cast<uint32_t>(dstShape.GetDim(0)), cols = static_cast<uint32_t>(dstShape.GetDim(1));
    if (srcShape.GetDim(1) != 1) {   // [1, k] -> [m, k]
        if (cols % perBlock != 0) {
            d::broadcast_refused("a [1, k] -> [m, k] broadcast needs k to be whole 32-byte blocks");
            return;
        }
        minValue = maxValue = cast + 32u;
        return;
    }
    uint32_t lo = perBlock * perBlock * es, hi = d::round_up(rows, 8) * perBlock * es;   // [m, 1] -> [m, k]
    if (cols % perBlock != 0) {
        const uint32_t colsPadded = d::round_up(cols, perBlock);
        lo += perBlock * colsPadded * es;
        hi += rows * colsPadded * es;
    }
    minValue = lo + cast;
    maxValue = hi + cast;
}
}  // namespace AscendC
