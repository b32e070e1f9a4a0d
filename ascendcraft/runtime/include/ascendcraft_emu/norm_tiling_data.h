// AscendCraft: the tiling structs of the normalisation advanced APIs (SoftMaxTiling, LayerNormTiling, DeepNormTiling,
// LayerNormGradTiling, LayerNormGradBetaTiling, LayerNormSeparateTiling, RmsNormTiling), one layout for the host's optiling:: and the kernel's AscendC::tiling::,
// with the set_/get_ accessors of TILING_DATA_FIELD_DEF. Field names and order from the public AscendC API
// reference; no vendor code. Kept free of the kernel headers, so that an op's tiling header can embed them
// (TILING_DATA_FIELD_DEF_STRUCT) on the host side too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

// ---- tiling structs (one layout for the host's optiling:: and the kernel's AscendC::tiling::) ----------
#define ASCENDCRAFT_EMU_TF(type, field)             \
    type field = type();                            \
    void set_##field(type value) { field = value; } \
    type get_##field() const { return field; }
#define ASCENDCRAFT_EMU_TILING_END                                                                \
    size_t GetDataSize() const { return sizeof(*this); }                                          \
    void SaveToBuffer(void* dst, size_t capacity) const {                                         \
        std::memcpy(dst, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);              \
    }

