// AscendCraft CPU emulation: the gated-linear-unit activations of lib/activation, SwiGLU, GeGLU and ReGlu.
// SwiGLU: dst = src0 * swish(src1), swish(x) = x / (1 + exp(-beta * x)); GeGLU: dst = src0 * gelu(src1) with GELU in
// its tanh form; ReGlu: dst = src0 * max(0, src1). Each element is computed in double and rounded to T (half or float
// on Ascend 910B / A2; ReGlu takes bfloat16_t too). The
// documented rules are checked: the three tensors the same type, no overlap of dst with a source or of
// sharedTmpBuffer with any of them, calCount within every operand, and (half) a sharedTmpBuffer at least as large as
// the host's Get<Api>MaxMinTmpSize minimum. Signatures and rules from the public AscendC API reference; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
// op: Op::SwiGLU, Op::GeGLU or Op::ReGlu; beta is SwiGLU's scalarValue; tmp nullptr: the framework allocates.
// `same_size`: the two sources must hold the same number of elements (all but SwiGLU's calCount forms, whose check is
// the calCount within each operand: a kernel's two halves of one buffer, ops-transformer grouped_matmul_swiglu_quant).
void adv_glu(Op op, Dt dt, const Local& dst, const Local& src0, const Local& src1, const Local* tmp, double beta,
             uint64_t count, SrcLoc loc, bool same_size = true);
}}  // namespace ascendcraft::emu

namespace AscendC {
#define ASCENDCRAFT_EMU_GLU_CHECK(API) ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float)
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                   SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GLU_CHECK(SwiGLU);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::SwiGLU, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), &sharedTmpBuffer.emu(), scalarValue, calCount, loc, false);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GLU_CHECK(SwiGLU);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::SwiGLU, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), &sharedTmpBuffer.emu(), scalarValue, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GLU_CHECK(SwiGLU);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::SwiGLU, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), nullptr, scalarValue, calCount, loc, false);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GLU_CHECK(SwiGLU);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::SwiGLU, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), nullptr, scalarValue, srcTensor0.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GLU_CHECK(GeGLU);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::GeGLU, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), &sharedTmpBuffer.emu(), 0, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_GLU_CHECK(GeGLU);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::GeGLU, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), nullptr, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  SrcLoc loc = {}) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize(), loc);
}
// ReGlu (half, bfloat16_t and float on A2): with a sharedTmpBuffer, or the framework's
template <typename T, bool isReuseSource = false>
inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(ReGlu, "half, bfloat16_t and float", T, half, bfloat16_t, float);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::ReGlu, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), &sharedTmpBuffer.emu(), 0, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(ReGlu, "half, bfloat16_t and float", T, half, bfloat16_t, float);
    ascendcraft::emu::adv_glu(ascendcraft::emu::Op::ReGlu, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor0.emu(),
                              srcTensor1.emu(), nullptr, 0, calCount, loc);
}
#undef ASCENDCRAFT_EMU_GLU_CHECK
}  // namespace AscendC
