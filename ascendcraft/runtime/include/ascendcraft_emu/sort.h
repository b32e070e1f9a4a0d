// The sorting instructions and APIs of Ascend 910B (A2): Sort32 (32 scores at a time into (score, index) pairs),
// MrgSort (merge up to four sorted pair lists) with GetMrgSortResult, and the advanced Sort / Concat / Extract /
// GetSortLen / GetSortOffset built on them. A pair is 8 bytes: the score in its low bytes (4 for float; 2 for half,
// then 2 reserved bytes), the uint32_t index in the high 4. Order: descending score; equal scores keep their order
// (the earlier element, or the earlier list, first). Written from the public AscendC documentation; no vendor code.
#pragma once

#include "rearrange.h"
#include "pipe.h"
#include "tensor.h"
#include "sort_config.h"

namespace ascendcraft { namespace emu {
void vec_sort32(Dt dt, const Local& d, const Local& score, const Local& index, int32_t repeats, SrcLoc loc);
// lists: the valid ones (validBit 3, 7 or 15: 2, 3 or 4 lists); lens in pairs. sortedNum (may be null): pairs taken
// from each list (also what GetMrgSortResult reads).
void vec_mrgsort(Dt dt, const Local& d, const Local* const lists[4], const uint16_t lens[4], bool exhaustedSuspension,
                 uint16_t validBit, uint16_t repeats, uint32_t* sortedNum, SrcLoc loc);
// The advanced Sort: Sort32 of repeats x 32 scores into d, then (full) one merged list; tmp is its scratch.
void vec_sort(Dt dt, const Local& d, const Local& score, const Local& index, const Local& tmp, int32_t repeats, bool full,
              SrcLoc loc);
void mrgsort_result(uint16_t out[4], SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

template <typename T> struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T> src1In, const LocalTensor<T> src2In, const LocalTensor<T> src3In, const LocalTensor<T> src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
    LocalTensor<T> src1, src2, src3, src4;
};

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
                 const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
        for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

// The official headers accept any element type at compile time; A2 sorts half and float, checked when the call runs.
#define ASCENDCRAFT_EMU_SORT_TYPES(API, T)                                                                          \
    do {                                                                                                          \
        if (!::ascendcraft::emu::OneOf<T, half, float>::value)                                                    \
            ::ascendcraft::emu::unsupported_type(::ascendcraft::emu::Op::Sort, ::ascendcraft::emu::dt_of<T>(),     \
                                                 #API " on Ascend 910B (A2): half and float", loc);               \
    } while (0)

// Sort32: each repeat sorts 32 scores (src0) with their uint32_t indices (src1) into 32 pairs (256 bytes) of dst.
template <typename T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1, const int32_t repeatTime,
                   SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SORT_TYPES(Sort32, T);
    ascendcraft::emu::vec_sort32(ascendcraft::emu::dt_of<T>(), dst.emu(), src0.emu(), src1.emu(), repeatTime, loc);
}

namespace sort_detail {
template <typename T>
inline void mrgsort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const uint16_t lens[4], bool exhausted, uint16_t validBit,
                    uint16_t repeats, uint32_t* sortedNum, SrcLoc loc) {
    const ascendcraft::emu::Local* lists[4] = {&src.src1.emu(), &src.src2.emu(), &src.src3.emu(), &src.src4.emu()};
    ascendcraft::emu::vec_mrgsort(ascendcraft::emu::dt_of<T>(), dst.emu(), lists, lens, exhausted, validBit, repeats, sortedNum, loc);
}
}  // namespace sort_detail

// MrgSort: merge 2, 3 or 4 sorted lists of pairs (validBit 3, 7 or 15; lengths in pairs) into dst.
template <typename T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SORT_TYPES(MrgSort, T);
    sort_detail::mrgsort(dst, src, params.elementLengths, params.ifExhaustedSuspension, params.validBit, params.repeatTimes, nullptr, loc);
}
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
                    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SORT_TYPES(MrgSort, T);
    sort_detail::mrgsort(dst, sortList, elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime),
                         sortedNum, loc);
}
// The pairs each list gave the last MrgSort (with ifExhaustedSuspension: where it stopped).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3, uint16_t& mrgSortList4,
                             SrcLoc loc = {}) {
    uint16_t n[4];
    ascendcraft::emu::mrgsort_result(n, loc);
    mrgSortList1 = n[0]; mrgSortList2 = n[1]; mrgSortList3 = n[2]; mrgSortList4 = n[3];
}

