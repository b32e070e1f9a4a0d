// AscendCraft CPU emulation: vector instructions (elementwise arithmetic and bitwise, shifts,
// AddRelu/SubRelu, FusedMulAdd/MulAddDst/Axpy, Duplicate, Cast, Compare, Select, Gather,
// CreateVecIndex, masks). Each has the level-2 form `Op(dst, src..., count)` and the level-0 form
// `Op(dst, src..., mask | mask[], repeatTime, repeatParams)`. Brcb, Gatherb and the 16 x 16
// Transpose have only their documented repeat (or single) forms.
#pragma once

#include "tensor.h"

namespace AscendC {
namespace vec_detail {
using ascendcraft::emu::Lanes;
using ascendcraft::emu::Stride;
inline void binary_strides(const BinaryRepeatParams& p, Stride* s) {
    s[0] = {p.dstBlkStride, p.dstRepStride}; s[1] = {p.src0BlkStride, p.src0RepStride}; s[2] = {p.src1BlkStride, p.src1RepStride};
}
inline void unary_strides(const UnaryRepeatParams& p, Stride* s) {
    s[0] = {p.dstBlkStride, p.dstRepStride}; s[1] = {p.srcBlkStride, p.srcRepStride};
}
// Element types the official headers accept at compile time but A2 does not support: AscendC checks them when
// the call runs, and so does the emulator (`unsupported` at the call). Other element types fail to compile.
// `level0<T>`: whether the level-0 (mask) forms compile for T; AscendC checks those at compile time.
// `count_as_int16<T>`: the count form's check; true when the call runs on int16_t lanes instead (And / Or below).
template <ascendcraft::emu::Op op> struct RunTimeTypes {
    template <typename T> static void check(const SrcLoc&) {}
    template <typename T> static bool count_as_int16(int64_t, const SrcLoc&) { return false; }
    template <typename T> static constexpr bool level0 = true;
};
template <> struct RunTimeTypes<ascendcraft::emu::Op::And> {
    template <typename T> static void check(const SrcLoc& loc) {
        ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(And, "int16_t and uint16_t", T, int16_t, uint16_t);
    }
    // A2's count form runs any type as int16_t lanes (runtime.h, bitwise_count_as_int16).
    template <typename T> static bool count_as_int16(int64_t count, const SrcLoc& loc) {
        if (ascendcraft::emu::OneOf<T, int16_t, uint16_t>::value) return false;
        ascendcraft::emu::bitwise_count_as_int16(ascendcraft::emu::Op::And, ascendcraft::emu::dt_of<T>(), count,
                                                 "int16_t and uint16_t (int32_t and uint32_t with the count doubled)", loc);
        return true;
    }
    template <typename T> static constexpr bool level0 = ascendcraft::emu::OneOf<T, int16_t, uint16_t>::value;
};
template <> struct RunTimeTypes<ascendcraft::emu::Op::Or> {
    template <typename T> static void check(const SrcLoc& loc) {
        ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Or, "int16_t and uint16_t", T, int16_t, uint16_t);
    }
    // A2's count form runs any type as int16_t lanes (runtime.h, bitwise_count_as_int16).
    template <typename T> static bool count_as_int16(int64_t count, const SrcLoc& loc) {
        if (ascendcraft::emu::OneOf<T, int16_t, uint16_t>::value) return false;
        ascendcraft::emu::bitwise_count_as_int16(ascendcraft::emu::Op::Or, ascendcraft::emu::dt_of<T>(), count,
                                                 "int16_t and uint16_t (int32_t and uint32_t with the count doubled)", loc);
        return true;
    }
    template <typename T> static constexpr bool level0 = ascendcraft::emu::OneOf<T, int16_t, uint16_t>::value;
};
}  // namespace vec_detail


