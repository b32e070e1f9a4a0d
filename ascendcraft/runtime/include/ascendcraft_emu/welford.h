// AscendCraft CPU emulation: the Welford advanced APIs of lib/normalization. WelfordUpdate folds one [1, abLength] block
// x of the reduce axis into running per-position statistics: mean' = mean + (x - mean) * nRec, M' = M + (x - mean) *
// (x - mean'), over the first abComputeLength positions (isInplace: the rest copied from the inputs); T half or float,
// the statistics float, each step rounded to float as A2's vector passes do. WelfordFinalize merges the abLength
// partial statistics into one mean and variance: counts per position from headCount / tailCount (or a counts tensor, or
// rnLength without a tail), Mean = sum(count * mean) / R, Var = sum(M + count * (mean - Mean)^2) / R with 1 / R = rRec
// (abRec * sum(mean) without a tail). Signatures and rules from the public AscendC API reference; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
void adv_welford_update(Dt dt, const Local& outMean, const Local& outVar, const Local& inMean, const Local& inVar,
                        const Local& x, const Local* tmp, uint32_t rn, uint32_t ab, uint32_t abCompute, float nRec,
                        bool inplace, bool reuseSource, SrcLoc loc);
struct WelfordFinalizeArgs {
    uint32_t rnLength, abLength, headCount, headCountLength, tailCount, tailCountLength;
    float abRec, rRec;
};
void adv_welford_finalize(const Local& outMean, const Local& outVar, const Local& inMean, const Local& inVar,
                          const Local* counts, const Local* tmp, const WelfordFinalizeArgs& p, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizeConfig {
    constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};

namespace welford_detail {
template <typename T, typename U, bool isReuseSource, const WelfordUpdateConfig& config>
inline void update(const LocalTensor<U>& outMean, const LocalTensor<U>& outVar, const LocalTensor<U>& inMean,
                   const LocalTensor<U>& inVar, const LocalTensor<T>& x, const LocalTensor<uint8_t>* tmp,
                   const WelfordUpdateParam& para, SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "WelfordUpdate on Ascend 910B (A2): inputX is half or float");
    static_assert(std::is_same<U, float>::value, "WelfordUpdate: the mean and variance tensors (U) are float");
    ascendcraft::emu::adv_welford_update(ascendcraft::emu::dt_of<T>(), outMean.emu(), outVar.emu(), inMean.emu(), inVar.emu(),
                                         x.emu(), tmp ? &tmp->emu() : nullptr, para.rnLength, para.abLength,
                                         para.abComputeLength, para.nRec, config.isInplace, isReuseSource, loc);
}
template <const WelfordFinalizeConfig& config>
inline void finalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar, const LocalTensor<float>& inMean,
                     const LocalTensor<float>& inVar, const LocalTensor<int32_t>* counts, const LocalTensor<uint8_t>* tmp,
                     const WelfordFinalizePara& para, SrcLoc loc) {
    static_assert(!config.isCorrection, "WelfordFinalize: isCorrection (rRecWithCorrection) is for Ascend 950 only, not A2");
    const ascendcraft::emu::WelfordFinalizeArgs p = {para.rnLength, para.abLength, para.headCount, para.headCountLength,
                                                     para.tailCount, para.tailCountLength, para.abRec, para.rRec};
    ascendcraft::emu::adv_welford_finalize(outMean.emu(), outVar.emu(), inMean.emu(), inVar.emu(),
                                           counts ? &counts->emu() : nullptr, tmp ? &tmp->emu() : nullptr, p, loc);
}
}  // namespace welford_detail

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance, const LocalTensor<U>& inputMean,
                          const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX, const WelfordUpdateParam& para,
                          SrcLoc loc = {}) {
    welford_detail::update<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX, nullptr,
                                                        para, loc);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance, const LocalTensor<U>& inputMean,
                          const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordUpdateParam& para, SrcLoc loc = {}) {
    welford_detail::update<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX,
                                                        &sharedTmpBuffer, para, loc);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para, SrcLoc loc = {}) {
    welford_detail::finalize<config>(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            WelfordFinalizePara& para, SrcLoc loc = {}) {
    welford_detail::finalize<config>(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            WelfordFinalizePara& para, SrcLoc loc = {}) {
    welford_detail::finalize<config>(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, SrcLoc loc = {}) {
    welford_detail::finalize<config>(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para, loc);
}
}  // namespace AscendC
