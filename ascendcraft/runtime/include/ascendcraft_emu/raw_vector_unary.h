// AscendCraft CPU emulation: the device compiler's raw vector intrinsics of one source that SGLang's laser_attention
// vector side calls beside those of raw_vector.h / raw_vector_arith.h:
//   vcmax(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, order): level-0 WholeReduceMax under the current
//   mask register, `order` an Order_t (VALUE_INDEX, INDEX_VALUE, ONLY_VALUE, ONLY_INDEX: ReduceOrder's four, in its
//   order, so `(Order_t)0b10` is the value alone);
//   vexp(dst, src, repeat, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride): level-0 Exp under the mask;
//   vconv_f162f32 / vconv_f322f16 (same arguments): level-0 Cast half -> float and float -> half (CAST_NONE: the
//   conversion's own rounding) under the mask;
//   vbrcb(dst, src, dstBlkStride, dstRepStride, repeat): Brcb, each repeat 8 elements of src each filling one 32-byte
//   block of dst.
// Each is the documented AscendC API on views of the raw UB pointers (devkit_impl.h). Written from the public AscendC
// documentation of these APIs (WholeReduceMax, Exp, Cast, Brcb); no vendor code.
#pragma once

#include "devkit_impl.h"

enum class Order_t : uint8_t { VALUE_INDEX = 0, INDEX_VALUE = 1, ONLY_VALUE = 2, ONLY_INDEX = 3 };

template <typename T>
inline void vcmax(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                  Order_t order, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::WholeReduceMax<T, false>(AscendC::devkit_detail::ub(dst, "vcmax", loc), AscendC::devkit_detail::ub(src, "vcmax", loc),
                                      uint64_t{0}, repeat, dstRepStride, srcBlkStride, srcRepStride,
                                      static_cast<AscendC::ReduceOrder>(order), loc);
}
template <typename T>
inline void vexp(T* dst, T* src, uint8_t repeat, uint16_t dstBlkStride, uint16_t srcBlkStride, uint16_t dstRepStride,
                 uint16_t srcRepStride, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::Exp<T, false>(AscendC::devkit_detail::ub(dst, "vexp", loc), AscendC::devkit_detail::ub(src, "vexp", loc), uint64_t{0},
                           repeat, AscendC::UnaryRepeatParams(dstBlkStride, srcBlkStride, static_cast<uint8_t>(dstRepStride),
                                                              static_cast<uint8_t>(srcRepStride)), loc);
}
// the raw conversions: one macro with the rounding mode (raw_vector_compare.h adds the rounding forms and #undefs it)
#define ASCENDCRAFT_RAW_VCONV(raw, D, S, MODE)                                                                         \
    inline void raw(D* dst, S* src, uint8_t repeat, uint16_t dstBlkStride, uint16_t srcBlkStride, uint16_t dstRepStride,  \
                    uint16_t srcRepStride, ascendcraft::emu::SrcLoc loc = {}) {                                         \
        AscendC::Cast<D, S, false>(AscendC::devkit_detail::ub(dst, #raw, loc), AscendC::devkit_detail::ub(src, #raw, loc), \
                                   AscendC::RoundMode::MODE, uint64_t{0}, repeat,                                       \
                                   AscendC::UnaryRepeatParams(dstBlkStride, srcBlkStride,                              \
                                                              static_cast<uint8_t>(dstRepStride),                       \
                                                              static_cast<uint8_t>(srcRepStride)), loc);                \
    }
ASCENDCRAFT_RAW_VCONV(vconv_f162f32, float, half, CAST_NONE)
ASCENDCRAFT_RAW_VCONV(vconv_f322f16, half, float, CAST_NONE)
template <typename T>
inline void vbrcb(T* dst, T* src, uint16_t dstBlkStride, uint16_t dstRepStride, uint8_t repeat,
                  ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::Brcb(AscendC::devkit_detail::ub(dst, "vbrcb", loc), AscendC::devkit_detail::ub(src, "vbrcb", loc), repeat,
                  AscendC::BrcbRepeatParams(dstBlkStride, dstRepStride), loc);
}
