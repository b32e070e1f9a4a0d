// AscendCraft CPU emulation: more of the device compiler's raw vector intrinsics, which kernels written against them
// (rather than the AscendC API) call: hicann ops-blas's arch22 kernels (caxpy, cscal, cgemv, ctrmv, strmv).
//   vadd / vsub / vmul / vmax / vmin / vdiv (dst, src0, src1, repeat, dstBlockStride, src0BlockStride,
//   src1BlockStride, dstRepeatStride, src0RepeatStride, src1RepeatStride): level-0 Add / Sub / Mul / Max / Min / Div
//   under the current mask register; vmla (same arguments): MulAddDst, dst = src0 * src1 + dst;
//   vmuls / vadds / vmaxs / vmins (dst, src, scalar, repeat, dstBlockStride, srcBlockStride, dstRepeatStride,
//   srcRepeatStride): level-0 Muls / Adds / Maxs / Mins; vaxpy (same arguments): Axpy, dst = src * scalar + dst;
//   vreducev2(dst, src0, src1, repeat, src0BlockStride, patternMode, src0RepeatStride, src1RepeatStride): GatherMask,
//   in normal mode each repeat 256 bytes of src0, in counter mode the mask register's count of elements (reduceMode);
//   the built-in pattern patternMode (1..7; src1 not read), or with patternMode 0 the pattern tensor src1; the kept
//   count goes to the reserved-count register (GetRsvdCnt, get_rsvd_cnt);
//   vgather(dst, offsets, srcAddr, dstRepeatStride, repeat): Gather, dst[i] = the element `offsets[i]` bytes past the
//   UB address srcAddr (srcBaseAddr: aligned to the element, not to 32 bytes), under the current mask register;
//   set_atomic_add / set_atomic_f32 / set_atomic_f16 / set_atomic_s32: the DMA's atomic add and its element type
//   (SetAtomicAdd<T>; set_atomic_none is in raw_intrinsics.h);
//   copy_gm_to_ubuf / copy_ubuf_to_gm: DataCopy in 32-byte blocks (below);
//   get_subblockid / get_subblockdim: the core's index in its AIC:AIV group and the group's vector cores (on a vector
//   core of a mixed launch 0..1 and 2; on the cube core, and in a launch of one core type, 0 and 1), so that
//   get_block_idx() * get_subblockdim() + get_subblockid() is GetBlockIdx() as on the NPU.
// Each is the documented AscendC API on views of the raw pointers (devkit_impl.h). Written from the public AscendC
// documentation (the basic API pages of these instructions, GatherMask, Gather, GetSubBlockIdx); no vendor code.
#pragma once

#include "devkit_impl.h"
#include "rearrange.h"

namespace AscendC { namespace raw_arith_detail {
template <typename T> struct same { using type = T; };   // a parameter that takes T from the others (a literal converts)
}}  // namespace AscendC::raw_arith_detail

