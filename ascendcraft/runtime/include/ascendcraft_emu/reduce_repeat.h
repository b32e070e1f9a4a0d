// AscendCraft CPU emulation: the devkit's newer spelling of the level-0 reductions, chosen by a ReduceType template
// argument: ReduceRepeat (one result per repeat, = WholeReduceSum/Max/Min), ReduceDataBlock (one result per 32-byte
// block, = BlockReduceSum/Max/Min) and ReducePairElem<SUM> (= PairReduceSum), plus GetReduceRepeatSumSpr (the sum the
// count form of ReduceSum leaves in the scalar register) and the AscendC::Conditional type selector.
// Written from the public AscendC documentation; no vendor code. (asc8's header.)
#pragma once

#include <cstring>
#include <type_traits>

#include "reduce.h"

namespace AscendC {

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };

template <bool condition, class T1, class T2> struct Conditional { using type = T1; };
template <class T1, class T2> struct Conditional<false, T1, T2> { using type = T2; };

namespace reduce_repeat_detail {
// A2: the destination and the source have one element type (half or float).
template <typename T, typename U> struct SameType {
    static constexpr bool value = std::is_same<T, U>::value;
};
}  // namespace reduce_repeat_detail

#define ASCENDCRAFT_EMU_RR_CHECK(API, T, U)                                                                          \
    static_assert(reduce_repeat_detail::SameType<T, U>::value,                                                      \
                  #API " on Ascend 910B (A2): dst and src must have the same element type (half or float)");        \
    static_assert(reduceType != ReduceType::NONE, #API ": reduceType must be ReduceType::SUM, MAX or MIN")

// ---- ReduceRepeat: one result per repeat; MAX/MIN take the ReduceOrder of WholeReduceMax/Min ---------------------
#define ASCENDCRAFT_EMU_REDUCE_REPEAT(MASK_T)                                                                        \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                 \
    inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK_T mask, const int32_t repeatTime, \
                             const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,   \
                             ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, SrcLoc loc = {}) {                \
        ASCENDCRAFT_EMU_RR_CHECK(ReduceRepeat, T, U);                                                              \
        if constexpr (reduceType == ReduceType::SUM)                                                               \
            WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc); \
        else if constexpr (reduceType == ReduceType::MAX)                                                          \
            WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc); \
        else                                                                                                       \
            WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc); \
    }
ASCENDCRAFT_EMU_REDUCE_REPEAT(const int32_t)
ASCENDCRAFT_EMU_REDUCE_REPEAT(const uint64_t*)
#undef ASCENDCRAFT_EMU_REDUCE_REPEAT

// ---- ReduceDataBlock: one result per 32-byte block of each repeat --------------------------------------------------
#define ASCENDCRAFT_EMU_REDUCE_DATA_BLOCK(MASK_T, MASK_ARG)                                                          \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                 \
    inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK_T mask, const int32_t repeatTime, \
                                const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, \
                                SrcLoc loc = {}) {                                                                 \
        ASCENDCRAFT_EMU_RR_CHECK(ReduceDataBlock, T, U);                                                           \
        if constexpr (reduceType == ReduceType::SUM)                                                               \
            BlockReduceSum<T, isSetMask>(dst, src, repeatTime, MASK_ARG, dstRepStride, srcBlkStride, srcRepStride, loc); \
        else if constexpr (reduceType == ReduceType::MAX)                                                          \
            BlockReduceMax<T, isSetMask>(dst, src, repeatTime, MASK_ARG, dstRepStride, srcBlkStride, srcRepStride, loc); \
        else                                                                                                       \
            BlockReduceMin<T, isSetMask>(dst, src, repeatTime, MASK_ARG, dstRepStride, srcBlkStride, srcRepStride, loc); \
    }
ASCENDCRAFT_EMU_REDUCE_DATA_BLOCK(const int32_t, static_cast<uint64_t>(mask))
ASCENDCRAFT_EMU_REDUCE_DATA_BLOCK(const uint64_t*, mask)
#undef ASCENDCRAFT_EMU_REDUCE_DATA_BLOCK

// ---- ReducePairElem: adjacent lanes combined; A2 has the SUM form only (PairReduceSum) -----------------------------
#define ASCENDCRAFT_EMU_REDUCE_PAIR(MASK_T)                                                                          \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                 \
    inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK_T mask, const int32_t repeatTime, \
                               const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,  \
                               SrcLoc loc = {}) {                                                                  \
        ASCENDCRAFT_EMU_RR_CHECK(ReducePairElem, T, U);                                                            \
        static_assert(reduceType == ReduceType::SUM, "ReducePairElem on Ascend 910B (A2) supports ReduceType::SUM only"); \
        PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);    \
    }
ASCENDCRAFT_EMU_REDUCE_PAIR(const int32_t)
ASCENDCRAFT_EMU_REDUCE_PAIR(const uint64_t*)
#undef ASCENDCRAFT_EMU_REDUCE_PAIR
#undef ASCENDCRAFT_EMU_RR_CHECK

}  // namespace AscendC

namespace ascendcraft { namespace emu { uint64_t acc_value_bits(Dt dt); }}

namespace AscendC {
// The result of the last count-form ReduceSum (and of the raw accumulating vcadd), read by the scalar unit.
template <typename T>
inline T GetReduceRepeatSumSpr() {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "GetReduceRepeatSumSpr on Ascend 910B (A2) supports half and float only");
    const uint64_t bits = ::ascendcraft::emu::acc_value_bits(::ascendcraft::emu::dt_of<T>());
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
}  // namespace AscendC
