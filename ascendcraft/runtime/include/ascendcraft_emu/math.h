// AscendCraft CPU emulation: the lib/math and activation advanced APIs beyond adv.h (Tan, Asin, Acos,
// Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erfc, Sign, Frac, ClampMax, ClampMin, Silu, Gelu, FasterGelu, FasterGeluV2, Swish, Power), the kernel-side
// debugging calls (ASSERT / ascendc_assert) and small scalar helpers (ToFloat, ToBfloat16). Each element
// is computed in float (double for Power) and rounded to T; the documented rules are checked as in adv.h:
// half and float only (Power also int32_t), no overlap of dst / src / sharedTmpBuffer, free UB for the
// framework-allocated temporaries. Signatures from the public AscendC API reference; no vendor code.
#pragma once

#include <cstdio>
#include <string>

#include "tensor.h"

namespace ascendcraft { namespace emu {
// op, dt, dst, src0, src1 (nullptr: scalar), scalar, scalar side (0: src1 is the scalar, 1: src0 is), tmp, count
// DropOut: rows of srcLastAxis elements; the mask has maskLastAxis bytes a row, one byte (mode 1 / 2) or one bit
// (mode 3 / 4) an element; mode 0 picks by the axes as A2 does.
void vec_dropout(Dt dt, const Local& d, const Local& a, const Local& mask, const Local* tmp, float keepProb, uint32_t rows,
                 uint32_t srcLastAxis, uint32_t maskLastAxis, uint32_t mode, SrcLoc loc);
void vec_math(Op op, Dt dt, const Local& d, const Local& a, const Local* b, Scalar v, int scalar_first, const Local* tmp,
              uint64_t count, SrcLoc loc);
[[noreturn]] void kernel_assert_failed(const char* expr, const char* text, SrcLoc loc);
void kernel_assert_warning(const char* expr, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

// The shape struct of the DropOut advanced API (lib/filter): rows, elements a row, mask bytes a row. Kernels also use
// it as a plain record of a row layout (cann-ops rfft1_d).
struct DropOutShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

// Unary advanced APIs with the four usual forms: (dst, src, tmp, count), (dst, src, tmp), (dst, src, count), (dst, src).
#define ASCENDCRAFT_EMU_MATH(API)                                                                                  \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = {}) {        \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   srcTensor.emu(), nullptr, {}, 0, &sharedTmpBuffer.emu(), calCount, loc);        \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {                                \
        API<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);                    \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,      \
                    SrcLoc loc = {}) {                                                                             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   srcTensor.emu(), nullptr, {}, 0, nullptr, calCount, loc);                       \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, SrcLoc loc = {}) {            \
        API<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);                                     \
    }

ASCENDCRAFT_EMU_MATH(Tan)
ASCENDCRAFT_EMU_MATH(Asin)
ASCENDCRAFT_EMU_MATH(Acos)
ASCENDCRAFT_EMU_MATH(Atan)
ASCENDCRAFT_EMU_MATH(Sinh)
ASCENDCRAFT_EMU_MATH(Cosh)
ASCENDCRAFT_EMU_MATH(Erfc)
ASCENDCRAFT_EMU_MATH(Sign)
ASCENDCRAFT_EMU_MATH(Frac)
ASCENDCRAFT_EMU_MATH(Asinh)
ASCENDCRAFT_EMU_MATH(Acosh)
ASCENDCRAFT_EMU_MATH(Atanh)
#undef ASCENDCRAFT_EMU_MATH

// ClampMax (dst = min(src, scalar)) and ClampMin (dst = max(src, scalar)), with or without a sharedTmpBuffer. The API
// reference lists half and float; A2 computes them with one Mins / Maxs (never reading the temporaries), and the
// official headers also accept the int16_t / int32_t that Mins / Maxs take, so we do too (exact integer results).
#define ASCENDCRAFT_EMU_CLAMP(API)                                                                                 \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,          \
                    SrcLoc loc = {}) {                                                                             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half, int16_t, int32_t and float", T, half, int16_t, int32_t, float);          \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   srcTensor.emu(), nullptr, ascendcraft::emu::scalar_of(scalar), 0,               \
                                   &sharedTmpBuffer.emu(), calCount, loc);                                         \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,               \
                    const uint32_t calCount, SrcLoc loc = {}) {                                                    \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half, int16_t, int32_t and float", T, half, int16_t, int32_t, float);          \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   srcTensor.emu(), nullptr, ascendcraft::emu::scalar_of(scalar), 0, nullptr,      \
                                   calCount, loc);                                                                 \
    }
ASCENDCRAFT_EMU_CLAMP(ClampMax)
ASCENDCRAFT_EMU_CLAMP(ClampMin)
#undef ASCENDCRAFT_EMU_CLAMP

