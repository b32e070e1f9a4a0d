// AscendCraft CPU emulation: the device compiler's raw compare, select and conversion intrinsics that hicann ops-math's
// arg_max_with_value / arg_min_with_value kernels call beside those of raw_vector*.h:
//   vcmin(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, order): level-0 WholeReduceMin under the current
//   mask register, `order` an Order_t (as vcmax, raw_vector_unary.h);
//   vcmpv_lt / gt / eq / le / ge / ne (dst, src0, src1, repeat, dstBlkStride, src0BlkStride, src1BlkStride,
//   dstRepStride, src0RepStride, src1RepStride): level-0 Compare into a uint8_t bit mask (int32_t: eq only);
//   vcmpvs_lt / ... / ne (dst, src, scalar, repeat, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride): level-0
//   CompareScalar into a bit mask;
//   vcmp_lt / ... / ne (src0, src1, repeat, the six strides): Compare of one repeat into the compare-mask register;
//   set_cmpmask(src): SetCmpMask, 16 bytes of UB into the compare-mask register;
//   vsel(dst, src0, src1, repeat, the six strides[, mode]): Select. Mode 0 (VSEL_CMPMASK_SPR): lane l of each repeat
//   takes src0 where bit l of the register is 1, else src1. Mode 1 (VSEL_TENSOR_SCALAR_MODE): src1 is the selMask
//   tensor, the scalar the register's first element (set_cmpmask of a buffer the kernel filled with it). Mode 2
//   (VSEL_TENSOR_TENSOR_MODE): the register's first 32 bits are the UB address of the selMask tensor;
//   vconv_<from>2<to>[r|f]: level-0 Cast (no suffix CAST_NONE, r CAST_RINT, f CAST_FLOOR), same arguments as
//   vconv_f162f32;
//   set_mov_pad_val(bits): SetPadValue, the value copy_gm_to_ubuf_align pads with; get_rsvd_cnt(): GetRsvdCnt.
// The mode and the selMask's place follow how the AscendC API's Select and Compare are documented to use the register
// (SetCmpMask, Select's three modes). Each is the documented AscendC API on views of the raw UB pointers
// (devkit_impl.h), so checks, race records, trace and cost are the API path's; no vendor code.
#pragma once

#include "block_sync.h"
#include "devkit_impl.h"
#include "raw_vector_unary.h"

namespace ascendcraft { namespace emu {
// The compare-mask register's 16 bytes as they are now (all zeros until a Compare or SetCmpMask wrote them).
void cmp_mask_read(uint8_t out[16], SrcLoc loc);   // emu_block_sync.cpp
}}  // namespace ascendcraft::emu

template <typename T>
inline void vcmin(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                  Order_t order, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::WholeReduceMin<T, false>(AscendC::devkit_detail::ub(dst, "vcmin", loc), AscendC::devkit_detail::ub(src, "vcmin", loc),
                                      uint64_t{0}, repeat, dstRepStride, srcBlkStride, srcRepStride,
                                      static_cast<AscendC::ReduceOrder>(order), loc);
}

