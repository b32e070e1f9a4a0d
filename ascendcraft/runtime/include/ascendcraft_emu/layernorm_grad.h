// AscendCraft CPU emulation: LayerNormGrad and LayerNormGradBeta (lib/normalization), LayerNorm's backward pass on
// [B, S, H] with the formulas of the API reference: with rstd = (variance + eps)^-0.5 per row, pd_xl = dy * gamma,
// pd_var = sum(-0.5 * pd_xl * (x - mean)) * rstd^3, pd_mean = sum(-pd_xl) * rstd + pd_var / H * sum(-2 * (x - mean)),
// pd_x = pd_xl * rstd + pd_var * 2 / H * (x - mean) + pd_mean / H, resForGamma = (x - mean) * rstd; LayerNormGradBeta:
// pdGamma = sum over B, S of dy * resForGamma, pdBeta = sum of dy. half or float; mean and variance one per row. The
// shape comes from the tiling (GetLayerNormGrad(Beta)NDTilingInfo). Signatures and rules from the public AscendC API
// reference; no vendor code.
#pragma once

#include "norm_tiling_data.h"
#include "tensor.h"

namespace ascendcraft { namespace emu {
void adv_layernorm_grad(Dt dt, const Local& pdX, const Local& resForGamma, const Local& dy, const Local& x, const Local& var,
                        const Local& mean, const Local& gamma, const Local* tmp, double eps, uint32_t rows, uint32_t hPad,
                        uint32_t h, SrcLoc loc);
void adv_layernorm_grad_beta(Dt dt, const Local& pdGamma, const Local& pdBeta, const Local& resForGamma, const Local& dy,
                             const Local* tmp, uint32_t rows, uint32_t hPad, uint32_t h, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};

namespace layernorm_grad_detail {
template <typename T>
inline void grad(const LocalTensor<T>& pdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& dy, const LocalTensor<T>& x,
                 const LocalTensor<T>& var, const LocalTensor<T>& mean, const LocalTensor<T>& gamma,
                 const LocalTensor<uint8_t>* tmp, T epsilon, const tiling::LayerNormGradTiling& tiling,
                 const LayerNormGradShapeInfo& info, SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "LayerNormGrad on Ascend 910B (A2) supports half and float only");
    if (info.dataFormat != DataFormat::ND)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::LayerNormGrad, ascendcraft::emu::dt_of<T>(),
                                           "the ND data format only", loc);
    ascendcraft::emu::adv_layernorm_grad(ascendcraft::emu::dt_of<T>(), pdX.emu(), resForGamma.emu(), dy.emu(), x.emu(), var.emu(),
                                         mean.emu(), gamma.emu(), tmp ? &tmp->emu() : nullptr, static_cast<float>(epsilon),
                                         tiling.bLength * tiling.sLength, tiling.hLength,
                                         tiling.originalHLength ? tiling.originalHLength : tiling.hLength, loc);
}
}  // namespace layernorm_grad_detail

template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                          const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    layernorm_grad_detail::grad<T>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, &sharedTmpBuffer,
                                   epsilon, tiling, shapeInfo, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                          const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                          const LayerNormGradShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    layernorm_grad_detail::grad<T>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, nullptr, epsilon,
                                   tiling, shapeInfo, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling, SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "LayerNormGradBeta on Ascend 910B (A2) supports half and float only");
    ascendcraft::emu::adv_layernorm_grad_beta(ascendcraft::emu::dt_of<T>(), outputPdGamma.emu(), outputPdBeta.emu(), resForGamma.emu(),
                                              inputDy.emu(), &sharedTmpBuffer.emu(), tiling.bLength * tiling.sLength,
                                              tiling.hLength, tiling.originalHLength ? tiling.originalHLength : tiling.hLength, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy, LayerNormGradBetaTiling& tiling,
                              SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "LayerNormGradBeta on Ascend 910B (A2) supports half and float only");
    ascendcraft::emu::adv_layernorm_grad_beta(ascendcraft::emu::dt_of<T>(), outputPdGamma.emu(), outputPdBeta.emu(), resForGamma.emu(),
                                              inputDy.emu(), nullptr, tiling.bLength * tiling.sLength, tiling.hLength,
                                              tiling.originalHLength ? tiling.originalHLength : tiling.hLength, loc);
}
}  // namespace AscendC
