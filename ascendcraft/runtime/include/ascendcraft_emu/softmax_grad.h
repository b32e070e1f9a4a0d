// AscendCraft CPU emulation: the SoftmaxGrad / SoftmaxGradFront advanced APIs (lib/activation softmax family). For each
// row of an [M, K] tensor (K 32-byte aligned): s = sum(grad * src) over the row; isFront (SoftmaxGradFront) writes s
// into one 32-byte block per row of dst; otherwise dst = (grad - s) * src. The shape comes from SoftMaxShapeInfo when it
// is given, else from the tiling (SoftMaxGradTilingFunc). Written from the public AscendC API reference (SoftmaxGrad,
// SoftmaxGradFront, SoftmaxGrad Tiling); no vendor code.
#pragma once

#include "norm.h"

namespace ascendcraft { namespace emu {
void adv_softmax_grad(Dt dt, const Local& dst, const Local& grad, const Local& src, const Local* tmp, uint32_t rows,
                      uint32_t rowStride, uint32_t cols, bool isFront, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace softmax_grad_detail {
template <typename T, bool isDataFormatNZ>
inline void call(const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                 const SoftMaxTiling& tiling, bool isFront, const SoftMaxShapeInfo& info, SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "SoftmaxGrad on Ascend 910B (A2) supports half and float only");
    if (isDataFormatNZ)
        ascendcraft::emu::norm_shape_error(ascendcraft::emu::Op::SoftmaxGrad, "the NZ data format (isDataFormatNZ = true) is "
                                           "outside the emulated subset", "lay the rows out in ND (the default)", loc);
    const uint32_t rows = info.srcM ? info.srcM : tiling.srcM;
    const uint32_t stride = info.srcK ? info.srcK : tiling.srcK;
    const uint32_t cols = info.oriSrcK ? info.oriSrcK : stride;
    ascendcraft::emu::adv_softmax_grad(ascendcraft::emu::dt_of<T>(), dst.emu(), grad.emu(), src.emu(), tmp ? &tmp->emu() : nullptr,
                                       rows, stride, cols, isFront, loc);
}
}  // namespace softmax_grad_detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                        const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                        SrcLoc loc = {}) {
    softmax_grad_detail::call<T, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, nullptr, tiling, isFront, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    softmax_grad_detail::call<T, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, isFront,
                                                 softmaxShapeInfo, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    softmax_grad_detail::call<T, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, nullptr, tiling, true, softmaxShapeInfo, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    softmax_grad_detail::call<T, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, true,
                                                 softmaxShapeInfo, loc);
}
}  // namespace AscendC