#define ASCENDCRAFT_RAW_ARITH_BINARY(raw, ...)                                                                           \
    template <typename T>                                                                                              \
    inline void raw(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlockStride, uint8_t src0BlockStride,         \
                    uint8_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride, uint8_t src1RepeatStride,\
                    ascendcraft::emu::SrcLoc loc = {}) {                                                              \
        AscendC::__VA_ARGS__(AscendC::devkit_detail::ub(dst, #raw, loc), AscendC::devkit_detail::ub(src0, #raw, loc),         \
                      AscendC::devkit_detail::ub(src1, #raw, loc), uint64_t{0}, repeat,                                 \
                      AscendC::BinaryRepeatParams(dstBlockStride, src0BlockStride, src1BlockStride, dstRepeatStride,   \
                                                  src0RepeatStride, src1RepeatStride), loc);                            \
    }
ASCENDCRAFT_RAW_ARITH_BINARY(vadd, Add<T, false>)
ASCENDCRAFT_RAW_ARITH_BINARY(vsub, Sub<T, false>)
ASCENDCRAFT_RAW_ARITH_BINARY(vmul, Mul<T, false>)
ASCENDCRAFT_RAW_ARITH_BINARY(vmax, Max<T, false>)
ASCENDCRAFT_RAW_ARITH_BINARY(vmin, Min<T, false>)
ASCENDCRAFT_RAW_ARITH_BINARY(vdiv, Div<T, false>)
ASCENDCRAFT_RAW_ARITH_BINARY(vmla, MulAddDst<T, T, false>)
#undef ASCENDCRAFT_RAW_ARITH_BINARY

#define ASCENDCRAFT_RAW_ARITH_SCALAR(raw, ...)                                                                           \
    template <typename T>                                                                                              \
    inline void raw(T* dst, T* src, typename AscendC::raw_arith_detail::same<T>::type scalar, uint8_t repeat,           \
                    uint16_t dstBlockStride, uint16_t srcBlockStride, uint16_t dstRepeatStride, uint16_t srcRepeatStride, \
                    ascendcraft::emu::SrcLoc loc = {}) {                                                              \
        AscendC::__VA_ARGS__(AscendC::devkit_detail::ub(dst, #raw, loc), AscendC::devkit_detail::ub(src, #raw, loc), scalar,   \
                      uint64_t{0}, repeat,                                                                              \
                      AscendC::UnaryRepeatParams(dstBlockStride, srcBlockStride, static_cast<uint8_t>(dstRepeatStride), \
                                                 static_cast<uint8_t>(srcRepeatStride)), loc);                          \
    }
ASCENDCRAFT_RAW_ARITH_SCALAR(vmuls, Muls<T, false>)
ASCENDCRAFT_RAW_ARITH_SCALAR(vadds, Adds<T, false>)
ASCENDCRAFT_RAW_ARITH_SCALAR(vmaxs, Maxs<T, false>)
ASCENDCRAFT_RAW_ARITH_SCALAR(vmins, Mins<T, false>)
ASCENDCRAFT_RAW_ARITH_SCALAR(vaxpy, Axpy<T, T, false>)
#undef ASCENDCRAFT_RAW_ARITH_SCALAR

namespace ascendcraft { namespace emu {
uint64_t mask_counter_value();   // emu_raw_vector.cpp: the mask register's count in counter mode
}}  // namespace ascendcraft::emu

template <typename T>
inline void vreducev2(T* dst, T* src0, typename AscendC::raw_arith_detail::same<T>::type* src1, uint16_t repeat,
                      uint8_t src0BlockStride, uint8_t patternMode, uint16_t src0RepeatStride, uint8_t src1RepeatStride,
                      ascendcraft::emu::SrcLoc loc = {}) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "vreducev2 takes 2-byte or 4-byte elements (uint16_t / uint32_t)");
    // counter mode (the mask register's count after set_mask_count): each repeat takes that many elements, as
    // GatherMask's reduceMode = true; normal mode: each repeat 256 bytes of src0
    const uint64_t ctrl = ascendcraft::emu::ctrl_read();
    const bool counter = ctrl >> 56 & 1;
    const uint32_t count = counter ? static_cast<uint32_t>(ascendcraft::emu::mask_counter_value()) : 0u;
    uint64_t kept = 0;
    const AscendC::GatherMaskParams params(src0BlockStride, repeat, src0RepeatStride, src1RepeatStride);
    if (patternMode != 0) {   // a built-in pattern; src1 is not read (the devkit passes a dummy address there)
        if (patternMode > 7)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::GatherMask,
                "vreducev2: patternMode is 0 (the pattern tensor src1) or a built-in pattern 1..7",
                "pass patternMode 1 (even elements), 2 (odd), 3..6 (one of every four), 7 (all), or 0 with a pattern tensor",
                loc);
        AscendC::GatherMask<T>(AscendC::devkit_detail::ub(dst, "vreducev2", loc), AscendC::devkit_detail::ub(src0, "vreducev2", loc),
                               patternMode, counter, count, params, kept, loc);
    } else {
        if (src1 == nullptr)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::GatherMask,
                "vreducev2 with patternMode 0 reads its pattern from the tensor src1, which is null here",
                "pass the pattern tensor as src1, or a built-in patternMode 1..7", loc);
        AscendC::GatherMask<T, T>(AscendC::devkit_detail::ub(dst, "vreducev2", loc),
                                  AscendC::devkit_detail::ub(src0, "vreducev2", loc),
                                  AscendC::devkit_detail::ub(src1, "vreducev2", loc), counter, count, params, kept, loc);
    }
    // the API's GatherMask leaves the mask in normal mode; the instruction keeps the mode it ran in (the devkit's
    // GatherMask sets normal mode itself after it)
    ascendcraft::emu::ctrl_write(ctrl, loc);
}

template <typename T>
inline void vgather(T* dst, uint32_t* offsets, uint64_t srcAddr, uint16_t dstRepeatStride, uint8_t repeat,
                    ascendcraft::emu::SrcLoc loc = {}) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "vgather takes 2-byte or 4-byte elements (uint16_t / uint32_t)");
    const auto d = AscendC::devkit_detail::ub(dst, "vgather", loc);
    const auto s = AscendC::devkit_detail::ub(reinterpret_cast<T*>(static_cast<uintptr_t>(srcAddr)), "vgather", loc);
    const auto o = AscendC::devkit_detail::ub(offsets, "vgather", loc);
    // srcAddr is Gather's srcBaseAddr, not a LocalTensor: the API reference asks it to be aligned to the element only
    // (ops-math arg_max_with_value gathers from chunkValue + 4 bytes). So the source is the 32-byte block it falls in
    // (every UB starts on a page) with the rest as the base, which Gather checks against the element width.
    ascendcraft::emu::Local src = s.emu();
    const uint32_t base = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(src.addr) % 32);
    src.addr -= base;
    src.bytes += base;
    src.cap += base;
    ascendcraft::emu::vec_gather(ascendcraft::emu::dt_of<T>(), d.emu(), src, o.emu(), base,
                                 ascendcraft::emu::mask_lanes(uint64_t{0}, repeat, false), dstRepeatStride, loc);
}

inline void set_atomic_add(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetAtomicAdd<float>(loc); }
inline void set_atomic_f32(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetAtomicType<float>(loc); }
inline void set_atomic_f16(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetAtomicType<half>(loc); }
inline void set_atomic_s32(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetAtomicType<int32_t>(loc); }

inline int64_t get_subblockid() { return ascendcraft::emu::cross_sub_block_idx(); }
inline int64_t get_subblockdim() { return ascendcraft::emu::cross_task_ration(); }

// copy_gm_to_ubuf / copy_ubuf_to_gm(dst, src, sid, nBurst, lenBurst, srcGap, dstGap): DataCopy between GM and UB in
// 32-byte blocks (lenBurst blocks a burst, the gaps in blocks), the element type the destination's
template <typename T, typename U>
inline void copy_gm_to_ubuf(T* dst, U* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::DataCopy(AscendC::devkit_detail::ub(dst, "copy_gm_to_ubuf", loc), AscendC::devkit_detail::gm(reinterpret_cast<T*>(src)),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
template <typename T, typename U>
inline void copy_ubuf_to_gm(T* dst, U* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::DataCopy(AscendC::devkit_detail::gm(dst), AscendC::devkit_detail::ub(reinterpret_cast<T*>(src), "copy_ubuf_to_gm", loc),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
