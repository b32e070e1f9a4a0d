// AscendCraft: the host-side temporary-size functions of the last-axis reductions Sum and Mean (reduce_adv.h), as an
// op's TilingFunc calls them through tiling/tiling_api.h. The sizes follow the public AscendC API reference: the
// kernel adds each row's 256-byte repeats into one partial result per repeat, so the buffer holds one value per
// repeat, rounded up to a 32-byte block; Mean of half in float (accTypeSize 4) also holds the row converted to float.
// Minimum and maximum are the same. No vendor code.
#pragma once

#include <cstdint>

namespace AscendC {
namespace reduce_tiling_detail {
inline uint32_t repeats(uint32_t n, uint32_t elem_size) {
    const uint32_t per_repeat = 256 / elem_size;
    return (n + per_repeat - 1) / per_repeat;
}
inline uint32_t round_up(uint32_t v, uint32_t to) { return (v + to - 1) / to * to; }
}  // namespace reduce_tiling_detail

// Sum: one partial sum (of the input's type) per repeat, whole 32-byte blocks.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                uint32_t& minValue) {
    (void)isReuseSource;   // accepted and without effect, as the API reference says
    if (typeSize == 0 || n == 0) { maxValue = minValue = 0; return; }
    const uint32_t per_block = 32 / typeSize;
    maxValue = minValue = reduce_tiling_detail::round_up(reduce_tiling_detail::repeats(n, typeSize), per_block) * typeSize;
}

// Mean: srcTypeSize / accTypeSize (2, 2), (4, 4) or (2, 4) (half computed in float).
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (srcTypeSize == 0 || n == 0) { maxValue = minValue = 0; return; }
    using namespace reduce_tiling_detail;
    if (srcTypeSize == 2 && accTypeSize == 4) {
        const uint32_t row = round_up(n * 2, 32) / 2;   // the row padded to 32 bytes, in elements
        maxValue = minValue = round_up(repeats(n, 4), 32) + row * 4;
        return;
    }
    maxValue = minValue = round_up(repeats(n, srcTypeSize), 32);
}

inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuffer = 0;
}
}  // namespace AscendC
