// AscendCraft CPU emulation: TopK (lib/sort) in its A2 (merge-sort) form. For each of `outter` rows of `inner` elements
// (n valid, inner a multiple of 32), the k largest (isLargest) or smallest values and their indices, best first; equal
// values keep their order (the earlier first), NaN ranks first either way, inf is the largest. Normal mode: rows of
// k rounded up to 32 bytes in dstValueLocal (T) and dstIndexLocal (int32_t), indices from srcIndexLocal (one row shared
// by all rows, isInitIndex) or 0..n-1; isHasfinish rows with finishLocal true get index n everywhere. Small mode
// (inner = 32): outputs of k per row, srcIndexLocal one row per row. half and float. Signatures and rules from the
// public AscendC API reference; no vendor code.
#pragma once

#include "tensor.h"
#include "topk_tiling_data.h"

namespace ascendcraft { namespace emu {
struct TopKCall {
    Dt dt = Dt::none;
    const Local* dst_value = nullptr;
    const Local* dst_index = nullptr;
    const Local* src = nullptr;
    const Local* src_index = nullptr;   // nullptr: 0..inner-1 (isInitIndex = false)
    const Local* finish = nullptr;      // nullptr: isHasfinish = false
    const Local* tmp = nullptr;
    int32_t k = 0, outter = 0, inner = 0, n = 0;
    bool small = false, largest = true;
    bool has_finish = false;            // isHasfinish (the Normal mode only: checked when the call runs)
};
void adv_topk(const TopKCall& c, SrcLoc loc);
}}  // namespace ascendcraft::emu

// The A2 TopK implementation's constants: the official kernel_operator.h brings them in an unnamed namespace at file
// scope, so every kernel sees them (ops-nn top_k_top_p_sample divides by SIXTEEN without declaring it), and a kernel
// that declares one of these names at file scope itself gets an ambiguous reference where it uses it, as there.
namespace {
constexpr uint16_t MIN_SORT32_SIZE = 32;
constexpr uint16_t MIN_RPSORT16_SIZE = 16;
constexpr uint32_t BUF_LIST_SIZE = 2;
constexpr uint32_t MRG_MAX_ARRAY_SIZE = 15;
constexpr uint32_t MRGSORT_VALID_QUEUE = 4;
constexpr uint32_t MRGSORT_VALID_TWO = 2;
constexpr uint32_t MRGSORT_VALID_TWO_OFFSET = 769;
constexpr uint32_t TWO = 2, THREE = 3, FOUR = 4, FIVE = 5, SIX = 6, SEVEN = 7, EIGHT = 8, NINE = 9, TWELVE = 12;
constexpr uint32_t SIXTEEN = 16, THIRTY_TWO = 32, FORTYEIGHT = 48;
constexpr uint32_t VREDUCEV2_HALF_MASK = 128;
constexpr uint32_t VREDUCEV2_FOUR_BYTE_MASK = 64;
constexpr uint32_t SRC1_STACK_TENSORSIZE = 10;
constexpr uint32_t SRC1_STACK_VAL_OFFSET = 16;
constexpr uint32_t TOPK_INNER_ALIGN_LEN = 32;
constexpr uint32_t TOPK_NORMAL_INNER_MAX_HALF_LEN = 2048;
constexpr uint32_t TOPK_NSMALL_INNER_LEN = 32;
constexpr uint32_t TOPK_NORMAL_INNER_MAX_LEN = 4096;
}  // namespace

namespace AscendC {
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;
    int32_t n;
};
constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

namespace topk_detail {
template <typename T, bool isInitIndex, bool isHasfinish, TopKMode topkMode, const TopKConfig& config>
inline void call(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& src,
                 const LocalTensor<int32_t>& srcIndex, const LocalTensor<bool>& finish, const LocalTensor<uint8_t>* tmp, int32_t k,
                 const TopKInfo& info, bool isLargest, SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "TopK on Ascend 910B (A2) supports half and float only");
    static_assert(config.algo == TopKAlgo::MERGE_SORT, "TopK: the radix-select algorithm is for Ascend 950 only; A2 merge-sorts");
    ascendcraft::emu::TopKCall c;
    c.dt = ascendcraft::emu::dt_of<T>();
    c.dst_value = &dstValue.emu();
    c.dst_index = &dstIndex.emu();
    c.src = &src.emu();
    if (isInitIndex) c.src_index = &srcIndex.emu();
    if (isHasfinish) c.finish = &finish.emu();
    c.has_finish = isHasfinish;
    if (tmp) c.tmp = &tmp->emu();
    c.k = k;
    c.outter = info.outter;
    c.inner = info.inner;
    c.n = info.n;
    c.small = topkMode == TopKMode::TOPK_NSMALL;
    c.largest = config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
    ascendcraft::emu::adv_topk(c, loc);
}
}  // namespace topk_detail

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
                 const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal,
                 const LocalTensor<uint8_t>& tmpLocal, const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
                 const bool isLargest = true, SrcLoc loc = {}) {
    (void)tilling;
    topk_detail::call<T, isInitIndex, isHasfinish, topkMode, config>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                                     finishLocal, &tmpLocal, k, topKInfo, isLargest, loc);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
                 const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal, const int32_t k,
                 const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true, SrcLoc loc = {}) {
    (void)tilling;
    topk_detail::call<T, isInitIndex, isHasfinish, topkMode, config>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                                     finishLocal, nullptr, k, topKInfo, isLargest, loc);
}
}  // namespace AscendC