// ---- binary: dst = src0 op src1 ---------------------------------------------------------------
#define ASCENDCRAFT_EMU_BINARY(API, TEXT, ...)                                                                      \
    template <typename T>                                                                                         \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,             \
                    const int32_t& count, SrcLoc loc = {}) {                                                      \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                    \
        ascendcraft::emu::Stride s[3];                                                                            \
        if (vec_detail::RunTimeTypes<ascendcraft::emu::Op::API>::template count_as_int16<T>(count, loc)) {        \
            ascendcraft::emu::vec_binary(ascendcraft::emu::Op::API, ascendcraft::emu::Dt::i16,                    \
                                         dst.template ReinterpretCast<int16_t>().emu(),                           \
                                         src0.template ReinterpretCast<int16_t>().emu(),                          \
                                         src1.template ReinterpretCast<int16_t>().emu(),                          \
                                         ascendcraft::emu::count_lanes(count), s, loc);                           \
            return;                                                                                               \
        }                                                                                                         \
        vec_detail::RunTimeTypes<ascendcraft::emu::Op::API>::template check<T>(loc);                              \
        ascendcraft::emu::vec_binary(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), \
                                     src1.emu(), ascendcraft::emu::count_lanes(count), s, loc); \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, \
                    const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {           \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                    \
        vec_detail::RunTimeTypes<ascendcraft::emu::Op::API>::template check<T>(loc);                              \
        static_assert(vec_detail::RunTimeTypes<ascendcraft::emu::Op::API>::template level0<T>,                     \
                      #API " on Ascend 910B (A2) supports " TEXT " only");                                        \
        ascendcraft::emu::Stride s[3];                                                                            \
        vec_detail::binary_strides(repeatParams, s);                                                              \
        ascendcraft::emu::vec_binary(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), \
                                     src1.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc); \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,             \
                    const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,       \
                    SrcLoc loc = {}) {                                                                            \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                    \
        vec_detail::RunTimeTypes<ascendcraft::emu::Op::API>::template check<T>(loc);                              \
        static_assert(vec_detail::RunTimeTypes<ascendcraft::emu::Op::API>::template level0<T>,                     \
                      #API " on Ascend 910B (A2) supports " TEXT " only");                                        \
        ascendcraft::emu::Stride s[3];                                                                            \
        vec_detail::binary_strides(repeatParams, s);                                                              \
        ascendcraft::emu::vec_binary(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), \
                                     src1.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc); \
    }

ASCENDCRAFT_EMU_BINARY(Add, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_BINARY(Sub, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_BINARY(Mul, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_BINARY(Div, "half and float", half, float)
ASCENDCRAFT_EMU_BINARY(Max, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_BINARY(Min, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
// And / Or: int16_t and uint16_t on A2; other types compile (AscendC checks them only in its debug builds): the count
// form runs them as A2 does, on int16_t lanes (int32_t / uint32_t as documented, the rest under vector_mask "warning").
ASCENDCRAFT_EMU_BINARY(And, "int16_t and uint16_t", int16_t, uint16_t, half, float, int32_t, uint32_t, int8_t, uint8_t, bfloat16_t)
ASCENDCRAFT_EMU_BINARY(Or, "int16_t and uint16_t", int16_t, uint16_t, half, float, int32_t, uint32_t, int8_t, uint8_t, bfloat16_t)
ASCENDCRAFT_EMU_BINARY(AddRelu, "half, int16_t and float", half, int16_t, float)     // dst = max(src0 + src1, 0)
ASCENDCRAFT_EMU_BINARY(SubRelu, "half, int16_t and float", half, int16_t, float)     // dst = max(src0 - src1, 0)
ASCENDCRAFT_EMU_BINARY(FusedMulAdd, "half and float", half, float)                    // dst = src0 * dst + src1
#undef ASCENDCRAFT_EMU_BINARY

// ---- unary: dst = f(src) ------------------------------------------------------------------------
#define ASCENDCRAFT_EMU_UNARY(API, TEXT, ...)                                                                        \
    template <typename T>                                                                                          \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, SrcLoc loc = {}) {  \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                     \
        ascendcraft::emu::Stride s[2];                                                                             \
        ascendcraft::emu::vec_unary(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),   \
                                    ascendcraft::emu::count_lanes(count), s, loc);              \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,   \
                    const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {                                      \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                     \
        ascendcraft::emu::Stride s[2];                                                                             \
        vec_detail::unary_strides(repeatParams, s);                                                                \
        ascendcraft::emu::vec_unary(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),   \
                                    ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);             \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                    \
                    const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {            \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                     \
        ascendcraft::emu::Stride s[2];                                                                             \
        vec_detail::unary_strides(repeatParams, s);                                                                \
        ascendcraft::emu::vec_unary(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),   \
                                    ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);             \
    }

ASCENDCRAFT_EMU_UNARY(Exp, "half and float", half, float)
ASCENDCRAFT_EMU_UNARY(Ln, "half and float", half, float)
ASCENDCRAFT_EMU_UNARY(Abs, "half and float", half, float)
ASCENDCRAFT_EMU_UNARY(Sqrt, "half and float", half, float)
ASCENDCRAFT_EMU_UNARY(Rsqrt, "half and float", half, float)
ASCENDCRAFT_EMU_UNARY(Reciprocal, "half and float", half, float)
ASCENDCRAFT_EMU_UNARY(Relu, "half, int32_t and float", half, int32_t, float)
ASCENDCRAFT_EMU_UNARY(Not, "int16_t and uint16_t", int16_t, uint16_t)          // bitwise complement
#undef ASCENDCRAFT_EMU_UNARY

// ---- Copy: UB -> UB on the vector pipe (level 0 only on A2), the element's bits under the mask -------------------
// CopyRepeatParams' dstStride/srcStride are block strides within a repeat, dstRepeatSize/srcRepeatSize the repeat
// strides (in 32-byte blocks). 16- and 32-bit element types only.
struct CopyRepeatParams {
    CopyRepeatParams() {}
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn) {}
    uint16_t dstStride = 0;
    uint16_t srcStride = 0;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};
namespace vec_detail {
template <typename T> inline void copy_level0(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Lanes& lanes,
                                              const CopyRepeatParams& p, const SrcLoc& loc) {
    // 8-bit (and 64-bit) types compile, as in AscendC's headers, and stop when the call runs
    if (sizeof(T) != 2 && sizeof(T) != 4)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::Copy, ascendcraft::emu::dt_of<T>(), "16-bit and 32-bit types", loc);
    ascendcraft::emu::Stride s[2] = {{p.dstStride, p.dstRepeatSize}, {p.srcStride, p.srcRepeatSize}};
    ascendcraft::emu::vec_unary(ascendcraft::emu::Op::Copy, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), lanes, s, loc);
}
}  // namespace vec_detail
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams, SrcLoc loc = {}) {
    vec_detail::copy_level0(dst, src, ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams, SrcLoc loc = {}) {
    vec_detail::copy_level0(dst, src, ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), repeatParams, loc);
}