// The advanced sort API. On A2 Concat makes `concat` the scores themselves (no copy, no use of tmp).
template <typename T>
inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SORT_TYPES(Concat, T);
    (void)tmp; (void)repeatTime; (void)loc;
    concat = src;
}
// Sort: Sort32 of repeatTime x 32 scores with their indices into dst; isFullSort merges them into one list (tmp: the
// merge's scratch, as many bytes as dst's pairs).
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index, LocalTensor<T>& tmp,
                 const int32_t repeatTime, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SORT_TYPES(Sort, T);
    ascendcraft::emu::vec_sort(ascendcraft::emu::dt_of<T>(), dst.emu(), concat.emu(), index.emu(), tmp.emu(), repeatTime, isFullSort, loc);
}
// Extract: the scores and the indices of sorted pairs, as A2 does it with GatherMask (each repeat: 256 bytes of pairs;
// for half, the indices take twice as many repeats).
template <typename T>
inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                    const int32_t repeatTime, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SORT_TYPES(Extract, T);
    uint64_t kept = 0;
    const uint16_t r = static_cast<uint16_t>(repeatTime);
    GatherMask(dstValue, sorted, sizeof(T) == 2 ? 3 : 1, false, 0, GatherMaskParams(1, r, DEFAULT_REPEAT_STRIDE, 0), kept, loc);
    PipeBarrier<PIPE_V>();
    GatherMask(dstIndex, sorted.template ReinterpretCast<uint32_t>(), 2, false, 0,
               GatherMaskParams(1, static_cast<uint16_t>(sizeof(T) == 2 ? 2 * r : r), 8, 0), kept, loc);
}
// Elements of T that n pairs take (GetSortLen), and where pair k starts (GetSortOffset).
template <typename T> inline uint32_t GetSortLen(const uint32_t elemCount) { return elemCount * 8 / sizeof(T); }
template <typename T> inline uint32_t GetSortOffset(const uint32_t elemOffset) { return elemOffset * 8 / sizeof(T); }
#undef ASCENDCRAFT_EMU_SORT_TYPES

// The region-proposal APIs (8-element proposals of the older sort unit): ProposalConcat, ProposalExtract, RpSort16 and
// MrgSort4. The official headers declare them for every NPU, but only the Ascend 310P (dav-m200) family runs them: on
// Ascend 910B (A2, dav-c220) their bodies are a deprecation notice and a "not supported on the current device" report,
// so a kernel that calls them compiles and fails when the call runs. The emulation does the same: the call compiles
// and stops the run with an `unsupported` error that names it.
namespace detail_proposal {
[[noreturn]] inline void not_on_a2(const char* api, SrcLoc loc) {
    static thread_local char message[320];
    std::snprintf(message, sizeof(message),
                  "%s is a region-proposal API of Ascend 310P (dav-m200): the official Ascend 910B (A2, dav-c220) "
                  "headers declare it but report it unsupported on this device, so it cannot run on A2", api);
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Sort, message,
        "on A2 sort with Concat, Sort<T, isFullSort> (32 elements a repeat), MrgSort and Extract", loc);
}
}  // namespace detail_proposal
template <typename T>
inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                           const int32_t modeNumber, SrcLoc loc = {}) {
    (void)dst; (void)src; (void)repeatTime; (void)modeNumber;
    detail_proposal::not_on_a2("ProposalConcat", loc);
}
template <typename T>
inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t modeNumber, SrcLoc loc = {}) {
    (void)dst; (void)src; (void)repeatTime; (void)modeNumber;
    detail_proposal::not_on_a2("ProposalExtract", loc);
}
template <typename T>
inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, SrcLoc loc = {}) {
    (void)dst; (void)src; (void)repeatTime;
    detail_proposal::not_on_a2("RpSort16", loc);
}
template <typename T>
inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, SrcLoc loc = {}) {
    (void)dst; (void)src; (void)params;
    detail_proposal::not_on_a2("MrgSort4", loc);
}

// The SortConfig forms of Sort (radix or merge sort of calCount values, optionally with indices). The official headers
// declare them for every NPU but give them a body only on Ascend 950 (dav-3510 and its kin): an A2 (dav-2201) build
// compiles them and they do nothing, leaving dst as it was. The emulation compiles them too and stops where one runs,
// naming the call, instead of a silent no-op. The host's GetSortMaxMinTmpSize is 950-only as well (tiling/sort.h).
namespace detail_sortcfg {
[[noreturn]] inline void not_on_a2(SrcLoc loc) {
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Sort,
        "Sort with a SortConfig (Sort<T, U, isReuseSource, config>(dst, dstIndex, src, srcIndex, [tmp,] calCount) and "
        "Sort<T, isReuseSource, config>(dst, src, [tmp,] calCount)) has no implementation on Ascend 910B (A2): the "
        "official dav-2201 build compiles it to nothing, so dst would keep its old contents",
        "on A2 sort with Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime) after Concat, then Extract", loc);
}
}  // namespace detail_sortcfg
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                 SrcLoc loc = {}) {
    (void)dstTensor; (void)dstIndexTensor; (void)srcTensor; (void)srcIndexTensor; (void)sharedTmpBuffer; (void)calCount;
    detail_sortcfg::not_on_a2(loc);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const uint32_t calCount, SrcLoc loc = {}) {
    (void)dstTensor; (void)dstIndexTensor; (void)srcTensor; (void)srcIndexTensor; (void)calCount;
    detail_sortcfg::not_on_a2(loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, SrcLoc loc = {}) {
    (void)dstTensor; (void)srcTensor; (void)sharedTmpBuffer; (void)calCount;
    detail_sortcfg::not_on_a2(loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount, SrcLoc loc = {}) {
    (void)dstTensor; (void)srcTensor; (void)calCount;
    detail_sortcfg::not_on_a2(loc);
}

}  // namespace AscendC
