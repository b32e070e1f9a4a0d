// AscendCraft CPU emulation: advanced-API activations Tanh, Sigmoid and Erf. The emulation
// computes each element in float with libm and rounds to T; it checks the documented rules
// (no overlap of dst, src and the temporary buffer; the framework-allocated form needs free UB).
#pragma once

#include "tensor.h"

namespace AscendC {

#define ASCENDCRAFT_EMU_ACTIVATION(API, ...)                                                                        \
    template <typename T, bool isReuseSource = false, __VA_ARGS__>                                               \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = {}) {        \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_adv(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),          \
                                  srcTensor.emu(), &sharedTmpBuffer.emu(), calCount, loc);                         \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false, __VA_ARGS__>                                               \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {                                \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_adv(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),          \
                                  srcTensor.emu(), &sharedTmpBuffer.emu(), srcTensor.GetSize(), loc);              \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false, __VA_ARGS__>                                               \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,      \
                    SrcLoc loc = {}) {                                                                             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_adv(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),          \
                                  srcTensor.emu(), nullptr, calCount, loc);                                        \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false, __VA_ARGS__>                                               \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, SrcLoc loc = {}) {            \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_adv(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),          \
                                  srcTensor.emu(), nullptr, srcTensor.GetSize(), loc);                             \
    }

ASCENDCRAFT_EMU_ACTIVATION(Tanh, const TanhConfig& config = DEFAULT_TANH_CONFIG)
ASCENDCRAFT_EMU_ACTIVATION(Sigmoid, int config = 0)
ASCENDCRAFT_EMU_ACTIVATION(Erf, const ErfConfig& config = defaultErfConfig)
#undef ASCENDCRAFT_EMU_ACTIVATION

}  // namespace AscendC