// ---- tensor-scalar: dst = src op scalar -----------------------------------------------------------
#define ASCENDCRAFT_EMU_SCALAR(API, TEXT, ...)                                                                        \
    template <typename T>                                                                                           \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count, \
                    SrcLoc loc = {}) {                                                                              \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                      \
        ascendcraft::emu::Stride s[2];                                                                              \
        ascendcraft::emu::vec_scalar(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),   \
                                     ascendcraft::emu::scalar_of(scalarValue),                                       \
                                     ascendcraft::emu::count_lanes(count), s, loc);              \
    }                                                                                                               \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,        \
                    const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                      \
        ascendcraft::emu::Stride s[2];                                                                              \
        vec_detail::unary_strides(repeatParams, s);                                                                 \
        ascendcraft::emu::vec_scalar(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),   \
                                     ascendcraft::emu::scalar_of(scalarValue),                                       \
                                     ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);             \
    }                                                                                                               \
    template <typename T, bool isSetMask = true>                                                                    \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const uint64_t mask[], \
                    const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TEXT, T, __VA_ARGS__);                                                      \
        ascendcraft::emu::Stride s[2];                                                                              \
        vec_detail::unary_strides(repeatParams, s);                                                                 \
        ascendcraft::emu::vec_scalar(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),   \
                                     ascendcraft::emu::scalar_of(scalarValue),                                       \
                                     ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);             \
    }

