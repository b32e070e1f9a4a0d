// GatherMask (keep the elements of src0 that a bit pattern selects, packed into dst) and the BroadCast advanced API
// ([m, 1] or [1, k] stretched to [m, k]). Written from the public AscendC documentation; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
// GatherMaskParams as the runtime reads it.
struct GatherMaskGeometry {
    uint32_t src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride;
};
// `pattern` null: the built-in pattern `builtin` (1..7). Writes the kept count to *kept.
void vec_gather_mask(Dt dt, const Local& d, const Local& src0, const Local* pattern, uint8_t builtin, bool counter,
                     uint32_t mask, const GatherMaskGeometry& p, uint64_t* kept, SrcLoc loc);
void vec_broadcast(Dt dt, const Local& d, const Local& a, const Local* tmp, int dim, int axis, const uint32_t* dstShape,
                   const uint32_t* srcShape, SrcLoc loc);
// TransDataTo5HD: 16 destination and 16 source block addresses (UB host addresses).
void vec_trans_5hd(Dt dt, const uint64_t* dst, const uint64_t* src, bool dstHighHalf, bool srcHighHalf, uint32_t repeats,
                   uint32_t dstRepStride, uint32_t srcRepStride, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

// ---- GatherMask ---------------------------------------------------------------------------------------
// Normal mode (reduceMode = false): each of repeatTimes repeats takes 256 bytes of src0 (8 blocks, src0BlockStride
// apart; repeats src0RepeatStride blocks apart), mask is ignored. Counter mode (true): each repeat takes `mask`
// elements. Element i of a repeat is kept when bit i of the pattern is 1: a built-in pattern (1: even elements,
// 2: odd, 3..6: the first..fourth of every four, 7: all) or a tensor of bits read from bit 0 of its first element
// on (repeats src1RepeatStride blocks apart). Kept elements are written to dst one after another; rsvdCnt gets
// their number. The mask is in normal mode afterwards.
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;  // A2

struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                     const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};

namespace gather_mask_detail {
inline ascendcraft::emu::GatherMaskGeometry geometry(const GatherMaskParams& p) {
    return {p.src0BlockStride, p.repeatTimes, p.src0RepeatStride, p.src1RepeatStride};
}
}  // namespace gather_mask_detail

// The official headers accept any element and pattern type at compile time; A2's rules are checked when the call runs.
#define ASCENDCRAFT_EMU_GATHERMASK_TYPES(T)                                                                           \
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(GatherMask, "half, bfloat16_t, int16_t, uint16_t, float, int32_t and uint32_t", \
                                        T, half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t)
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GATHERMASK_TYPES(T);
    if (!((sizeof(T) == 2 && std::is_same<U, uint16_t>::value) || (sizeof(T) == 4 && std::is_same<U, uint32_t>::value)))
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::GatherMask,
                                           "GatherMask on Ascend 910B (A2): the pattern tensor's type does not match the elements: it is "
                                           "uint16_t for 2-byte elements and uint32_t for 4-byte elements",
                                           "ReinterpretCast the pattern tensor to the matching unsigned type", loc);
    const ascendcraft::emu::Local pattern = src1Pattern.emu();
    ascendcraft::emu::vec_gather_mask(ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), &pattern, 0, reduceMode, mask,
                                      gather_mask_detail::geometry(gatherMaskParams), &rsvdCnt, loc);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                       const uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                       ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GATHERMASK_TYPES(T);
    ascendcraft::emu::vec_gather_mask(ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), nullptr, src1Pattern, reduceMode,
                                      mask, gather_mask_detail::geometry(gatherMaskParams), &rsvdCnt, loc);
}
#undef ASCENDCRAFT_EMU_GATHERMASK_TYPES

