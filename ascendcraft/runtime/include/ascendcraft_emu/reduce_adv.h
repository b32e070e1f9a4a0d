// The last-axis reductions of the advanced API: Sum and Mean over each of `outter` rows of `n` elements (rows
// `inner` elements apart, inner * sizeof(T) a multiple of 32). Written from the public AscendC documentation; no vendor
// code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
// mean: divide each row's sum by n; acc_float: add (and divide) in float for a half T (Mean's accType = float).
void vec_row_reduce(Op op, Dt dt, const Local& d, const Local& a, const Local* tmp, uint32_t outter, uint32_t inner, uint32_t n,
                    bool acc_float, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};

#define ASCENDCRAFT_EMU_ROW_REDUCE_TYPES(API, T) \
    ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float)
// Sum: dst[i] = the sum of row i's n elements, added pairwise (a binary tree, as ReduceSum adds).
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const SumParams& sumParams, ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_ROW_REDUCE_TYPES(Sum, T);
    const ascendcraft::emu::Local tmp = sharedTmpBuffer.emu();
    ascendcraft::emu::vec_row_reduce(ascendcraft::emu::Op::Sum, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), &tmp,
                                     sumParams.outter, sumParams.inner, sumParams.n, false, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams,
                ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_ROW_REDUCE_TYPES(Sum, T);
    ascendcraft::emu::vec_row_reduce(ascendcraft::emu::Op::Sum, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), nullptr,
                                     sumParams.outter, sumParams.inner, sumParams.n, false, loc);
}
// Mean: the row sum divided by n; accType = float computes a half input in float.
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const MeanParams& meanParams, ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_ROW_REDUCE_TYPES(Mean, T);
    static_assert(std::is_same<accType, T>::value || (std::is_same<T, half>::value && std::is_same<accType, float>::value),
                  "Mean: accType is T, or float for a half T");
    const ascendcraft::emu::Local tmp = sharedTmpBuffer.emu();
    ascendcraft::emu::vec_row_reduce(ascendcraft::emu::Op::Mean, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), &tmp,
                                     meanParams.outter, meanParams.inner, meanParams.n, !std::is_same<accType, T>::value, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams,
                 ascendcraft::emu::SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_ROW_REDUCE_TYPES(Mean, T);
    static_assert(std::is_same<accType, T>::value || (std::is_same<T, half>::value && std::is_same<accType, float>::value),
                  "Mean: accType is T, or float for a half T");
    ascendcraft::emu::vec_row_reduce(ascendcraft::emu::Op::Mean, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), nullptr,
                                     meanParams.outter, meanParams.inner, meanParams.n, !std::is_same<accType, T>::value, loc);
}
#undef ASCENDCRAFT_EMU_ROW_REDUCE_TYPES

}  // namespace AscendC
