// AscendCraft CPU emulation: advanced (high-level) math APIs: Tanh, Sigmoid, Erf, Sin, Cos, Trunc
// (with the whole-tensor forms) and Floor, Ceil, Round (count forms only, as documented for A2). The
// emulation computes each element in float with libm and rounds to T (a half Sigmoid after each of its four steps,
// as A2 computes it: vector/emu_vector.cpp); it checks the documented rules
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
// The constants of AscendC's Tanh formula, tanh(x) = (e^(2x) - 1) / (e^(2x) + 1) with x first clipped to [-8.8, 8.8]:
// the official headers declare them in namespace AscendC, so every kernel sees them (cann-ops bidirection_lstm writes
// that formula itself with FP32_MAX_V2, FP32_MIN_V2 and DOUBLE_X).
constexpr float FP32_MIN_V2 = -8.8f;
constexpr float FP32_MAX_V2 = 8.8f;
constexpr float DOUBLE_X = 2.0f;
ASCENDCRAFT_EMU_ACTIVATION(Sigmoid, int config = 0)
ASCENDCRAFT_EMU_ACTIVATION(Erf, const ErfConfig& config = defaultErfConfig)
ASCENDCRAFT_EMU_ACTIVATION(Sin, const SinConfig& config = defaultSinConfig)
ASCENDCRAFT_EMU_ACTIVATION(Cos, const CosConfig& config = defaultCosConfig)
ASCENDCRAFT_EMU_ACTIVATION(Trunc, int config = 0)   // toward zero
#undef ASCENDCRAFT_EMU_ACTIVATION

// Rounding to integral values in T: only the forms with a calCount exist.
#define ASCENDCRAFT_EMU_ROUNDING(API)                                                                               \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SrcLoc loc = {}) {        \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_adv(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),          \
                                  srcTensor.emu(), &sharedTmpBuffer.emu(), calCount, loc);                         \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,      \
                    SrcLoc loc = {}) {                                                                             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_adv(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),          \
                                  srcTensor.emu(), nullptr, calCount, loc);                                        \
    }

ASCENDCRAFT_EMU_ROUNDING(Floor)   // toward -inf
ASCENDCRAFT_EMU_ROUNDING(Ceil)    // toward +inf
ASCENDCRAFT_EMU_ROUNDING(Round)   // to nearest, halves away from zero
#undef ASCENDCRAFT_EMU_ROUNDING

}  // namespace AscendC