// ---- BroadCast / Broadcast (advanced API): dim 1 ([1] -> [k]) or 2 (axis 0: [1, k] -> [m, k]; axis 1: [m, 1] -> [m, k])
// The official headers accept any type, dim and axis at compile time; A2 supports int8_t, uint8_t, half and float,
// dim 1 or 2 and axis 0 or 1, checked when the call runs.
#define ASCENDCRAFT_EMU_BROADCAST_CHECK(T)                                                                               \
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(BroadCast, "int8_t, uint8_t, half and float", T, int8_t, uint8_t, half, float); \
    if (!(dim == 1 || dim == 2) || !(axis == 0 || axis == 1) || (dim == 1 && axis != 0))                                  \
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::BroadCast,                                                  \
                                       "BroadCast on Ascend 910B (A2) supports dim 1 (axis 0) or dim 2 (axis 0 or 1) only", \
                                       "reshape to two dimensions: [m, 1] -> [m, k] is axis 1, [1, k] -> [m, k] axis 0", loc)
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer, ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_BROADCAST_CHECK(T);
    const ascendcraft::emu::Local tmp = sharedTmpBuffer.emu();
    ascendcraft::emu::vec_broadcast(ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), &tmp, dim, axis, dstShape,
                                    srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_BROADCAST_CHECK(T);
    ascendcraft::emu::vec_broadcast(ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), nullptr, dim, axis, dstShape,
                                    srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer, ascendcraft::emu::SrcLoc loc = {}) {
    BroadCast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], ascendcraft::emu::SrcLoc loc = {}) {
    BroadCast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, loc);
}
#undef ASCENDCRAFT_EMU_BROADCAST_CHECK

// ---- TransDataTo5HD: one repeat reads 16 source blocks (32 bytes each) and writes 16 destination blocks ---------------
// 2-byte elements: destination block k gathers element k of the 16 source blocks (a 16 x 16 transpose). 4-byte: element
// k of sources 0..7 goes to destination block 2k, of sources 8..15 to block 2k + 1. 1-byte: element k (of the source
// blocks' upper halves when srcHighHalf) of the 16 sources fills one half of destination block k (the upper half when
// dstHighHalf). Repeats move every address by the rep strides (in blocks); with repeatTimes 1 the addresses move by
// the strides once, as the API reference states (set them to 0 to start at the lists).
constexpr int NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() {}   // a literal type: kernels keep a constexpr instance (hicann mat_mul_v3)
    constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                         const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};
#define ASCENDCRAFT_EMU_5HD_TYPES(T)                                                                                       \
    ASCENDCRAFT_EMU_TYPES_CHECK(TransDataTo5HD, "int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t and float", \
                                        T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float)
template <typename T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams, ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_5HD_TYPES(T);
    ascendcraft::emu::vec_trans_5hd(ascendcraft::emu::dt_of<T>(), dstList, srcList, nchwconvParams.dstHighHalf,
                                    nchwconvParams.srcHighHalf, nchwconvParams.repeatTimes, nchwconvParams.dstRepStride,
                                    nchwconvParams.srcRepStride, loc);
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& nchwconvParams,
                           ascendcraft::emu::SrcLoc loc = {}) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) { d[i] = dstList[i].GetPhyAddr(); s[i] = srcList[i].GetPhyAddr(); }
    TransDataTo5HD<T>(d, s, nchwconvParams, loc);
}
// The address lists stored in UB, as uint64_t tensors.
template <typename T>
inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src, const TransDataTo5HDParams& nchwconvParams,
                           ascendcraft::emu::SrcLoc loc = {}) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) { d[i] = dst.GetValue(i); s[i] = src.GetValue(i); }
    TransDataTo5HD<T>(d, s, nchwconvParams, loc);
}
// The devkit's implementation function, which kernels also call directly with __ubuf__ pointer lists.
template <typename T>
inline void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& nchwconvParams, ascendcraft::emu::SrcLoc loc = {}) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = reinterpret_cast<uintptr_t>(dstList[i]);
        s[i] = reinterpret_cast<uintptr_t>(srcList[i]);
    }
    TransDataTo5HD<T>(d, s, nchwconvParams, loc);
}
#undef ASCENDCRAFT_EMU_5HD_TYPES

}  // namespace AscendC
