// AscendCraft: the host side of the Broadcast advanced API (lib/pad/broadcast_tiling.h, tiling/broadcast/
// broadcast_tiling.h): GetBroadCastMaxMinTmpSize, the temporary-space range an op's TilingFunc reserves for the
// kernel's Broadcast / BroadCast. The emulated platform is Ascend 910B (A2), so the A2 rule is the one given:
//   - one-byte elements are widened to two bytes first, which needs both tensors' elements (each count rounded up to
//     16) at two bytes on top of every case below (the "widening" bytes); the rest is reckoned in two-byte elements;
//   - nothing to spread (the source as large as the destination, or a single element): no space, or one 32-byte block
//     plus the widening for one-byte elements;
//   - axis 0 ([1, k] -> [m, k], k a whole number of 32-byte blocks): one block plus the widening;
//   - axis 1 ([m, 1] -> [m, k]), with b the elements of one 32-byte block: the block-broadcast scratch is b x b
//     elements at least and (m rounded up to 8) x b at most; when k is not a whole number of blocks, a copy scratch of
//     b rows (at least) or m rows (at most) of k rounded up to b elements comes on top.
// Sizes in bytes. Shapes the A2 API refuses (other ranks, unequal ranks, a source axis that is neither the
// destination's nor 1, element sizes other than 1, 2, 4, axis 0 with an unaligned k) print an error naming the call
// and leave maxValue / minValue as they were, as CANN's host check returns. The facts are from the public API
// reference and the devkit's host tiling; no vendor code.
#pragma once

#include <cstdint>
#include <cstdio>

#include "ge_shape.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
namespace broadcast_tiling_detail {
constexpr uint32_t kBlockBytes = 32;

inline uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

inline bool refuse(const char* why, const char* fix) {
    std::fprintf(stderr, "[ERROR] GetBroadCastMaxMinTmpSize (tiling/broadcast/broadcast_tiling.h): %s; %s\n", why, fix);
    return false;
}

inline bool shapes_ok(const ge::Shape& src, const ge::Shape& dst, uint32_t typeSize) {
    if (!(typeSize == 1 || typeSize == 2 || typeSize == 4))
        return refuse("typeSize must be 1, 2 or 4 bytes on Ascend 910B", "pass sizeof of the element type");
    const size_t rank = dst.GetDimNum();
    if (!(rank == 1 || rank == 2) || src.GetDimNum() != rank)
        return refuse("srcShape and dstShape must both have 1 or 2 axes", "reshape to [m, 1] -> [m, k] or [1, k] -> [m, k]");
    for (size_t i = 0; i < rank; ++i)
        if (!(src.GetDim(i) == dst.GetDim(i) || src.GetDim(i) == 1))
            return refuse("srcShape cannot broadcast to dstShape (each source axis must equal the destination's or be 1)",
                          "check the two shapes");
    if (src.GetShapeSize() <= 0) return refuse("srcShape has no elements", "pass a source shape with every axis > 0");
    return true;
}
}  // namespace broadcast_tiling_detail

inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    namespace d = broadcast_tiling_detail;
    (void)ascendcPlatform;   // the emulated platform is A2 (DAV_2201) only
    (void)isReuseSource;     // A2's Broadcast does not reuse its source
    if (!d::shapes_ok(srcShape, dstShape, typeSize)) return;
    const uint64_t srcElems = static_cast<uint64_t>(srcShape.GetShapeSize());
    const uint64_t dstElems = static_cast<uint64_t>(dstShape.GetShapeSize());
    uint64_t widening = 0;
    uint32_t elemBytes = typeSize;
    if (typeSize == 1) {
        elemBytes = 2;
        widening = (d::round_up(srcElems, 16) + d::round_up(dstElems, 16)) * elemBytes;
    }
    if (srcElems == dstElems || srcElems == 1) {
        const uint64_t bytes = typeSize == 1 ? widening + d::kBlockBytes : 0;
        maxValue = minValue = static_cast<uint32_t>(bytes);
        return;
    }
    const uint64_t m = static_cast<uint64_t>(dstShape.GetDim(0));
    const uint64_t k = static_cast<uint64_t>(dstShape.GetDim(1));
    const uint64_t blockElems = d::kBlockBytes / elemBytes;
    if (srcShape.GetDim(1) != 1) {   // axis 0: [1, k] -> [m, k]
        if (k % blockElems != 0) {
            d::refuse("a [1, k] -> [m, k] broadcast needs k to be a whole number of 32-byte blocks",
                      "pad k to a multiple of 32 bytes of elements");
            return;
        }
        maxValue = minValue = static_cast<uint32_t>(d::kBlockBytes + widening);
        return;
    }
    // axis 1: [m, 1] -> [m, k]
    uint64_t minBytes = blockElems * blockElems * elemBytes;
    uint64_t maxBytes = d::round_up(m, 8) * blockElems * elemBytes;
    if (k % blockElems != 0) {
        const uint64_t kAligned = d::round_up(k, blockElems);
        minBytes += blockElems * kAligned * elemBytes;
        maxBytes += m * kAligned * elemBytes;
    }
    minValue = static_cast<uint32_t>(minBytes + widening);
    maxValue = static_cast<uint32_t>(maxBytes + widening);
}
}  // namespace AscendC
