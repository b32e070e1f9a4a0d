// AscendCraft: AscendC::ReducePattern, the reduction patterns (A = kept axis, R = reduced axis, outermost first) that
// Normalize's config and the pattern reductions' host tiling name. Its own header because both the kernel side
// (normalize.h) and the host side (reduce_pattern_tiling.h) need it, in either order.
#pragma once

#include <cstdint>

namespace AscendC {
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR, RARARARA,
};
}  // namespace AscendC