namespace AscendC { namespace tiling {
struct SoftMaxTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, srcM) ASCENDCRAFT_EMU_TF(uint32_t, srcK) ASCENDCRAFT_EMU_TF(uint32_t, srcSize)
    ASCENDCRAFT_EMU_TF(uint32_t, outMaxM) ASCENDCRAFT_EMU_TF(uint32_t, outMaxK) ASCENDCRAFT_EMU_TF(uint32_t, outMaxSize)
    ASCENDCRAFT_EMU_TF(uint32_t, splitM) ASCENDCRAFT_EMU_TF(uint32_t, splitK) ASCENDCRAFT_EMU_TF(uint32_t, splitSize)
    ASCENDCRAFT_EMU_TF(uint32_t, reduceM) ASCENDCRAFT_EMU_TF(uint32_t, reduceK) ASCENDCRAFT_EMU_TF(uint32_t, reduceSize)
    ASCENDCRAFT_EMU_TF(uint32_t, rangeM) ASCENDCRAFT_EMU_TF(uint32_t, tailM) ASCENDCRAFT_EMU_TF(uint32_t, tailSplitSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tailReduceSize)
    ASCENDCRAFT_EMU_TILING_END
};
struct LayerNormTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, bLength) ASCENDCRAFT_EMU_TF(uint32_t, sLength) ASCENDCRAFT_EMU_TF(uint32_t, hLength)
    ASCENDCRAFT_EMU_TF(uint32_t, originalHLength) ASCENDCRAFT_EMU_TF(uint32_t, inputXSize)
    ASCENDCRAFT_EMU_TF(uint32_t, meanVarSize) ASCENDCRAFT_EMU_TF(uint32_t, numberOfTmpBuf)
    ASCENDCRAFT_EMU_TF(uint32_t, meanTmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, meanTmpTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, varianceTmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, varianceTmpTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpBufSize) ASCENDCRAFT_EMU_TF(uint32_t, oneTmpSize)
    ASCENDCRAFT_EMU_TF(uint32_t, firstTmpStartPos) ASCENDCRAFT_EMU_TF(uint32_t, secondTmpStartPos)
    ASCENDCRAFT_EMU_TF(uint32_t, thirdTmpStartPos) ASCENDCRAFT_EMU_TF(uint32_t, loopRound)
    ASCENDCRAFT_EMU_TF(uint32_t, inputRoundSize) ASCENDCRAFT_EMU_TF(uint32_t, inputTailSize)
    ASCENDCRAFT_EMU_TF(uint32_t, inputTailPos) ASCENDCRAFT_EMU_TF(uint32_t, meanVarRoundSize)
    ASCENDCRAFT_EMU_TF(uint32_t, meanVarTailSize) ASCENDCRAFT_EMU_TF(uint32_t, meanVarTailPos)
    ASCENDCRAFT_EMU_TF(uint32_t, bshCurLength) ASCENDCRAFT_EMU_TF(uint32_t, bsCurLength)
    ASCENDCRAFT_EMU_TF(float, lastDimValueBack)
    ASCENDCRAFT_EMU_TILING_END
};
// DeepNorm's tiling: LayerNorm's [B, S, H] fields, its own type.
struct DeepNormTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, bLength) ASCENDCRAFT_EMU_TF(uint32_t, sLength) ASCENDCRAFT_EMU_TF(uint32_t, hLength)
    ASCENDCRAFT_EMU_TF(uint32_t, originalHLength) ASCENDCRAFT_EMU_TF(uint32_t, inputXSize)
    ASCENDCRAFT_EMU_TF(uint32_t, meanVarSize) ASCENDCRAFT_EMU_TF(uint32_t, numberOfTmpBuf)
    ASCENDCRAFT_EMU_TF(uint32_t, meanTmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, meanTmpTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, varianceTmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, varianceTmpTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpBufSize) ASCENDCRAFT_EMU_TF(uint32_t, oneTmpSize)
    ASCENDCRAFT_EMU_TF(uint32_t, firstTmpStartPos) ASCENDCRAFT_EMU_TF(uint32_t, secondTmpStartPos)
    ASCENDCRAFT_EMU_TF(uint32_t, thirdTmpStartPos) ASCENDCRAFT_EMU_TF(uint32_t, loopRound)
    ASCENDCRAFT_EMU_TF(uint32_t, inputRoundSize) ASCENDCRAFT_EMU_TF(uint32_t, inputTailSize)
    ASCENDCRAFT_EMU_TF(uint32_t, inputTailPos) ASCENDCRAFT_EMU_TF(uint32_t, meanVarRoundSize)
    ASCENDCRAFT_EMU_TF(uint32_t, meanVarTailSize) ASCENDCRAFT_EMU_TF(uint32_t, meanVarTailPos)
    ASCENDCRAFT_EMU_TF(uint32_t, bshCurLength) ASCENDCRAFT_EMU_TF(uint32_t, bsCurLength)
    ASCENDCRAFT_EMU_TF(float, lastDimValueBack)
    ASCENDCRAFT_EMU_TILING_END
};
struct LayerNormSeparateTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, aLength) ASCENDCRAFT_EMU_TF(uint32_t, rLength)
    ASCENDCRAFT_EMU_TF(uint32_t, halfAddRepeatTimes) ASCENDCRAFT_EMU_TF(uint32_t, rHeadLength)
    ASCENDCRAFT_EMU_TF(float, k2Rec) ASCENDCRAFT_EMU_TF(float, k2RRec) ASCENDCRAFT_EMU_TF(uint32_t, inputXSize)
    ASCENDCRAFT_EMU_TF(uint32_t, meanVarSize) ASCENDCRAFT_EMU_TF(uint32_t, numberOfTmpBuf)
    ASCENDCRAFT_EMU_TF(uint32_t, varianceTmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, varianceTmpTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpBufSize) ASCENDCRAFT_EMU_TF(uint32_t, oneTmpSize)
    ASCENDCRAFT_EMU_TF(uint32_t, firstTmpStartPos) ASCENDCRAFT_EMU_TF(uint32_t, secondTmpStartPos)
    ASCENDCRAFT_EMU_TF(uint32_t, thirdTmpStartPos) ASCENDCRAFT_EMU_TF(uint32_t, loopRound)
    ASCENDCRAFT_EMU_TF(uint32_t, inputRoundSize) ASCENDCRAFT_EMU_TF(uint32_t, inputTailSize)
    ASCENDCRAFT_EMU_TF(uint32_t, inputTailPos) ASCENDCRAFT_EMU_TF(uint32_t, meanVarRoundSize)
    ASCENDCRAFT_EMU_TF(uint32_t, meanVarTailSize) ASCENDCRAFT_EMU_TF(uint32_t, meanVarTailPos)
    ASCENDCRAFT_EMU_TF(uint32_t, arCurLength) ASCENDCRAFT_EMU_TF(uint32_t, aCurLength)
    ASCENDCRAFT_EMU_TF(float, rValueBack)
    ASCENDCRAFT_EMU_TILING_END
};
// LayerNormGrad's tiling (all uint32_t; lastDimValueBack / lastDimValueBackMulTwo hold the float bits of 1/H, 2/H).
struct LayerNormGradTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, stackBufferSize) ASCENDCRAFT_EMU_TF(uint32_t, bLength)
    ASCENDCRAFT_EMU_TF(uint32_t, sLength) ASCENDCRAFT_EMU_TF(uint32_t, hLength)
    ASCENDCRAFT_EMU_TF(uint32_t, originalHLength) ASCENDCRAFT_EMU_TF(uint32_t, oneCalSize)
    ASCENDCRAFT_EMU_TF(uint32_t, nohCalSize) ASCENDCRAFT_EMU_TF(uint32_t, loopNum)
    ASCENDCRAFT_EMU_TF(uint32_t, tailSize) ASCENDCRAFT_EMU_TF(uint32_t, nohTailSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpTensorBSHPos) ASCENDCRAFT_EMU_TF(uint32_t, tmpTensorBSHSize)
    ASCENDCRAFT_EMU_TF(uint32_t, pdVarTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, pdVarTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, pdMeanTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, pdMeanTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, x1TensorPos) ASCENDCRAFT_EMU_TF(uint32_t, x1TensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, x2TensorPos) ASCENDCRAFT_EMU_TF(uint32_t, x2TensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, x3TensorPos) ASCENDCRAFT_EMU_TF(uint32_t, x3TensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, tmpTensorSize)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpTensor1Pos) ASCENDCRAFT_EMU_TF(uint32_t, tmpTensor1Size)
    ASCENDCRAFT_EMU_TF(uint32_t, tmpTensor2Pos) ASCENDCRAFT_EMU_TF(uint32_t, tmpTensor2Size)
    ASCENDCRAFT_EMU_TF(uint32_t, lastDimValueBack) ASCENDCRAFT_EMU_TF(uint32_t, lastDimValueBackMulTwo)
    ASCENDCRAFT_EMU_TILING_END
};
// LayerNormGradBeta's tiling.
struct LayerNormGradBetaTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, stackBufferSize) ASCENDCRAFT_EMU_TF(uint32_t, bLength)
    ASCENDCRAFT_EMU_TF(uint32_t, sLength) ASCENDCRAFT_EMU_TF(uint32_t, hLength)
    ASCENDCRAFT_EMU_TF(uint32_t, originalHLength) ASCENDCRAFT_EMU_TF(uint32_t, bshLength)
    ASCENDCRAFT_EMU_TF(uint32_t, bsLength) ASCENDCRAFT_EMU_TF(uint32_t, oneCalSize)
    ASCENDCRAFT_EMU_TF(uint32_t, numberOfTmpBuf) ASCENDCRAFT_EMU_TF(uint32_t, loopRound)
    ASCENDCRAFT_EMU_TF(uint32_t, inputTailSize) ASCENDCRAFT_EMU_TF(uint32_t, inputTailPos)
    ASCENDCRAFT_EMU_TF(uint32_t, bsTailSize) ASCENDCRAFT_EMU_TF(uint32_t, bshCurLength)
    ASCENDCRAFT_EMU_TF(uint32_t, bsCurLength) ASCENDCRAFT_EMU_TF(uint32_t, gammaTempTensorPos)
    ASCENDCRAFT_EMU_TF(uint32_t, betaTempTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, inputDyTmpTensorPos)
    ASCENDCRAFT_EMU_TF(uint32_t, resForGammaTmpTensorPos) ASCENDCRAFT_EMU_TF(uint32_t, reserved)
    ASCENDCRAFT_EMU_TILING_END
};
struct RmsNormTiling {
    ASCENDCRAFT_EMU_TF(uint32_t, bLength) ASCENDCRAFT_EMU_TF(uint32_t, sLength) ASCENDCRAFT_EMU_TF(uint32_t, hLength)
    ASCENDCRAFT_EMU_TF(uint32_t, originalHLength) ASCENDCRAFT_EMU_TF(float, reciprocalOfHLength)
    ASCENDCRAFT_EMU_TF(uint32_t, mainBshLength) ASCENDCRAFT_EMU_TF(uint32_t, mainBsLength)
    ASCENDCRAFT_EMU_TF(uint32_t, mainBsLengthAlign) ASCENDCRAFT_EMU_TF(uint32_t, loopRound)
    ASCENDCRAFT_EMU_TF(uint32_t, inputTailPos) ASCENDCRAFT_EMU_TF(uint32_t, tailBshLength)
    ASCENDCRAFT_EMU_TF(uint32_t, tailBsLength)
    ASCENDCRAFT_EMU_TILING_END
};
// LogSoftMax's tiling: SoftMax's fields, its own type.
struct LogSoftMaxTiling : SoftMaxTiling {};
}}  // namespace AscendC::tiling
#undef ASCENDCRAFT_EMU_TF
#undef ASCENDCRAFT_EMU_TILING_END

// As CANN has them: the kernel sees the structs at global scope, the host in optiling.
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::RmsNormTiling;
namespace optiling {
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::RmsNormTiling;
}  // namespace optiling

