// AscendCraft CPU emulation: the device compiler's raw vector intrinsics that kernels ported from the devkit's own code
// call beside the AscendC API (cann-ops / NPUKernelBench add_layer_norm, inplace_add_layer_norm):
//   the address registers VA0..VA7 (ub_addr8_t): set_va_reg_sb(VAn, uint64_t addrs[8]) loads 8 UB addresses;
//   scatter_vnchwconv_b8/b16/b32(dst, src, repeat, dstStride, srcStride[, dstHigh, srcHigh]): TransDataTo5HD whose 16
//   destination and 16 source block addresses are the register pairs (dst, dst + 1) and (src, src + 1);
//   vector_dup(dst, value, repeat, dstBlockStride, srcBlockStride, dstRepeatStride, srcRepeatStride): level-0 Duplicate
//   under the current mask register; vor / vand(dst, src0, src1, repeat, 3 block strides, 3 repeat strides): level-0
//   Or / And under the current mask; vtranspose(dst, src): Transpose of one 16 x 16 block of 2-byte elements;
//   copy_ubuf_to_ubuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap): DataCopy UB -> UB in 32-byte blocks.
//   vconv_s42f16(dst, src, repeat, dstBlockStride, srcBlockStride, dstRepeatStride, srcRepeatStride): level-0 Cast
//   int4b_t -> half under the current mask register (counter mode: its count); vconv_f162s4 / f162s4r / f162s4f /
//   f162s4c / f162s4a / f162s4z: half -> int4b_t, CAST_NONE / RINT / FLOOR / CEIL / ROUND / TRUNC (emu_int4.cpp).
// Each is the documented AscendC API on views of the raw pointers (devkit_impl.h). Written from the public AscendC
// documentation (asc_set_va_reg, asc_transto5hd, the basic API pages); no vendor code.
#pragma once

#include "devkit_impl.h"
#include "rearrange.h"

enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace ascendcraft { namespace emu {
// The block's address registers: set_va_reg_sb loads one; va_pair reads the 16 addresses of registers reg and reg + 1
// (an error names `api` when reg is VA7, or when either register was never loaded in this block).
void va_set(uint8_t reg, const uint64_t* addrs, SrcLoc loc);
void va_pair(uint8_t reg, uint64_t out[16], const char* api, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace raw_vector_detail {
template <typename T>
inline void vnchwconv(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride, bool dstHigh,
                      bool srcHigh, const char* api, SrcLoc loc) {
    uint64_t d[16], s[16];
    ascendcraft::emu::va_pair(dst, d, api, loc);
    ascendcraft::emu::va_pair(src, s, api, loc);
    TransDataTo5HD<T>(d, s, TransDataTo5HDParams(dstHigh, srcHigh, repeat, dstStride, srcStride), loc);
}
}  // namespace raw_vector_detail
}  // namespace AscendC

inline void set_va_reg_sb(ub_addr8_t reg, uint64_t* addrs, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::va_set(reg, addrs, loc);
}
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                                  ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_vector_detail::vnchwconv<uint16_t>(dst, src, repeat, dstStride, srcStride, false, false, "scatter_vnchwconv_b16", loc);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                                  ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_vector_detail::vnchwconv<uint32_t>(dst, src, repeat, dstStride, srcStride, false, false, "scatter_vnchwconv_b32", loc);
}
inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                                 bool dstHighHalf, bool srcHighHalf, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_vector_detail::vnchwconv<uint8_t>(dst, src, repeat, dstStride, srcStride, dstHighHalf, srcHighHalf,
                                                   "scatter_vnchwconv_b8", loc);
}
// (the value takes its type from dst, so that a literal converts: laser_attention's `vector_dup(buf, 0, ...)` on floats)
template <typename T>
inline void vector_dup(T* dst, typename std::decay<T>::type value, uint8_t repeat, uint16_t dstBlockStride, uint16_t /*srcBlockStride*/,
                       uint8_t dstRepeatStride, uint8_t /*srcRepeatStride*/, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::Duplicate<T, false>(AscendC::devkit_detail::ub(dst, "vector_dup", loc), value, uint64_t{0}, repeat, dstBlockStride,
                                 dstRepeatStride, loc);
}
#define ASCENDCRAFT_RAW_BINARY(raw, API)                                                                                \
    template <typename T>                                                                                               \
    inline void raw(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlockStride, uint8_t src0BlockStride,          \
                    uint8_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride, uint8_t src1RepeatStride, \
                    ascendcraft::emu::SrcLoc loc = {}) {                                                               \
        AscendC::API<T, false>(AscendC::devkit_detail::ub(dst, #raw, loc), AscendC::devkit_detail::ub(src0, #raw, loc), \
                               AscendC::devkit_detail::ub(src1, #raw, loc), uint64_t{0}, repeat,                                  \
                               AscendC::BinaryRepeatParams(dstBlockStride, src0BlockStride, src1BlockStride,            \
                                                           dstRepeatStride, src0RepeatStride, src1RepeatStride), loc);  \
    }
ASCENDCRAFT_RAW_BINARY(vor, Or)
ASCENDCRAFT_RAW_BINARY(vand, And)
#undef ASCENDCRAFT_RAW_BINARY
template <typename T> inline void vtranspose(T* dst, T* src, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::Transpose(AscendC::devkit_detail::ub(dst, "vtranspose", loc), AscendC::devkit_detail::ub(src, "vtranspose", loc), loc);
}
template <typename T>
inline void copy_ubuf_to_ubuf(T* dst, T* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::DataCopy(AscendC::devkit_detail::ub(dst, "copy_ubuf_to_ubuf", loc), AscendC::devkit_detail::ub(src, "copy_ubuf_to_ubuf", loc),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
// (the device compiler's own signature takes void pointers: the bytes as they are)
inline void copy_ubuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, ascendcraft::emu::SrcLoc loc = {}) {
    copy_ubuf_to_ubuf(static_cast<uint8_t*>(dst), static_cast<uint8_t*>(src), sid, nBurst, lenBurst, srcGap, dstGap, loc);
}
// The int4b_t conversions: the int4b_t operand is a void pointer, two elements a byte
inline void vconv_s42f16(half* dst, void* src, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride,
                         uint8_t dstRepeatStride, uint8_t srcRepeatStride, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::Cast<half, int4b_t, false>(AscendC::devkit_detail::ub(dst, "vconv_s42f16", loc),
                                        AscendC::devkit_detail::ub(static_cast<int4b_t*>(src), "vconv_s42f16", loc),
                                        AscendC::RoundMode::CAST_NONE, uint64_t{0}, repeat,
                                        AscendC::UnaryRepeatParams(dstBlockStride, srcBlockStride, dstRepeatStride, srcRepeatStride), loc);
}
#define ASCENDCRAFT_RAW_F162S4(raw, MODE)                                                                               \
    inline void raw(void* dst, half* src, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride,             \
                    uint8_t dstRepeatStride, uint8_t srcRepeatStride, ascendcraft::emu::SrcLoc loc = {}) {             \
        AscendC::Cast<int4b_t, half, false>(AscendC::devkit_detail::ub(static_cast<int4b_t*>(dst), #raw, loc),          \
                                            AscendC::devkit_detail::ub(src, #raw, loc), AscendC::RoundMode::MODE,       \
                                            uint64_t{0}, repeat,                                                        \
                                            AscendC::UnaryRepeatParams(dstBlockStride, srcBlockStride, dstRepeatStride, \
                                                                       srcRepeatStride), loc);                          \
    }
ASCENDCRAFT_RAW_F162S4(vconv_f162s4, CAST_NONE)
ASCENDCRAFT_RAW_F162S4(vconv_f162s4r, CAST_RINT)
ASCENDCRAFT_RAW_F162S4(vconv_f162s4f, CAST_FLOOR)
ASCENDCRAFT_RAW_F162S4(vconv_f162s4c, CAST_CEIL)
ASCENDCRAFT_RAW_F162S4(vconv_f162s4a, CAST_ROUND)
ASCENDCRAFT_RAW_F162S4(vconv_f162s4z, CAST_TRUNC)
#undef ASCENDCRAFT_RAW_F162S4