#define ASCENDCRAFT_RAW_VCMP(op, MODE)                                                                                  \
    template <typename T>                                                                                               \
    inline void vcmpv_##op(uint8_t* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlkStride, uint8_t src0BlkStride, \
                           uint8_t src1BlkStride, uint8_t dstRepStride, uint8_t src0RepStride, uint8_t src1RepStride,   \
                           ascendcraft::emu::SrcLoc loc = {}) {                                                         \
        AscendC::Compare<T, uint8_t, false>(AscendC::devkit_detail::ub(dst, "vcmpv_" #op, loc),                         \
                                            AscendC::devkit_detail::ub(src0, "vcmpv_" #op, loc),                        \
                                            AscendC::devkit_detail::ub(src1, "vcmpv_" #op, loc), AscendC::CMPMODE::MODE, \
                                            uint64_t{0}, repeat,                                                        \
                                            AscendC::BinaryRepeatParams(dstBlkStride, src0BlkStride, src1BlkStride,     \
                                                                        dstRepStride, src0RepStride, src1RepStride), loc); \
    }                                                                                                                   \
    template <typename T>                                                                                               \
    inline void vcmpvs_##op(uint8_t* dst, T* src, typename std::decay<T>::type scalar, uint8_t repeat,                 \
                            uint16_t dstBlkStride, uint16_t srcBlkStride, uint16_t dstRepStride, uint16_t srcRepStride, \
                            ascendcraft::emu::SrcLoc loc = {}) {                                                        \
        AscendC::CompareScalar<T, uint8_t, false>(AscendC::devkit_detail::ub(dst, "vcmpvs_" #op, loc),                  \
                                                  AscendC::devkit_detail::ub(src, "vcmpvs_" #op, loc), scalar,          \
                                                  AscendC::CMPMODE::MODE, uint64_t{0}, repeat,                          \
                                                  AscendC::UnaryRepeatParams(dstBlkStride, srcBlkStride,                \
                                                                             static_cast<uint8_t>(dstRepStride),        \
                                                                             static_cast<uint8_t>(srcRepStride)), loc); \
    }                                                                                                                   \
    template <typename T>                                                                                               \
    inline void vcmp_##op(T* src0, T* src1, uint8_t repeat, uint8_t dstBlkStride, uint8_t src0BlkStride,                \
                          uint8_t src1BlkStride, uint8_t dstRepStride, uint8_t src0RepStride, uint8_t src1RepStride,    \
                          ascendcraft::emu::SrcLoc loc = {}) {                                                          \
        if (repeat != 1)                                                                                                \
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Compare,                                          \
                "vcmp_" #op " writes one repeat's bits into the compare-mask register; a repeat count other than 1 is " \
                "not emulated", "pass repeat 1 (one call a repeat), or vcmpv_" #op " into a bit-mask tensor", loc);      \
        AscendC::Compare<T, false>(AscendC::devkit_detail::ub(src0, "vcmp_" #op, loc),                                  \
                                   AscendC::devkit_detail::ub(src1, "vcmp_" #op, loc), AscendC::CMPMODE::MODE,          \
                                   uint64_t{0},                                                                         \
                                   AscendC::BinaryRepeatParams(dstBlkStride, src0BlkStride, src1BlkStride,              \
                                                               dstRepStride, src0RepStride, src1RepStride), loc);       \
    }
ASCENDCRAFT_RAW_VCMP(lt, LT)
ASCENDCRAFT_RAW_VCMP(gt, GT)
ASCENDCRAFT_RAW_VCMP(eq, EQ)
ASCENDCRAFT_RAW_VCMP(le, LE)
ASCENDCRAFT_RAW_VCMP(ge, GE)
ASCENDCRAFT_RAW_VCMP(ne, NE)
#undef ASCENDCRAFT_RAW_VCMP

template <typename T> inline void set_cmpmask(T* src, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::SetCmpMask(AscendC::devkit_detail::ub(src, "set_cmpmask", loc), loc);
}

// vsel: in mode 1 the third pointer is the selMask tensor (any of Select's selMask types), else a second source
template <typename T, typename S>
inline void vsel(T* dst, T* src0, S* src1, uint8_t repeat, uint8_t dstBlkStride, uint8_t src0BlkStride,
                 uint8_t src1BlkStride, uint8_t dstRepStride, uint8_t src0RepStride, uint8_t src1RepStride,
                 uint8_t mode = 0, ascendcraft::emu::SrcLoc loc = {}) {
    using AscendC::SELMODE;
    const AscendC::BinaryRepeatParams params(dstBlkStride, src0BlkStride, src1BlkStride, dstRepStride, src0RepStride,
                                             src1RepStride);
    const auto d = AscendC::devkit_detail::ub(dst, "vsel", loc);
    const auto a = AscendC::devkit_detail::ub(src0, "vsel", loc);
    if constexpr (ascendcraft::emu::OneOf<S, uint8_t, uint16_t, uint32_t, uint64_t>::value) {
        if (mode == 1) {
            uint8_t reg[16];
            ascendcraft::emu::cmp_mask_read(reg, loc);
            T scalar;
            std::memcpy(&scalar, reg, sizeof(T));
            return AscendC::Select<T, S, false>(d, AscendC::devkit_detail::ub(src1, "vsel", loc), a, scalar,
                                                SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{0}, repeat, params, loc);
        }
    }
    if constexpr (std::is_same<S, T>::value) {
        const auto b = AscendC::devkit_detail::ub(src1, "vsel", loc);
        if (mode == 0) return AscendC::Select<T, SELMODE::VSEL_CMPMASK_SPR>(d, a, b, repeat, params, loc);
        if (mode == 2) {
            uint8_t reg[16];
            ascendcraft::emu::cmp_mask_read(reg, loc);
            uint32_t addr;
            std::memcpy(&addr, reg, 4);
            const auto sel = AscendC::devkit_detail::ub(reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(addr)),
                                                        "vsel (mode 2: the selMask address in the compare-mask register)", loc);
            return AscendC::Select<T, uint8_t, false>(d, sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint64_t{0}, repeat,
                                                      params, loc);
        }
    }
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Select,
        "vsel: mode 0 and 2 take two sources of dst's type, mode 1 a selMask tensor; modes above 2 do not exist",
        "pass mode 0 (VSEL_CMPMASK_SPR), 1 (VSEL_TENSOR_SCALAR_MODE, src1 the selMask) or 2 (VSEL_TENSOR_TENSOR_MODE)", loc);
}

ASCENDCRAFT_RAW_VCONV(vconv_s322f32, float, int32_t, CAST_NONE)
ASCENDCRAFT_RAW_VCONV(vconv_bf162f32, float, bfloat16_t, CAST_NONE)
ASCENDCRAFT_RAW_VCONV(vconv_s162f32, float, int16_t, CAST_NONE)
ASCENDCRAFT_RAW_VCONV(vconv_s162f16, half, int16_t, CAST_NONE)
ASCENDCRAFT_RAW_VCONV(vconv_f322s32r, int32_t, float, CAST_RINT)
ASCENDCRAFT_RAW_VCONV(vconv_f322s32f, int32_t, float, CAST_FLOOR)
ASCENDCRAFT_RAW_VCONV(vconv_f162s32r, int32_t, half, CAST_RINT)
ASCENDCRAFT_RAW_VCONV(vconv_f322f16r, half, float, CAST_RINT)
ASCENDCRAFT_RAW_VCONV(vconv_f322bf16r, bfloat16_t, float, CAST_RINT)
ASCENDCRAFT_RAW_VCONV(vconv_f322s16r, int16_t, float, CAST_RINT)
#undef ASCENDCRAFT_RAW_VCONV

inline void set_mov_pad_val(uint64_t bits, ascendcraft::emu::SrcLoc loc = {}) { ascendcraft::emu::set_pad_value(bits, loc); }
inline int64_t get_rsvd_cnt() { return ascendcraft::emu::gather_mask_rsvd_cnt(); }
