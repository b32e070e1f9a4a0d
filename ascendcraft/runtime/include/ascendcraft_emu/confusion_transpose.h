// AscendCraft CPU emulation: ConfusionTranspose (and its newer name, Transpose with a TransposeType and a
// ConfusionTransposeTiling), the advanced API that rearranges a UB tensor by a TransposeType. Written from the public
// AscendC API reference; no vendor code.
//
// Emulated: TRANSPOSE_ND2ND_ONLY, [H, W] -> [W, H] in ND, H = tiling.param1 and W = tiling.param2 as the host's
// GetConfusionTransposeTilingInfo fills them (kernels that fill the tiling themselves set the same two fields); H a
// multiple of 16 and W of a 32-byte block, as the reference asks. Every other TransposeType (the NZ <-> ND matmul-side
// layouts) stops the run with an error that names it.
#pragma once

#include "tensor.h"
#include "transpose_tiling_data.h"

namespace AscendC {
namespace confusion_transpose_detail {
inline const char* type_name(TransposeType t) {
    switch (t) {
    case TransposeType::TRANSPOSE_NZ2ND_0213: return "TRANSPOSE_NZ2ND_0213";
    case TransposeType::TRANSPOSE_NZ2NZ_0213: return "TRANSPOSE_NZ2NZ_0213";
    case TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N: return "TRANSPOSE_NZ2NZ_012_WITH_N";
    case TransposeType::TRANSPOSE_NZ2ND_012_WITH_N: return "TRANSPOSE_NZ2ND_012_WITH_N";
    case TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N: return "TRANSPOSE_NZ2ND_012_WITHOUT_N";
    case TransposeType::TRANSPOSE_NZ2NZ_012_WITHOUT_N: return "TRANSPOSE_NZ2NZ_012_WITHOUT_N";
    case TransposeType::TRANSPOSE_ND2ND_ONLY: return "TRANSPOSE_ND2ND_ONLY";
    default: return "this TransposeType";
    }
}
template <typename T>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, TransposeType type,
                const ConfusionTransposeTiling& tiling, SrcLoc loc) {
    ASCENDCRAFT_EMU_RUNTIME_TYPES_CHECK(Transpose, "int16_t, uint16_t, half, int32_t, uint32_t and float (TRANSPOSE_ND2ND_ONLY)",
                                        T, int16_t, uint16_t, half, int32_t, uint32_t, float);
    if (type != TransposeType::TRANSPOSE_ND2ND_ONLY) {
        static thread_local char said[200];
        std::snprintf(said, sizeof said, "ConfusionTranspose / Transpose with %s is not emulated yet (only "
                      "TRANSPOSE_ND2ND_ONLY, [H, W] -> [W, H], is)", type_name(type));
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Transpose, said,
                                           "rearrange the data with DataCopy / Gather, or TRANSPOSE_ND2ND_ONLY for a 2-D transpose", loc);
    }
    const uint32_t h = tiling.param1, w = tiling.param2;
    if (h == 0 || w == 0 || h % 16 != 0 || (w * sizeof(T)) % 32 != 0)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Transpose,
                                           "ConfusionTranspose TRANSPOSE_ND2ND_ONLY: the tiling's H (param1) must be a non-zero "
                                           "multiple of 16 and its W (param2) a non-zero whole number of 32-byte blocks",
                                           "fill the tiling with GetConfusionTransposeTilingInfo for the [H, W] source, both "
                                           "padded to 16 elements", loc);
    // [H, W] -> [W, H] is NCHW -> NHWC with N = 1, C = H, H = 1, W = W: each source row becomes a destination column
    ascendcraft::emu::vec_transpose4d(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), tmp ? tmp->emu() : src.emu(),
                                      1, h, 1, w, true, loc);
}
}  // namespace confusion_transpose_detail

template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling, SrcLoc loc = {}) {
    confusion_transpose_detail::run(dstTensor, srcTensor, &sharedTmpBuffer, transposeType, tiling, loc);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling, SrcLoc loc = {}) {
    confusion_transpose_detail::run(dstTensor, srcTensor, static_cast<const LocalTensor<uint8_t>*>(nullptr), transposeType,
                                    tiling, loc);
}
template <typename T>
inline void Transpose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                      ConfusionTransposeTiling& tiling, SrcLoc loc = {}) {
    confusion_transpose_detail::run(dstTensor, srcTensor, &sharedTmpBuffer, transposeType, tiling, loc);
}
template <typename T>
inline void Transpose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, TransposeType transposeType,
                      ConfusionTransposeTiling& tiling, SrcLoc loc = {}) {
    confusion_transpose_detail::run(dstTensor, srcTensor, static_cast<const LocalTensor<uint8_t>*>(nullptr), transposeType,
                                    tiling, loc);
}
}  // namespace AscendC