ASCENDCRAFT_EMU_SCALAR(Adds, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_SCALAR(Muls, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_SCALAR(Maxs, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_SCALAR(Mins, "half, int16_t, int32_t and float", half, int16_t, int32_t, float)
ASCENDCRAFT_EMU_SCALAR(LeakyRelu, "half and float", half, float)
#undef ASCENDCRAFT_EMU_SCALAR

// ---- Axpy: dst = src * scalar + dst ------------------------------------------------------------------
namespace vec_detail {
template <typename T, typename U> struct AxpyOk {
    static constexpr bool value = (std::is_same<T, half>::value && std::is_same<U, half>::value) ||
                                  (std::is_same<T, float>::value && std::is_same<U, float>::value) ||
                                  (std::is_same<T, float>::value && std::is_same<U, half>::value);
};
// (dst, src) pairs that compile although A2 does not support them (checked when the call runs).
template <typename T, typename U> struct MixedPairCompiles {
    static constexpr bool value = AxpyOk<T, U>::value || (std::is_same<T, half>::value && std::is_same<U, float>::value) ||
                                  (std::is_same<T, U>::value && ascendcraft::emu::OneOf<T, int32_t, int16_t>::value);
};
}  // namespace vec_detail
#define ASCENDCRAFT_EMU_AXPY_CHECK(T, U)                                                                                    \
    static_assert(vec_detail::MixedPairCompiles<T, U>::value,                                                              \
                  "Axpy on Ascend 910B (A2) supports (dst, src) = (half, half), (float, float) and (float, half)");        \
    if (!vec_detail::AxpyOk<T, U>::value)                                                                                  \
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::Axpy, ascendcraft::emu::dt_of<T>(),                        \
                                           "(dst, src) = (half, half), (float, float) and (float, half)", loc)
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const int32_t& count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_AXPY_CHECK(T, U);
    ascendcraft::emu::Stride s[2];
    ascendcraft::emu::vec_axpy(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src.emu(),
                               ascendcraft::emu::scalar_of(scalarValue), ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask, const uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_AXPY_CHECK(T, U);
    ascendcraft::emu::Stride s[2];
    vec_detail::unary_strides(repeatParams, s);
    ascendcraft::emu::vec_axpy(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src.emu(),
                               ascendcraft::emu::scalar_of(scalarValue), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_AXPY_CHECK(T, U);
    ascendcraft::emu::Stride s[2];
    vec_detail::unary_strides(repeatParams, s);
    ascendcraft::emu::vec_axpy(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src.emu(),
                               ascendcraft::emu::scalar_of(scalarValue), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
#undef ASCENDCRAFT_EMU_AXPY_CHECK

// ---- ShiftLeft / ShiftRight: dst = src << n, src >> n (arithmetic for signed types) -------------------
// n must be 0..16 for 16-bit and 0..32 for 32-bit elements. ShiftRight's level-0 form takes roundEn:
// for signed types it adds the last bit shifted out (round half up).
#define ASCENDCRAFT_EMU_SHIFT_CHECK(API, T) \
    ASCENDCRAFT_EMU_TYPES_CHECK(API, "uint16_t, int16_t, uint32_t and int32_t", T, uint16_t, int16_t, uint32_t, int32_t)
#define ASCENDCRAFT_EMU_SHIFT(API, ROUND_PARAM, ROUND_ARG)                                                           \
    template <typename T>                                                                                         \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count, \
                    SrcLoc loc = {}) {                                                                            \
        ASCENDCRAFT_EMU_SHIFT_CHECK(API, T);                                                                      \
        ascendcraft::emu::Stride s[2];                                                                            \
        ascendcraft::emu::vec_shift(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),  \
                                    ascendcraft::emu::scalar_of(scalarValue), false,                              \
                                    ascendcraft::emu::count_lanes(count), s, loc);                                 \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,      \
                    const uint8_t repeatTime, const UnaryRepeatParams& repeatParams ROUND_PARAM, SrcLoc loc = {}) { \
        ASCENDCRAFT_EMU_SHIFT_CHECK(API, T);                                                                      \
        ascendcraft::emu::Stride s[2];                                                                            \
        vec_detail::unary_strides(repeatParams, s);                                                               \
        ascendcraft::emu::vec_shift(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),  \
                                    ascendcraft::emu::scalar_of(scalarValue), ROUND_ARG,                          \
                                    ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);            \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const uint64_t mask[], \
                    const uint8_t repeatTime, const UnaryRepeatParams& repeatParams ROUND_PARAM, SrcLoc loc = {}) { \
        ASCENDCRAFT_EMU_SHIFT_CHECK(API, T);                                                                      \
        ascendcraft::emu::Stride s[2];                                                                            \
        vec_detail::unary_strides(repeatParams, s);                                                               \
        ascendcraft::emu::vec_shift(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),  \
                                    ascendcraft::emu::scalar_of(scalarValue), ROUND_ARG,                          \
                                    ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);            \
    }

#define ASCENDCRAFT_EMU_COMMA ,
ASCENDCRAFT_EMU_SHIFT(ShiftLeft, , false)
ASCENDCRAFT_EMU_SHIFT(ShiftRight, ASCENDCRAFT_EMU_COMMA bool roundEn = false, roundEn)
#undef ASCENDCRAFT_EMU_COMMA
#undef ASCENDCRAFT_EMU_SHIFT
#undef ASCENDCRAFT_EMU_SHIFT_CHECK

// ---- MulAddDst: dst = src0 * src1 + dst (half sources may accumulate into a float dst) ---------------------
namespace vec_detail {
template <typename T, typename U> struct MulAddDstOk {
    static constexpr bool value = (std::is_same<T, half>::value && std::is_same<U, half>::value) ||
                                  (std::is_same<T, float>::value && std::is_same<U, float>::value) ||
                                  (std::is_same<T, float>::value && std::is_same<U, half>::value);
};
}  // namespace vec_detail
#define ASCENDCRAFT_EMU_MULADDDST_CHECK(T, U)                                                                             \
    static_assert(vec_detail::MixedPairCompiles<T, U>::value,                                                            \
                  "MulAddDst on Ascend 910B (A2) supports (dst, src) = (half, half), (float, float) and (float, half) only"); \
    if (!vec_detail::MulAddDstOk<T, U>::value)                                                                           \
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::MulAddDst, ascendcraft::emu::dt_of<T>(),                 \
                                           "(dst, src) = (half, half), (float, float) and (float, half)", loc)
template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const int32_t& count,
                      SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_MULADDDST_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    ascendcraft::emu::vec_muladd_dst(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src0.emu(), src1.emu(),
                                     ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask,
                      const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_MULADDDST_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_muladd_dst(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src0.emu(), src1.emu(),
                                     ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const uint64_t mask[],
                      const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_MULADDDST_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_muladd_dst(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src0.emu(), src1.emu(),
                                     ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
#undef ASCENDCRAFT_EMU_MULADDDST_CHECK

// ---- Brcb: each repeat takes 8 elements of src0 and fills 8 blocks of dst, one element per 32-byte block ------
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime, const BrcbRepeatParams& repeatParams,
                 SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Brcb, "int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t and float", T, int16_t, uint16_t, int32_t,
                                uint32_t, half, bfloat16_t, float, uint8_t);
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Brcb, "int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t and float", T, int16_t, uint16_t,
                                        int32_t, uint32_t, half, bfloat16_t, float);
    ascendcraft::emu::vec_brcb(ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), repeatTime,
                               {repeatParams.dstBlkStride, repeatParams.dstRepStride}, loc);
}

