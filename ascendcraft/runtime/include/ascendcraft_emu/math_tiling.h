// AscendCraft: the host-side temporary-size functions of the element-wise math advanced APIs (Get<Api>MaxMinTmpSize,
// Get<Api>TmpBufferFactorSize), as an op's TilingFunc calls them through tiling/tiling_api.h or lib/math/<api>_tiling.h.
// Each API keeps a fixed number of live intermediate buffers the size of its input (typeSize bytes an element, one
// 256-byte repeat at least): the minimum is that many repeats, the maximum that many whole inputs, and the factor
// form reports the count (maxLiveNodeCount) with no extra bytes, so a TilingFunc can size its tile as
// tmpBytes / (maxLiveNodeCount * typeSize). The counts are the A2 ones of the public API reference (float computes
// in fewer buffers than half, which widens to float). No vendor code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "norm_tiling.h"

namespace AscendC {
namespace math_tiling_detail {
struct Live { uint32_t f32, f16; };       // live intermediate buffers for float / half input
inline uint32_t count(Live l, uint32_t typeSize) { return typeSize == 4 ? l.f32 : l.f16; }
inline bool input_elems(const char* api, const ge::Shape& s, uint32_t& n) {
    const int64_t e = s.GetShapeSize();
    if (e <= 0) {
        std::fprintf(stderr, "[ERROR] Get%sMaxMinTmpSize: the input shape size must be greater than 0\n", api);
        return false;
    }
    n = static_cast<uint32_t>(e);
    return true;
}
// nodes buffers of the input's bytes, each one 256-byte repeat at least.
inline void sizes(const char* api, Live l, const ge::Shape& s, uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t n = 0;
    if (!input_elems(api, s, n)) return;
    const uint32_t nodes = count(l, typeSize);
    minValue = nodes * 256u;
    maxValue = nodes * std::max<uint32_t>(n * typeSize, 256u);
}
}  // namespace math_tiling_detail

#define ASCENDCRAFT_EMU_MATH_TILING(API, F32, F16)                                                                  \
    inline void Get##API##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                        uint32_t& maxValue, uint32_t& minValue) {                                  \
        (void)isReuseSource;                                                                                       \
        math_tiling_detail::sizes(#API, {F32, F16}, srcShape, typeSize, maxValue, minValue);                       \
    }                                                                                                              \
    inline void Get##API##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) { \
        extraBuf = 0;                                                                                              \
        maxLiveNodeCount = math_tiling_detail::count({F32, F16}, typeSize);                                        \
    }
ASCENDCRAFT_EMU_MATH_TILING(Asin, 2, 6)
ASCENDCRAFT_EMU_MATH_TILING(Acos, 2, 6)
ASCENDCRAFT_EMU_MATH_TILING(Atan, 5, 12)
ASCENDCRAFT_EMU_MATH_TILING(Asinh, 3, 3)
ASCENDCRAFT_EMU_MATH_TILING(Atanh, 1, 4)
ASCENDCRAFT_EMU_MATH_TILING(Tan, 4, 10)
ASCENDCRAFT_EMU_MATH_TILING(Sinh, 1, 4)
ASCENDCRAFT_EMU_MATH_TILING(Cosh, 2, 6)
ASCENDCRAFT_EMU_MATH_TILING(Tanh, 1, 4)
ASCENDCRAFT_EMU_MATH_TILING(Erf, 3, 8)
ASCENDCRAFT_EMU_MATH_TILING(Erfc, 7, 16)
ASCENDCRAFT_EMU_MATH_TILING(Sign, 3, 3)
ASCENDCRAFT_EMU_MATH_TILING(Frac, 0, 4)
ASCENDCRAFT_EMU_MATH_TILING(Trunc, 1, 2)
ASCENDCRAFT_EMU_MATH_TILING(Floor, 0, 2)
ASCENDCRAFT_EMU_MATH_TILING(Ceil, 1, 2)
ASCENDCRAFT_EMU_MATH_TILING(Log, 0, 0)      // one Ln instruction
ASCENDCRAFT_EMU_MATH_TILING(Log10, 0, 0)    // Ln, then Muls on dst
#undef ASCENDCRAFT_EMU_MATH_TILING

// Acosh: its largest size counts the live buffers in elements (one 256-element block at least), not bytes.
inline void GetAcoshMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t n = 0;
    if (!math_tiling_detail::input_elems("Acosh", srcShape, n)) return;
    const uint32_t nodes = typeSize == 4 ? 1u : 2u;
    minValue = nodes * 256u;
    maxValue = std::max<uint32_t>(nodes * n, 256u) * typeSize;
}
inline void GetAcoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 1u : 2u;
}

// Sin and Cos: float keeps 3 buffers (2 when isReuseSource lets it use the source), half 8; half cannot reuse its
// source (an error, and 0 bytes).
namespace math_tiling_detail {
inline void sincos(const char* api, const ge::Shape& s, uint32_t typeSize, bool reuse, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t n = 0;
    if (!input_elems(api, s, n)) return;
    if (typeSize != 4 && reuse) {
        std::fprintf(stderr, "[ERROR] Get%sMaxMinTmpSize: isReuseSource is not supported for half input\n", api);
        maxValue = minValue = 0;
        return;
    }
    sizes(api, {reuse ? 2u : 3u, 8u}, s, typeSize, maxValue, minValue);
}
}  // namespace math_tiling_detail
inline void GetSinMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    math_tiling_detail::sincos("Sin", srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetCosMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    math_tiling_detail::sincos("Cos", srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetSinTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 3u : 8u;
}
inline void GetCosTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 3u : 8u;
}

