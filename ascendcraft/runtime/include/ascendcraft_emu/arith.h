// AscendCraft CPU emulation: ArithProgression, the arithmetic sequence dst[i] = firstValue + i * diffValue
// (lib/index in the devkit; the upsample kernels of cann-ops build their source coordinates with it). The public
// reference says it runs on the vector unit for half, float, int16_t and int32_t. Here it is an index vector
// scaled and shifted in T, so a trace shows its three vector instructions and half rounds as the hardware's
// half adds do (exact integers up to 2048). Written from the public API reference; no vendor code.
#pragma once

#include "vector.h"

namespace AscendC {

template <typename T>
inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue, const int32_t count,
                             SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(ArithProgression, "half, float, int16_t and int32_t", T, half, float, int16_t, int32_t);
    const int32_t n = count > 0 ? count : 0;
    CreateVecIndex(dstLocal, static_cast<T>(0), static_cast<uint32_t>(n), loc);   // i, in T
    Muls(dstLocal, dstLocal, diffValue, n, loc);                                  // i * diffValue
    Adds(dstLocal, dstLocal, firstValue, n, loc);                                 // firstValue + i * diffValue
}

// The same sequence under the name the current devkit gives it (lib/index: Arange); ArithProgression is the name
// of earlier CANN releases, which the public kernels use.
template <typename T>
inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Arange, "half, float, int16_t and int32_t", T, half, float, int16_t, int32_t);
    ArithProgression(dst, firstValue, diffValue, count, loc);
}

}  // namespace AscendC