// ---- Gatherb: each repeat copies 8 blocks of 32 bytes from src0 at the byte offsets in `offset` -------------
template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
                    const GatherRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Gatherb, "uint16_t and uint32_t", T, uint16_t, uint32_t, half, float, int16_t, int32_t, uint8_t);
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Gatherb, "uint16_t and uint32_t", T, uint16_t, uint32_t);
    ascendcraft::emu::vec_gatherb(ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), offset.emu(), repeatTime,
                                  {repeatParams.dstBlkStride, repeatParams.dstRepStride}, loc);
}

// ---- Transpose (basic form): dst = the transpose of one 16 x 16 matrix of 2-byte elements -----------------
template <typename T> inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Transpose, "uint16_t, int16_t and half (16 x 16 blocks)", T, uint16_t, int16_t, half, float, int32_t,
                                uint8_t, bfloat16_t);
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Transpose, "uint16_t, int16_t and half (16 x 16 blocks)", T, uint16_t, int16_t, half);
    ascendcraft::emu::vec_transpose16(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), loc);
}

// ---- Transpose with TransposeParamsExt: [N, C, H, W] <-> [N, H, W, C] through a sharedTmpBuffer -------------------
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};
struct TransposeParamsExt {
    constexpr TransposeParamsExt() = default;
    constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn, const uint16_t wSizeIn,
                                 const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
// A2 runs TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW (the other types are the matmul-side layouts of other
// products); 1-, 2- and 4-byte elements.
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& transposeParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Transpose, "int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t and float "
                                        "(TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW)", T, int8_t, uint8_t, int16_t, uint16_t,
                                        half, int32_t, uint32_t, float);
    const TransposeType t = transposeParams.transposeType;
    if (t != TransposeType::TRANSPOSE_NCHW2NHWC && t != TransposeType::TRANSPOSE_NHWC2NCHW)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Transpose,
                                           "Transpose with TransposeParamsExt takes TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW on "
                                           "Ascend 910B (A2)",
                                           "for a 16 x 16 block use Transpose(dst, src)", loc);
    ascendcraft::emu::vec_transpose4d(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), sharedTmpBuffer.emu(),
                                      transposeParams.nSize, transposeParams.cSize, transposeParams.hSize, transposeParams.wSize,
                                      t == TransposeType::TRANSPOSE_NCHW2NHWC, loc);
}

// ---- Duplicate: fill with a scalar --------------------------------------------------------------------
#define ASCENDCRAFT_EMU_DUP_CHECK(T)                                                                            \
    ASCENDCRAFT_EMU_TYPES_CHECK(Duplicate, "int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float", T, \
                                int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float)
template <typename T> inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DUP_CHECK(T);
    ascendcraft::emu::vec_duplicate(ascendcraft::emu::dt_of<T>(), dst.emu(), ascendcraft::emu::scalar_of(scalarValue),
                                    ascendcraft::emu::count_lanes(count), ascendcraft::emu::Stride(), loc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DUP_CHECK(T);
    ascendcraft::emu::vec_duplicate(ascendcraft::emu::dt_of<T>(), dst.emu(), ascendcraft::emu::scalar_of(scalarValue),
                                    ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), {dstBlockStride, dstRepeatStride}, loc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DUP_CHECK(T);
    ascendcraft::emu::vec_duplicate(ascendcraft::emu::dt_of<T>(), dst.emu(), ascendcraft::emu::scalar_of(scalarValue),
                                    ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), {dstBlockStride, dstRepeatStride}, loc);
}
#undef ASCENDCRAFT_EMU_DUP_CHECK