// Log2: float needs none; half widens to float (a float copy of the input, one 256-byte repeat at least).
inline void GetLog2MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t n = 0;
    if (!math_tiling_detail::input_elems("Log2", srcShape, n)) return;
    minValue = typeSize == 2 ? 256u : 0u;
    maxValue = typeSize == 2 ? std::max<uint32_t>(n * 4u, 256u) : 0u;
}
inline void GetLog2TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 0u : 2u;
}

// Exp (the high-precision form): float intermediates, 3 for float input (2 with isReuseSource), 4 for half.
inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    const int64_t e = srcShape.GetShapeSize();
    const uint32_t n = e > 0 ? static_cast<uint32_t>(e) : 0u;
    const uint32_t buffers = typeSize == 4 ? (isReuseSource ? 2u : 3u) : 4u;
    minValue = buffers * 256u;
    maxValue = buffers * std::max<uint32_t>(n * 4u, 256u);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == 4 ? 3u : 8u;    // 3 float buffers per float element; 4 per half element = 8 halves
}
// Fmod: Trunc's buffers plus, for half, three float buffers (six halves' worth) for the widened operands.
inline void GetFmodMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    math_tiling_detail::sizes("Fmod", {1, 2 + 6}, srcShape, typeSize, maxValue, minValue);
}
inline void GetFmodTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 1u : 8u;
}

// Xor (16-bit integers): one buffer the size of the input, one 256-byte repeat at least.
inline void GetXorMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t n = 0;
    if (!math_tiling_detail::input_elems("Xor", srcShape, n)) return;
    minValue = 256u;
    maxValue = std::max<uint32_t>(n * typeSize, 256u);
}
inline void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)typeSize;
    extraBuffer = 0;
    maxLiveNodeCount = 1;
}

// Axpy (lib/math): float needs none; half keeps four float-sized buffers per element (one 256-byte repeat each at least).
inline void GetAxpyMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t n = 0;
    if (!math_tiling_detail::input_elems("Axpy", srcShape, n)) return;
    if (typeSize == 4) { maxValue = minValue = 0; return; }
    minValue = 4u * 256u;
    maxValue = 4u * std::max<uint32_t>(n * typeSize, 256u);
}
inline void GetAxpyTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 1u : 4u;
}

// Power: a shape of one dimension of length 1 is the scalar side. The A2 counts of live buffers: tensor ^ tensor keeps
// 4 (float), 6 (int32_t) or 14 (half, counted in halves); a scalar side 5, 7 and 14. Float and half add one 256-byte
// repeat; a half buffer is at least 128 bytes.
namespace math_tiling_detail {
inline bool power_is_tensor(const ge::Shape& s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); }
inline uint32_t power_nodes(bool tt, bool isInt, uint32_t typeSize) {
    if (isInt) return tt ? 6u : 7u;
    if (typeSize == 4) return tt ? 4u : 5u;
    return 14u;
}
}  // namespace math_tiling_detail
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const bool t1 = math_tiling_detail::power_is_tensor(srcShape1), t2 = math_tiling_detail::power_is_tensor(srcShape2);
    const uint32_t nodes = math_tiling_detail::power_nodes(t1 && t2, typeIsInt, typeSize);
    const int64_t e = (t1 ? srcShape1 : srcShape2).GetShapeSize();
    const uint32_t n = e > 0 ? static_cast<uint32_t>(e) : 0u;
    const uint32_t one = typeSize == 4 ? std::max<uint32_t>(n * typeSize, 256u) : std::max<uint32_t>(n * typeSize, 128u);
    if (typeIsInt) { minValue = 256u * nodes; maxValue = one * nodes; }
    else if (typeSize == 4) { minValue = 256u * nodes + 256u; maxValue = one * nodes + 256u; }
    else { minValue = 256u * nodes / 2u + 256u; maxValue = one * nodes + 256u; }
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = math_tiling_detail::power_nodes(baseIsTensor && expIsTensor, typeIsInt, typeSize);
    extraBuffer = typeIsInt ? 0u : 256u;
}

// DropOut: two 256-byte repeats at least; two float buffers the size of the input at most.
inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    (void)srcShape; (void)typeSize; (void)isReuseSource;
    return 2u * 256u;
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    const int64_t e = srcShape.GetShapeSize();
    const uint32_t most = 2u * static_cast<uint32_t>(e > 0 ? e : 0) * 4u;
    return std::max(most, GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource));
}
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

// ClampMax / ClampMin / Clamp keep one byte-mask per element (the compare's result): one repeat's mask at least (64
// elements for float, 128 for half), at most the whole input's; the factor form reports that one node, no extra bytes.
inline void GetClampMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t n = 0;
    if (!math_tiling_detail::input_elems("Clamp", srcShape, n)) return;
    const uint32_t repeatMask = typeSize == sizeof(float) ? 64u : 128u;
    minValue = repeatMask;
    maxValue = std::max<uint32_t>(n, repeatMask);
}
inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuf = 0;
}

// lib/utils/types.h: the host tiling functions' shape type.
using TensorShape = ge::Shape;
}  // namespace AscendC
