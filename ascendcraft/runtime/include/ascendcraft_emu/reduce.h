// AscendCraft CPU emulation: reductions (ReduceSum/Max/Min, WholeReduce*, BlockReduce*).
#pragma once

#include "tensor.h"

namespace AscendC {

#define ASCENDCRAFT_EMU_RED_CHECK(API, T) ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float)

// ---- whole-tensor reductions: dst[0] = result (dst[1] = index with calIndex) --------------------------
#define ASCENDCRAFT_EMU_REDUCE_ALL(API, WITH_INDEX_PARAM, WITH_INDEX_ARG, COUNT_TEMPLATE_EXTRA)                    \
    template <typename T COUNT_TEMPLATE_EXTRA>                                                                    \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,  \
                    const int32_t count WITH_INDEX_PARAM, SrcLoc loc = {}) {                                       \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_all(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                     sharedTmpBuffer.emu(), ascendcraft::emu::count_lanes(count), 8, WITH_INDEX_ARG, loc); \
    }                                                                                                             \
    template <typename T>                                                                                         \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,  \
                    const uint64_t mask, const int32_t repeatTime, const int32_t srcRepStride WITH_INDEX_PARAM,   \
                    SrcLoc loc = {}) {                                                                            \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_all(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                     sharedTmpBuffer.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, true),  \
                                     static_cast<uint32_t>(srcRepStride), WITH_INDEX_ARG, loc);                   \
    }                                                                                                             \
    template <typename T>                                                                                         \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,  \
                    const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride WITH_INDEX_PARAM, \
                    SrcLoc loc = {}) {                                                                            \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_all(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                     sharedTmpBuffer.emu(), ascendcraft::emu::mask_lanes(mask, repeatTime, true),  \
                                     static_cast<uint32_t>(srcRepStride), WITH_INDEX_ARG, loc);                   \
    }

#define ASCENDCRAFT_EMU_COMMA ,
// ReduceSum's count form also takes an isSetMask template argument, as in AscendC (it has no effect on a count);
// ReduceMax / ReduceMin's count forms do not.
ASCENDCRAFT_EMU_REDUCE_ALL(ReduceSum, , false, ASCENDCRAFT_EMU_COMMA bool isSetMask = true)
ASCENDCRAFT_EMU_REDUCE_ALL(ReduceMax, ASCENDCRAFT_EMU_COMMA bool calIndex = false, calIndex, )
ASCENDCRAFT_EMU_REDUCE_ALL(ReduceMin, ASCENDCRAFT_EMU_COMMA bool calIndex = false, calIndex, )
#undef ASCENDCRAFT_EMU_COMMA
#undef ASCENDCRAFT_EMU_REDUCE_ALL

// ---- one result per repeat -------------------------------------------------------------------------------
#define ASCENDCRAFT_EMU_WHOLE(API, ORDER_PARAM, ORDER_ARG)                                                         \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const int32_t repeatTime, \
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM, \
                    SrcLoc loc = {}) {                                                                            \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_whole(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                       ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), dstRepStride,    \
                                       srcBlkStride, srcRepStride, ORDER_ARG, loc);                              \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const int32_t repeatTime, \
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM, \
                    SrcLoc loc = {}) {                                                                            \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_whole(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                       ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), dstRepStride,    \
                                       srcBlkStride, srcRepStride, ORDER_ARG, loc);                              \
    }

#define ASCENDCRAFT_EMU_COMMA ,
ASCENDCRAFT_EMU_WHOLE(WholeReduceSum, , 0)
ASCENDCRAFT_EMU_WHOLE(WholeReduceMax, ASCENDCRAFT_EMU_COMMA const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                      static_cast<uint8_t>(order))
ASCENDCRAFT_EMU_WHOLE(WholeReduceMin, ASCENDCRAFT_EMU_COMMA const ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                      static_cast<uint8_t>(order))
#undef ASCENDCRAFT_EMU_COMMA
#undef ASCENDCRAFT_EMU_WHOLE

// The older spelling of WholeReduceSum (the same vcadd): the mask is a lane count and comes after repeatTime, and
// dstBlkStride has no effect (the API reference calls it invalid; its successor ReduceRepeat drops it).
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t elemsInOneRepeat, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride, SrcLoc loc = {}) {
    (void)dstBlkStride;
    WholeReduceSum<T, isSetMask>(dst, src, static_cast<uint64_t>(elemsInOneRepeat), repeatTime, dstRepStride, srcBlkStride,
                                 srcRepStride, loc);
}

// ---- one result per 32-byte block -------------------------------------------------------------------------
// (the mask of the first form is an int32_t, as the devkit declares it: a literal 0 with isSetMask = false, catlass's
// flash-attention softmax, then picks it over the mask-array form)
#define ASCENDCRAFT_EMU_BLOCK(API)                                                                                 \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask, \
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, SrcLoc loc = {}) { \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_block(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                       ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), dstRepStride,    \
                                       srcBlkStride, srcRepStride, loc);                                          \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const uint64_t mask[], \
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, SrcLoc loc = {}) { \
        ASCENDCRAFT_EMU_RED_CHECK(API, T);                                                                        \
        ascendcraft::emu::reduce_block(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), \
                                       ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), dstRepStride,    \
                                       srcBlkStride, srcRepStride, loc);                                          \
    }

// PairReduceSum: adjacent lanes summed, (a0 + a1, a2 + a3, ...); dstRepStride in units of 128 bytes (half a repeat).
template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,
                          const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RED_CHECK(PairReduceSum, T);
    ascendcraft::emu::reduce_pair(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),
                                  ascendcraft::emu::mask_lanes(static_cast<uint64_t>(mask), repeatTime, isSetMask),
                                  dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const uint64_t mask[],
                          const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_RED_CHECK(PairReduceSum, T);
    ascendcraft::emu::reduce_pair(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(),
                                  ascendcraft::emu::mask_lanes(mask, repeatTime, isSetMask), dstRepStride, srcBlkStride,
                                  srcRepStride, loc);
}

ASCENDCRAFT_EMU_BLOCK(BlockReduceSum)
ASCENDCRAFT_EMU_BLOCK(BlockReduceMax)
ASCENDCRAFT_EMU_BLOCK(BlockReduceMin)
#undef ASCENDCRAFT_EMU_BLOCK
#undef ASCENDCRAFT_EMU_RED_CHECK

}  // namespace AscendC
