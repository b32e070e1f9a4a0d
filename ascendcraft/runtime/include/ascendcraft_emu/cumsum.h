// AscendCraft CPU emulation: CumSum (lib/math) on a 2-D [outter, inner] tensor, inner 32-byte aligned. isLastAxis:
// each row's running sum along the row; else each column's running sum down the rows; outputLastRow copies the last row
// of the result into lastRowTensor. half and float (A2); the A2 data path: along the rows, half is summed in float and
// rounded once (Cast, Add, Cast), along a row the running sum stays in T. The sharedTmpBuffer must hold the host's
// GetCumSumMaxMinTmpSize minimum. Signatures and rules from the public AscendC API reference; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
void adv_cumsum(Dt dt, const Local& dst, const Local* lastRow, const Local& src, const Local* tmp, uint32_t outter,
                uint32_t inner, bool lastAxis, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo, SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "CumSum on Ascend 910B (A2) supports half and float only");
    static_assert(config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE,
                  "CumSum: the Sklansky algorithm is for Ascend 950 only; A2 sums line by line");
    ascendcraft::emu::adv_cumsum(ascendcraft::emu::dt_of<T>(), dstTensor.emu(), config.outputLastRow ? &lastRowTensor.emu() : nullptr,
                                 srcTensor.emu(), &sharedTmpBuffer.emu(), cumSumInfo.outter, cumSumInfo.inner, config.isLastAxis, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const CumSumInfo& cumSumInfo, SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "CumSum on Ascend 910B (A2) supports half and float only");
    static_assert(config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE,
                  "CumSum: the Sklansky algorithm is for Ascend 950 only; A2 sums line by line");
    ascendcraft::emu::adv_cumsum(ascendcraft::emu::dt_of<T>(), dstTensor.emu(), config.outputLastRow ? &lastRowTensor.emu() : nullptr,
                                 srcTensor.emu(), nullptr, cumSumInfo.outter, cumSumInfo.inner, config.isLastAxis, loc);
}
}  // namespace AscendC
