// The advanced Exp of AscendC, Exp<T, taylorExpandLevel, isReuseSource>: e^x computed in float as e^floor(x) (the Exp
// instruction) times a Taylor series of the fraction x - floor(x) with taylorExpandLevel terms (1 + c + c^2/2! + ...),
// each term the previous one times c times the float 1/i; half sources go through float and back (round to nearest).
// With isReuseSource on float, src ends holding the fractions, as the API uses it for them. Level 0 is the basic Exp. Written from the public
// AscendC documentation and the algorithm it describes; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
void vec_exp_taylor(Dt dt, const Local& d, const Local& src, uint32_t count, uint32_t level, bool reuseSource, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Exp, "half and float", T, half, float);
    if (taylorExpandLevel == 0) {  // no series: the basic Exp instruction
        Exp(dstLocal, srcLocal, static_cast<int32_t>(calCount), loc);
        return;
    }
    ascendcraft::emu::vec_exp_taylor(ascendcraft::emu::dt_of<T>(), dstLocal.emu(), srcLocal.emu(), calCount, taylorExpandLevel,
                                     isReuseSource, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const uint32_t calCount, SrcLoc loc = {}) {
    (void)sharedTmpBuffer;
    Exp<T, taylorExpandLevel, isReuseSource>(dstLocal, srcLocal, calCount, loc);
}
}  // namespace AscendC