// Activations with (dst, src, [tmp,] dataSize) and the highPrecision / highPerformance switches.
#define ASCENDCRAFT_EMU_GELU(API)                                                                                  \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                               \
    inline void API(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                                \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize, SrcLoc loc = {}) {        \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstLocal.emu(),          \
                                   srcLocal.emu(), nullptr, {}, 0, &sharedTmpBuffer.emu(), dataSize, loc);         \
    }                                                                                                              \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                               \
    inline void API(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,        \
                    SrcLoc loc = {}) {                                                                             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstLocal.emu(),          \
                                   srcLocal.emu(), nullptr, {}, 0, nullptr, dataSize, loc);                        \
    }

ASCENDCRAFT_EMU_GELU(Gelu)
ASCENDCRAFT_EMU_GELU(FasterGelu)
ASCENDCRAFT_EMU_GELU(FasterGeluV2)
#undef ASCENDCRAFT_EMU_GELU

// Silu(dst, src, dataSize): x * sigmoid(x).
template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Silu, "half and float", T, half, float);
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Silu, ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), nullptr,
                               {}, 0, nullptr, dataSize, loc);
}
// Swish(dst, src, dataSize, beta): x * sigmoid(beta * x).
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, const T scalarValue,
                  SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Swish, "half and float", T, half, float);
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Swish, ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), nullptr,
                               ascendcraft::emu::scalar_of(scalarValue), 0, nullptr, dataSize, loc);
}

// Power: tensor ^ tensor, tensor ^ scalar, scalar ^ tensor; half, float and int32_t.
#define ASCENDCRAFT_EMU_POWER_CHECK ASCENDCRAFT_EMU_TYPES_CHECK(Power, "half, float and int32_t", T, half, float, int32_t)
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_POWER_CHECK;
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Power, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), src0Tensor.emu(),
                               &src1Tensor.emu(), {}, 0, &sharedTmpBuffer.emu(), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_POWER_CHECK;
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Power, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), src0Tensor.emu(),
                               &src1Tensor.emu(), {}, 0, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  SrcLoc loc = {}) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_POWER_CHECK;
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Power, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), src0Tensor.emu(),
                               nullptr, ascendcraft::emu::scalar_of(src1Scalar), 0, &sharedTmpBuffer.emu(), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar, uint32_t calCount,
                  SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_POWER_CHECK;
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Power, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), src0Tensor.emu(),
                               nullptr, ascendcraft::emu::scalar_of(src1Scalar), 0, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar, SrcLoc loc = {}) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_POWER_CHECK;
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Power, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), src1Tensor.emu(),
                               nullptr, ascendcraft::emu::scalar_of(src0Scalar), 1, &sharedTmpBuffer.emu(), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor, uint32_t calCount,
                  SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_POWER_CHECK;
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Power, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), src1Tensor.emu(),
                               nullptr, ascendcraft::emu::scalar_of(src0Scalar), 1, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor, SrcLoc loc = {}) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize(), loc);
}
// The forms with a sharedTmpBuffer and no count (the whole source tensor).
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize(), loc);
}
#undef ASCENDCRAFT_EMU_POWER_CHECK

// Binary advanced APIs with the four usual forms: (dst, src0, src1, tmp, count), (dst, src0, src1, tmp),
// (dst, src0, src1, count), (dst, src0, src1).
// Fmod (half, float): A2 divides, truncates, multiplies back and subtracts, each step rounded to float (half widens
// to float first), so the result is src0 - trunc(src0 / src1) * src1 in float arithmetic, not C's exact fmod.
// Xor (int16_t, uint16_t): bitwise exclusive or.
#define ASCENDCRAFT_EMU_BINARY_MATH(API, TYPES, ...)                                                               \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                             \
                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,                  \
                    const uint32_t calCount, SrcLoc loc = {}) {                                                    \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TYPES, T, __VA_ARGS__);                                                    \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   src0Tensor.emu(), &src1Tensor.emu(), {}, 0, &sharedTmpBuffer.emu(), calCount,   \
                                   loc);                                                                           \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                             \
                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) { \
        API<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);      \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                             \
                    const LocalTensor<T>& src1Tensor, const uint32_t calCount, SrcLoc loc = {}) {                  \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TYPES, T, __VA_ARGS__);                                                    \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   src0Tensor.emu(), &src1Tensor.emu(), {}, 0, nullptr, calCount, loc);            \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                             \
                    const LocalTensor<T>& src1Tensor, SrcLoc loc = {}) {                                           \
        API<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);                      \
    }
