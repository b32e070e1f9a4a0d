// AscendCraft: the temporary-buffer sizes of the pattern reductions (ReduceSum / ReduceMean / ReduceMax / ReduceMin /
// ReduceProd / ReduceAny / ReduceAll with Pattern::Reduce::AR or RA), shared by the kernel-side check (the buffer a
// kernel passes must hold at least this much) and the host's GetReduce<Op>MaxMinTmpSize (minValue = maxValue). A2 halves
// the reduced axis pairwise: the buffer keeps the first half of a power-of-two split (rows of 32-byte aligned
// columns for RA; per-row partial results for AR). Written from the public API reference's rules; no vendor code.
#pragma once

#include <algorithm>
#include <cstdint>

namespace AscendC {
namespace reduce_tmp_detail {
enum Family : int { COMMON = 0, SUM_MEAN = 1, PROD = 2, ANY_ALL_U8 = 3 };
// The largest power of two <= n (1 for n <= 1).
inline uint32_t pow2_floor(uint32_t n) { uint32_t k = 1; while (n > 1) { k <<= 1; n >>= 1; } return k; }
inline uint32_t align(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }
// The first half of the pairwise split of n items: n's largest power of two, halved when n is one itself.
inline uint32_t half_split(uint32_t n, bool halve_when_exact) {
    uint32_t k = pow2_floor(n);
    if (k == n && halve_when_exact) k >>= 1;
    return k;
}
inline uint32_t min_bytes(Family f, bool ra, uint32_t first, uint32_t last, uint32_t typeSize, bool reuse) {
    switch (f) {
    case SUM_MEAN:   // float accumulation
        if (reuse) return 0;
        if (!ra) return last <= 64 ? 0 : first * half_split(last, first > 1) * 4;
        return half_split(first, first > 1) * align(last, 8) * 4;
    case PROD:
        if (reuse) return ra ? 0 : 256;
        if (!ra) return (std::max<uint32_t>(8, half_split(last, first > 1)) + first * 8) * 4 + 256;
        return half_split(first, first > 1) * align(last * 4, 32);
    case ANY_ALL_U8:
        if (!ra) return align(last, 32) * 2 + first * 32;
        if (reuse) return 0;
        return half_split(first, first > 1) * align(last, 32);
    default: {       // Max / Min (and Any / All of float)
        if (reuse) return 0;
        if (ra) return half_split(first, first > 1) * align(last * typeSize, 32);
        const uint32_t perBlock = 32 / typeSize, perRepeat = 256 / typeSize;
        if (last <= perBlock) return 0;
        return first * (last < perRepeat ? 32u : 256u);
    }
    }
}
}  // namespace reduce_tmp_detail
}  // namespace AscendC