// ---- Cast<dst, src> -----------------------------------------------------------------------------------
namespace vec_detail {
constexpr uint32_t kRound5 = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5);  // RINT FLOOR CEIL ROUND TRUNC
constexpr uint32_t kNone = 1u << 0;
constexpr uint32_t kOdd = 1u << 6;
constexpr uint32_t kDeqScale = 1u << 7;  // compiles; needs the dequantisation scale (SetDeqScale), not emulated
// Round modes allowed for a conversion from U to T on A2 (0 = conversion not supported).
template <typename T, typename U> constexpr uint32_t cast_modes() {
    using std::is_same;
    return (is_same<U, half>::value && is_same<T, float>::value) ? kNone
         : (is_same<U, half>::value && (is_same<T, int32_t>::value || is_same<T, int16_t>::value)) ? kRound5
         : (is_same<U, half>::value && (is_same<T, int8_t>::value || is_same<T, uint8_t>::value)) ? (kRound5 | kNone)
         : (is_same<U, float>::value && is_same<T, float>::value) ? kRound5
         : (is_same<U, float>::value && is_same<T, half>::value) ? (kRound5 | kNone | kOdd)
         : (is_same<U, float>::value && (is_same<T, int32_t>::value || is_same<T, int64_t>::value || is_same<T, int16_t>::value ||
                                         is_same<T, bfloat16_t>::value)) ? kRound5
         : (is_same<U, bfloat16_t>::value && is_same<T, float>::value) ? kNone
         : (is_same<U, bfloat16_t>::value && is_same<T, int32_t>::value) ? kRound5
         : (is_same<U, int16_t>::value && is_same<T, half>::value) ? (kRound5 | kNone)
         : (is_same<U, int16_t>::value && is_same<T, float>::value) ? kNone
         : (is_same<U, int32_t>::value && is_same<T, float>::value) ? (kRound5 | kNone)
         : (is_same<U, int32_t>::value && is_same<T, half>::value) ? kDeqScale
         : (is_same<U, int32_t>::value && (is_same<T, int16_t>::value || is_same<T, int64_t>::value)) ? kNone
         : (is_same<U, int64_t>::value && is_same<T, int32_t>::value) ? kNone
         : ((is_same<U, uint8_t>::value || is_same<U, int8_t>::value) && is_same<T, half>::value) ? kNone
         : (is_same<U, int64_t>::value && is_same<T, float>::value) ? kRound5
         : (is_same<U, half>::value && is_same<T, ::int4b_t>::value) ? (kRound5 | kNone)
         : (is_same<U, ::int4b_t>::value && is_same<T, half>::value) ? kNone
         : 0u;
}
// Cast half <-> int4b_t (two per byte): its own runtime path (emu_int4.cpp)
template <typename T, typename U> constexpr bool cast_int4() {
    return std::is_same<T, ::int4b_t>::value || std::is_same<U, ::int4b_t>::value;
}
}  // namespace vec_detail
#define ASCENDCRAFT_EMU_CAST_CHECK(T, U)                                                                             \
    static_assert(vec_detail::cast_modes<T, U>() != 0,                                                               \
                  "Cast<dst, src>: this conversion is not supported on Ascend 910B (A2); see the Cast conversion table " \
                  "(e.g. half->float, float->half, float->int32_t, int32_t->float, bfloat16_t->float, float->bfloat16_t)");                                                                                       \
    if (vec_detail::cast_modes<T, U>() == vec_detail::kDeqScale && !ascendcraft::emu::deq_scale_set())            \
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Cast,                                             \
            "Cast int32_t -> half on Ascend 910B (A2) multiplies by the dequantisation factor that SetDeqScale sets, " \
            "and this core has not called SetDeqScale (the register holds whatever it held)",                        \
            "call SetDeqScale((half)1.0) first (the round mode does not apply), or Cast int32_t -> float, then "      \
            "float -> half", loc)