ASCENDCRAFT_EMU_BINARY_MATH(Fmod, "half and float", half, float)
ASCENDCRAFT_EMU_BINARY_MATH(Xor, "int16_t and uint16_t", int16_t, uint16_t)
#undef ASCENDCRAFT_EMU_BINARY_MATH

// Axpy, the advanced form (lib/math): dst += src * scalar with a sharedTmpBuffer, computed in float; (dst, src) =
// (half, half), (float, float) or (float, half), as the basic Axpy.
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = {}) {
    static_assert((std::is_same<T, half>::value && std::is_same<U, half>::value) ||
                      (std::is_same<T, float>::value && std::is_same<U, float>::value) ||
                      (std::is_same<T, float>::value && std::is_same<U, half>::value),
                  "Axpy (lib/math) on Ascend 910B (A2) supports (dst, src) = (half, half), (float, float) and (float, half)");
    (void)sharedTmpBuffer;   // A2 stages the float products there; the emulator computes each lane in float directly
    Axpy<T, U>(dstTensor, srcTensor, scalarValue, static_cast<int32_t>(calCount), loc);
}

// DropOut (lib/filter): dst = src * mask / keepProb, with a byte mask (each byte's value multiplies) or a bit mask (a set
// bit keeps the element); half and float; 0 < keepProb < 1.
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info,
                    SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(DropOut, "half and float", T, half, float);
    static_assert(dropOutMode <= 4, "dropOutMode should be 0 / 1 / 2 / 3 / 4");
    ascendcraft::emu::vec_dropout(ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), maskLocal.emu(),
                                  &sharedTmpBuffer.emu(), keepProb, info.firstAxis, info.srcLastAxis, info.maskLastAxis,
                                  dropOutMode, loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const float keepProb, const DropOutShapeInfo& info, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(DropOut, "half and float", T, half, float);
    static_assert(dropOutMode <= 4, "dropOutMode should be 0 / 1 / 2 / 3 / 4");
    ascendcraft::emu::vec_dropout(ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), maskLocal.emu(), nullptr,
                                  keepProb, info.firstAxis, info.srcLastAxis, info.maskLastAxis, dropOutMode, loc);
}

// bfloat16 <-> float scalar conversions.
inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }
// Their names on A2 since the devkit's rename: Cast(bfloat16_t) -> float and Cast(float) -> bfloat16_t, one argument
// (hicann ops-nn add_layer_norm_quant: `perTensorScale1 = Cast(scales1Gm.GetValue(0));`).
inline float Cast(const bfloat16_t& v) { return ToFloat(v); }
inline bfloat16_t Cast(const float& v) { return ToBfloat16(v); }

}  // namespace AscendC

// Kernel assertions: a failing condition stops the run with an error at the kernel line, showing the message.
#define ascendc_assert(cond, ...)                                                                              \
    ((cond) ? (void)0                                                                                            \
            : ::ascendcraft::emu::kernel_assert_failed(#cond, ::ascendcraft::emu::assert_text("" __VA_ARGS__).c_str(), \
                                                       ::ascendcraft::emu::SrcLoc()))
// The device headers make assert() the same check as ascendc_assert, with an optional printf-style message
// (`assert(n > 0, "n = %d", n)`); <cassert>'s one-argument assert would not take the message.
#undef assert
#define assert(...) ascendc_assert(__VA_ARGS__)
// ASSERT is empty in CANN's device build and assert() in its CPU debug build. Here a failing ASSERT is a warning in
// the run's output (on the NPU the kernel carries on). Kernels rely on the empty device form in two ways, both of which
// parse: inside an expression (`x = n ASSERT(n != 0);`: the check is `+0 * check` added to it) and as a statement
// without its semicolon (`ASSERT(n != 0)` then the next statement: the check's own `;` ends it, and the trailing
// `if (false) {}` takes the semicolon a kernel does write). ascendc_assert, which the device keeps, stops the run.
#ifndef ASSERT
#define ASSERT(cond)                                                                                                   \
    +0 * ((cond) ? 0 : (::ascendcraft::emu::kernel_assert_warning(#cond, ::ascendcraft::emu::SrcLoc()), 0)); if (false) {}
#endif

namespace ascendcraft { namespace emu {
inline std::string assert_text(const char* fmt) { return fmt ? fmt : ""; }
template <typename... A> inline std::string assert_text(const char* fmt, A... args) {
    static_assert(!std::disjunction<std::is_same<A, double>...>::value,
                  "assert / ascendc_assert message: a double argument is not supported on the device; pass a float");
    char buf[512];
    std::snprintf(buf, sizeof(buf), fmt, args...);
    return buf;
}
}}  // namespace ascendcraft::emu

