// AscendCraft CPU emulation: SoftmaxFlashV3, the softmax of the PASA algorithm (lib/activation/softmaxflashv3.h) on
// Ascend 910B (A2): half rows with float statistics. Each row of k elements is shifted by its 8 partial means (the
// reference's block reductions, scaled by alpha / (1 - alpha)) before the max / exp / sum of the flash update; with
// isUpdate the running mean, max and sum of earlier loops (loopCnt of them) are folded in. Written from the public
// AscendC API reference; no vendor code.
#pragma once

#include "norm.h"

namespace ascendcraft { namespace emu {
struct FlashV3Call {
    bool update = false;
    const Local *dst = nullptr, *mean = nullptr, *sum = nullptr, *max = nullptr, *src = nullptr, *exp_max = nullptr,
                *in_mean = nullptr, *in_sum = nullptr, *in_max = nullptr, *tmp = nullptr;
    uint32_t m = 0, k = 0, ori_m = 0, ori_k = 0, loop_cnt = 1, split_mean_cnt = 8;
    float alpha = 0.9375f;
    bool reserved_flags = false;   // isReuseSource / isBasicBlock / isDataFormatNZ set (reserved: the default only)
};
void adv_softmax_flashv3(const FlashV3Call& c, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace flashv3_detail {
template <typename T, typename U, bool isUpdate, bool flags>
inline void call(const LocalTensor<T>& dst, const LocalTensor<U>& mean, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                 const LocalTensor<T>& src, const LocalTensor<T>& expMax, const LocalTensor<U>& inMean,
                 const LocalTensor<U>& inSum, const LocalTensor<U>& inMax, const LocalTensor<uint8_t>* tmp,
                 const SoftMaxParams& p, SrcLoc loc) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, float>::value,
                  "SoftmaxFlashV3 on Ascend 910B (A2) takes half data (T) and float statistics (U)");
    ascendcraft::emu::FlashV3Call c;
    c.update = isUpdate;
    c.dst = &dst.emu(); c.mean = &mean.emu(); c.sum = &sum.emu(); c.max = &max.emu(); c.src = &src.emu();
    c.exp_max = &expMax.emu(); c.in_mean = &inMean.emu(); c.in_sum = &inSum.emu(); c.in_max = &inMax.emu();
    if (tmp) c.tmp = &tmp->emu();
    c.m = p.srcM; c.k = p.srcK; c.ori_m = p.oriSrcM; c.ori_k = p.oriSrcK; c.loop_cnt = p.loopCnt;
    c.split_mean_cnt = p.splitMeanCnt; c.alpha = p.alpha; c.reserved_flags = flags;
    ascendcraft::emu::adv_softmax_flashv3(c, loc);
}
}  // namespace flashv3_detail

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor, const LocalTensor<U>& expSumTensor,
                           const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, const SoftMaxParams& params,
                           SrcLoc loc = {}) {
    (void)tiling;
    flashv3_detail::call<T, U, isUpdate, isReuseSource || isBasicBlock || isDataFormatNZ>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor,
        nullptr, params, loc);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor, const LocalTensor<U>& expSumTensor,
                           const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxParams& params, SrcLoc loc = {}) {
    (void)tiling;
    flashv3_detail::call<T, U, isUpdate, isReuseSource || isBasicBlock || isDataFormatNZ>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor,
        &sharedTmpBuffer, params, loc);
}
}  // namespace AscendC