// The DEQSCALE register for Cast int32_t -> half (s322fp16): dst = half(src * scale), whatever the RoundMode.
inline void SetDeqScale(half scale, SrcLoc loc = {}) { ascendcraft::emu::set_deq_scale(static_cast<float>(scale), loc); }
template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CAST_CHECK(T, U);
    if (vec_detail::cast_int4<T, U>())
        return ascendcraft::emu::vec_cast_int4(std::is_same<T, ::int4b_t>::value, static_cast<uint8_t>(roundMode), dst.emu(),
                                               src.emu(), ascendcraft::emu::count_lanes(count), nullptr, loc);
    ascendcraft::emu::Stride s[2];
    ascendcraft::emu::vec_cast(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(roundMode), dst.emu(),
                               src.emu(), ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, uint64_t mask, const uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CAST_CHECK(T, U);
    ascendcraft::emu::Stride s[2];
    vec_detail::unary_strides(repeatParams, s);
    if (vec_detail::cast_int4<T, U>())
        return ascendcraft::emu::vec_cast_int4(std::is_same<T, ::int4b_t>::value, static_cast<uint8_t>(roundMode), dst.emu(),
                                               src.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
    ascendcraft::emu::vec_cast(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(roundMode), dst.emu(),
                               src.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CAST_CHECK(T, U);
    ascendcraft::emu::Stride s[2];
    vec_detail::unary_strides(repeatParams, s);
    if (vec_detail::cast_int4<T, U>())
        return ascendcraft::emu::vec_cast_int4(std::is_same<T, ::int4b_t>::value, static_cast<uint8_t>(roundMode), dst.emu(),
                                               src.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
    ascendcraft::emu::vec_cast(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(roundMode), dst.emu(),
                               src.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
#undef ASCENDCRAFT_EMU_CAST_CHECK

// ---- Compare / CompareScalar: a bit mask, bit i = (src0[i] op src1[i]) ----------------------------------
#define ASCENDCRAFT_EMU_CMP_CHECK(API, T, U)                                                                   \
    ASCENDCRAFT_EMU_TYPES_CHECK(API, "half, float and int32_t sources", T, half, float, int32_t, int16_t, uint8_t); \
    /* the official headers take any result type (the NPU build writes the mask's bytes through it; CPU debug */ \
    /* asserts uint8_t when the kernel runs): the other element types compile here and stop when they run,    */ \
    /* or, under run option vector_mask "warning", run so with a warning (mask_type_as_a2)                     */ \
    static_assert(ascendcraft::emu::OneOf<U, uint8_t, int8_t, half, uint16_t, float, int16_t, int32_t,          \
                                          uint32_t>::value,                                                    \
                  #API ": the result tensor must be uint8_t (a bit mask)");                                     \
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(API, "half, float and int32_t sources", T, half, float, int32_t);      \
    if (!ascendcraft::emu::OneOf<U, uint8_t, int8_t>::value)                                                   \
        ascendcraft::emu::mask_type_as_a2(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<U>(),              \
                                          "a uint8_t result tensor (a bit mask)",                               \
                                          "writes the mask's bytes through the tensor's address", loc)
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint32_t count,
                    SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CMP_CHECK(Compare, T, U);
    ascendcraft::emu::Stride s[3];
    ascendcraft::emu::vec_compare(ascendcraft::emu::Op::Compare, ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode), dst.emu(),
                                  src0.emu(), &src1.emu(), ascendcraft::emu::Scalar(), ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint64_t mask,
                    uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CMP_CHECK(Compare, T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_compare(ascendcraft::emu::Op::Compare, ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode), dst.emu(),
                                  src0.emu(), &src1.emu(), ascendcraft::emu::Scalar(),
                                  ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CMP_CHECK(Compare, T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_compare(ascendcraft::emu::Op::Compare, ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode), dst.emu(),
                                  src0.emu(), &src1.emu(), ascendcraft::emu::Scalar(),
                                  ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, uint32_t count,
                          SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CMP_CHECK(CompareScalar, T, U);
    ascendcraft::emu::Stride s[3];
    ascendcraft::emu::vec_compare(ascendcraft::emu::Op::CompareScalar, ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode),
                                  dst.emu(), src0.emu(), nullptr, ascendcraft::emu::scalar_of(src1Scalar),
                                  ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, uint64_t mask,
                          uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CMP_CHECK(CompareScalar, T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::unary_strides(repeatParams, s);
    ascendcraft::emu::vec_compare(ascendcraft::emu::Op::CompareScalar, ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode),
                                  dst.emu(), src0.emu(), nullptr, ascendcraft::emu::scalar_of(src1Scalar),
                                  ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_CMP_CHECK(CompareScalar, T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::unary_strides(repeatParams, s);
    ascendcraft::emu::vec_compare(ascendcraft::emu::Op::CompareScalar, ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(cmpMode),
                                  dst.emu(), src0.emu(), nullptr, ascendcraft::emu::scalar_of(src1Scalar),
                                  ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
#undef ASCENDCRAFT_EMU_CMP_CHECK

// ---- Select: dst[i] = bit i of selMask ? src0[i] : src1[i] (or the scalar) -------------------------------
#define ASCENDCRAFT_EMU_SEL_CHECK(T, U)                                                     \
    ASCENDCRAFT_EMU_TYPES_CHECK(Select, "half and float", T, half, float);                 \
    static_assert(ascendcraft::emu::OneOf<U, uint8_t, uint16_t, uint32_t, uint64_t, int8_t, half>::value, \
                  "Select: selMask must be a uint8_t, uint16_t, uint32_t or uint64_t tensor");            \
    if (std::is_same<U, int8_t>::value) ascendcraft::emu::signed_select_mask(loc);                           \
    else if (!ascendcraft::emu::OneOf<U, uint8_t, uint16_t, uint32_t, uint64_t>::value)                    \
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::Select, ascendcraft::emu::dt_of<U>(),      \
                                           "a uint8_t, uint16_t, uint32_t or uint64_t selMask", loc)
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1, SELMODE selMode,
                   uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SEL_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    ascendcraft::emu::vec_select(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(selMode), dst.emu(),
                                 selMask.emu(), src0.emu(), nullptr, ascendcraft::emu::scalar_of(src1),
                                 ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   SELMODE selMode, uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SEL_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    ascendcraft::emu::vec_select(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(selMode), dst.emu(),
                                 selMask.emu(), src0.emu(), &src1.emu(), ascendcraft::emu::Scalar(),
                                 ascendcraft::emu::count_lanes(count), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1, SELMODE selMode,
                   uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SEL_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_select(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(selMode), dst.emu(),
                                 selMask.emu(), src0.emu(), nullptr, ascendcraft::emu::scalar_of(src1),
                                 ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1, SELMODE selMode,
                   const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SEL_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_select(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(selMode), dst.emu(),
                                 selMask.emu(), src0.emu(), nullptr, ascendcraft::emu::scalar_of(src1),
                                 ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SEL_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_select(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(selMode), dst.emu(),
                                 selMask.emu(), src0.emu(), &src1.emu(), ascendcraft::emu::Scalar(),
                                 ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   SELMODE selMode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SEL_CHECK(T, U);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_select(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), static_cast<uint8_t>(selMode), dst.emu(),
                                 selMask.emu(), src0.emu(), &src1.emu(), ascendcraft::emu::Scalar(),
                                 ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), s, loc);
}
#undef ASCENDCRAFT_EMU_SEL_CHECK
// Level 0 without a selMask tensor: SELMODE::VSEL_CMPMASK_SPR selects by the compare-mask register (the last Compare
// without dst, or SetCmpMask), under the vector mask as it is set (SetVectorMask); the other modes stop at run time.
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Select, "half and float", T, half, float);
    ascendcraft::emu::Stride s[3];
    vec_detail::binary_strides(repeatParams, s);
    ascendcraft::emu::vec_select_cmpmask(ascendcraft::emu::dt_of<T>(), static_cast<uint8_t>(selMode), dst.emu(), src0.emu(),
                                         src1.emu(), ascendcraft::emu::mask_lanes(uint64_t(0), repeatTime, false), s, loc);
}

// ---- Gather: dst[i] = *(src + srcBaseAddr + srcOffset[i] bytes) ---------------------------------------------
// The element type is checked when the call runs, never at compile time: the official A2 Gather checks it with a debug
// assertion only, so CANN compiles an instance of any type (hicann ops-math im2col's bool kernels instantiate
// Gather<int8_t> in a branch of their kernel template).
#define ASCENDCRAFT_EMU_GATHER_CHECK(T)                                                                                     \
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Gather, "int16_t, uint16_t, int32_t, uint32_t, float, half and bfloat16_t", T, int16_t, \
                                        uint16_t, int32_t, uint32_t, float, half, bfloat16_t)
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
                   const uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GATHER_CHECK(T);
    ascendcraft::emu::vec_gather(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), srcOffset.emu(), srcBaseAddr,
                                 ascendcraft::emu::count_lanes(count), 8, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
                   const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GATHER_CHECK(T);
    ascendcraft::emu::vec_gather(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), srcOffset.emu(), srcBaseAddr,
                                 ascendcraft::emu::mask_lanes(mask, repeatTime, true), dstRepStride, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
                   const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GATHER_CHECK(T);
    ascendcraft::emu::vec_gather(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), srcOffset.emu(), srcBaseAddr,
                                 ascendcraft::emu::mask_lanes(mask, repeatTime, true), dstRepStride, loc);
}
#undef ASCENDCRAFT_EMU_GATHER_CHECK

// ---- CreateVecIndex: dst[i] = firstValue + i ---------------------------------------------------------------------
#define ASCENDCRAFT_EMU_INDEX_CHECK(T) \
    ASCENDCRAFT_EMU_TYPES_CHECK(CreateVecIndex, "int16_t, half, int32_t and float", T, int16_t, half, int32_t, float)
template <typename T> inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_INDEX_CHECK(T);
    ascendcraft::emu::vec_index(ascendcraft::emu::dt_of<T>(), dst.emu(), ascendcraft::emu::scalar_of(firstValue),
                                ascendcraft::emu::count_lanes(count), ascendcraft::emu::Stride(), loc);
}
template <typename T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime, uint16_t dstBlkStride,
                           uint8_t dstRepStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_INDEX_CHECK(T);
    ascendcraft::emu::vec_index(ascendcraft::emu::dt_of<T>(), dst.emu(), ascendcraft::emu::scalar_of(firstValue),
                                ascendcraft::emu::mask_lanes(mask, repeatTime, true), {dstBlkStride, dstRepStride}, loc);
}
template <typename T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, const uint64_t mask[], uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_INDEX_CHECK(T);
    ascendcraft::emu::vec_index(ascendcraft::emu::dt_of<T>(), dst.emu(), ascendcraft::emu::scalar_of(firstValue),
                                ascendcraft::emu::mask_lanes(mask, repeatTime, true), {dstBlkStride, dstRepStride}, loc);
}
#undef ASCENDCRAFT_EMU_INDEX_CHECK

// ---- mask registers ------------------------------------------------------------------------------------------
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, SrcLoc loc = {}) {
    ascendcraft::emu::mask_set(ascendcraft::emu::dt_of<T>(), mode == MaskMode::COUNTER, maskHigh, maskLow, false, loc);
}
template <typename T, MaskMode mode = MaskMode::NORMAL> inline void SetVectorMask(int32_t len, SrcLoc loc = {}) {
    ascendcraft::emu::mask_set(ascendcraft::emu::dt_of<T>(), mode == MaskMode::COUNTER, 0, static_cast<uint64_t>(len), true, loc);
}
inline void SetMaskCount(SrcLoc loc = {}) { ascendcraft::emu::mask_mode(true, loc); }
inline void SetMaskNorm(SrcLoc loc = {}) { ascendcraft::emu::mask_mode(false, loc); }
inline void ResetMask(SrcLoc loc = {}) { ascendcraft::emu::mask_reset(loc); }

}  // namespace AscendC
