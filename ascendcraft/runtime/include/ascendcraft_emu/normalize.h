// AscendCraft CPU emulation: Normalize (lib/normalization), LayerNorm's second half on an [A, R] tensor whose row means
// and variances are given: rstd = 1 / sqrt(variance + epsilon) per row, y = (x - mean) * rstd * gamma + beta (gamma /
// beta left out with isNoGamma / isNoBeta). T (x, y) half or float; U (gamma, beta) half or float, at least as precise
// as T; mean, variance and rstd float, one per row. Computed in double per element, rounded to T and float as stored.
// DeepNorm (lib/normalization) on [B, S, H]: LayerNorm(alpha * x + gx) with gamma and beta, the row mean and rstd as
// outputs of type T (half or float); H padded to 32 bytes and at most 2040.
// Signatures and rules from the public AscendC API reference; no vendor code.
#pragma once

#include "norm_tiling_data.h"
#include "reduce_pattern_enum.h"

#include "tensor.h"

namespace ascendcraft { namespace emu {
struct NormalizeCall {
    Dt dt = Dt::none, gamma_dt = Dt::none;
    const Local* y = nullptr;
    const Local* rstd = nullptr;
    const Local* mean = nullptr;
    const Local* var = nullptr;
    const Local* x = nullptr;
    const Local* gamma = nullptr;    // nullptr: isNoGamma
    const Local* beta = nullptr;     // nullptr: isNoBeta
    const Local* tmp = nullptr;
    float eps = 0;
    uint32_t a = 0, r = 0, r_pad = 0;
    int32_t config_a = -1;
};
void adv_normalize(const NormalizeCall& c, SrcLoc loc);
// DeepNorm: y = LayerNorm(alpha * x + gx) over rows of `h_pad` elements (`h` valid), mean and variance one T per row
// (the variance into the tensor the API names rstdLocal: what the reference's example prints there).
struct DeepNormCall {
    Dt dt = Dt::none;
    const Local* y = nullptr;
    const Local* mean = nullptr;
    const Local* rstd = nullptr;
    const Local* x = nullptr;
    const Local* gx = nullptr;
    const Local* beta = nullptr;
    const Local* gamma = nullptr;
    const Local* tmp = nullptr;
    double alpha = 1, eps = 0;
    uint32_t rows = 0, h_pad = 0, h = 0;
    bool reuse_src = false, basic_block = false;
};
void adv_deepnorm(const DeepNormCall& c, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta, bool isNoGamma) {
    return {ReducePattern::AR, -1, isNoBeta, isNoGamma, false};
}
constexpr NormalizeConfig NLCFG_NORM = GetNormalizeConfig(false, false);
constexpr NormalizeConfig NLCFG_NOBETA = GetNormalizeConfig(true, false);
constexpr NormalizeConfig NLCFG_NOGAMMA = GetNormalizeConfig(false, true);
constexpr NormalizeConfig NLCFG_NOOPT = GetNormalizeConfig(true, true);

namespace normalize_detail {
template <typename U, typename T, const NormalizeConfig& config>
inline void call(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
                 const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                 const LocalTensor<U>& beta, const LocalTensor<uint8_t>* tmp, float epsilon, const NormalizePara& para,
                 SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "Normalize on Ascend 910B (A2): T (inputX, output) is half or float");
    static_assert(ascendcraft::emu::OneOf<U, half, float>::value, "Normalize on Ascend 910B (A2): U (gamma, beta) is half or float");
    static_assert(sizeof(U) >= sizeof(T), "Normalize: gamma and beta (U) must be at least as precise as inputX (T)");
    static_assert(config.reducePattern == ReducePattern::AR, "Normalize supports ReducePattern::AR only (R the inner axis)");
    static_assert(!config.isOnlyOutput, "Normalize: isOnlyOutput supports false only (y and rstd are both output)");
    ascendcraft::emu::NormalizeCall c;
    c.dt = ascendcraft::emu::dt_of<T>();
    c.gamma_dt = ascendcraft::emu::dt_of<U>();
    c.y = &output.emu();
    c.rstd = &outputRstd.emu();
    c.mean = &inputMean.emu();
    c.var = &inputVariance.emu();
    c.x = &inputX.emu();
    if (!config.isNoGamma) c.gamma = &gamma.emu();
    if (!config.isNoBeta) c.beta = &beta.emu();
    if (tmp) c.tmp = &tmp->emu();
    c.eps = epsilon;
    c.a = para.aLength;
    c.r = para.rLength;
    c.r_pad = para.rLengthWithPadding;
    c.config_a = config.aLength;
    ascendcraft::emu::adv_normalize(c, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void deepnorm_call(const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& rstd, const LocalTensor<T>& src,
                          const LocalTensor<T>& gx, const LocalTensor<T>& beta, const LocalTensor<T>& gamma,
                          const LocalTensor<uint8_t>* tmp, const T alpha, const T epsilon, const tiling::DeepNormTiling& tiling,
                          SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "DeepNorm on Ascend 910B (A2) supports half and float only");
    static_assert(!(isReuseSrc && std::is_same<T, half>::value), "DeepNorm: isReuseSrc is for float inputs only");
    ascendcraft::emu::DeepNormCall c;
    c.dt = ascendcraft::emu::dt_of<T>();
    c.y = &dst.emu(); c.mean = &mean.emu(); c.rstd = &rstd.emu(); c.x = &src.emu(); c.gx = &gx.emu();
    c.beta = &beta.emu(); c.gamma = &gamma.emu();
    if (tmp) c.tmp = &tmp->emu();
    c.alpha = static_cast<float>(alpha);
    c.eps = static_cast<float>(epsilon);
    c.rows = tiling.bLength * tiling.sLength;
    c.h_pad = tiling.hLength;
    c.h = tiling.originalHLength ? tiling.originalHLength : tiling.hLength;
    c.reuse_src = isReuseSrc;
    c.basic_block = isBasicBlock;
    ascendcraft::emu::adv_deepnorm(c, loc);
}
}  // namespace normalize_detail
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling& tiling, SrcLoc loc = {}) {
    normalize_detail::deepnorm_call<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                                 gammaLocal, &sharedTmpBuffer, alpha, epsilon, tiling, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling, SrcLoc loc = {}) {
    normalize_detail::deepnorm_call<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                                 gammaLocal, nullptr, alpha, epsilon, tiling, loc);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
                      const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                      const NormalizePara& para, SrcLoc loc = {}) {
    normalize_detail::call<U, T, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, &sharedTmpBuffer,
                                         epsilon, para, loc);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
                      const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para, SrcLoc loc = {}) {
    normalize_detail::call<U, T, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, nullptr, epsilon,
                                         para, loc);
}
}  // namespace AscendC
