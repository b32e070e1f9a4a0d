// AscendCraft: the host side of the Pad / UnPad advanced APIs (lib/pad/pad_tiling.h): GetPadMaxMinTmpSize,
// PadTilingFunc, GetUnPadMaxMinTmpSize and UnPadTilingFunc, as an op's TilingFunc (or an .asc example's host code)
// calls them. Pad's temporary space is two 16-row transpose address lists of 32-byte blocks (at least one list, at
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
}  // namespace AscendC
