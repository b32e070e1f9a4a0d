// AscendCraft CPU emulation: the row-wise normalisation advanced APIs and the tiling structs their host
// functions fill: SoftMax, SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2 (SoftMaxTiling, SoftMaxShapeInfo),
// LayerNorm in its [B,S,H] (LayerNormTiling) and [A,R] (LayerNormPara, LayerNormSeparateTiling) forms, RmsNorm
// (RmsNormTiling); plus the Log family and GetReduceMaxMinCount. Each row is computed in double and rounded
// to the operand types; the documented rules are checked: half / float only, a 32-byte aligned last axis,
// statistics tensors of one 32-byte block per row, no overlap where the API forbids it, free UB for the
// framework-allocated temporaries. Signatures and rules from the public AscendC API reference; no vendor code.
#pragma once

#include <cstdint>
#include <cstring>

#include "math.h"
#include "pipe.h"
#include "vector.h"
#include "tensor.h"

#include "norm_tiling_data.h"

namespace ascendcraft { namespace emu {
// One call of a normalisation API as the runtime sees it. Statistics tensors hold `stat_stride` elements per
// row (one 32-byte block, or 1 for the unbroadcast forms); rows are `row_stride` elements apart.
struct NormCall {
    Op op = Op::SoftMax;
    Dt dt = Dt::none;       // dst / src
    Dt stat_dt = Dt::none;  // sum / max / mean / variance
    Dt aux_dt = Dt::none;   // expMax (SoftmaxFlash*), gamma / beta (LayerNorm, RmsNorm)
    const Local* dst = nullptr;
    const Local* src = nullptr;
    const Local* sum = nullptr;       // SoftMax: sum out; SimpleSoftMax / Flash: inSum; LayerNorm: variance / rstd
    const Local* max = nullptr;       // SoftMax: max out; SimpleSoftMax: inMax; LayerNorm: mean
    const Local* exp_max = nullptr;   // Flash: expMax out
    const Local* in_sum = nullptr;    // Flash: inSum / inExpSum
    const Local* in_max = nullptr;    // Flash: inMax
    const Local* reduce_max = nullptr;  // FlashV2 10-argument form: the row max of src alone
    const Local* gamma = nullptr;
    const Local* beta = nullptr;
    const Local* tmp = nullptr;       // sharedTmpBuffer, nullptr: the framework allocates
    uint32_t rows = 0, row_stride = 0, cols = 0;  // cols: the valid (original) length of a row
    uint32_t stat_stride = 0;
    bool update = false;              // SoftmaxFlash(V2) isUpdate
    bool rstd = true;                 // LayerNorm [A,R]: rstd (true) or variance (false)
    bool no_gamma = false, no_beta = false, only_output = false;
    double eps = 0;
};
void vec_norm(const NormCall& call, SrcLoc loc);
// A normalisation shape that breaks a documented rule (the API and the hint name the fix).
[[noreturn]] void norm_shape_error(Op op, const char* what, const char* hint, SrcLoc loc);
// The value and index that the last ReduceMax / ReduceMin / WholeReduceMax / WholeReduceMin left in the
// special register (index: of the element, from the start of the source).
void reduce_maxmin_result(Dt dt, uint8_t* value, uint8_t* index, uint32_t index_bytes, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                            const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};
// The softmax implementation's shape of a last-axis reduction (original and padded source rows / columns, the result's
// rows / columns): plain aggregates in namespace AscendC, which kernels name (ops-nn weight_quant_batch_matmul_v2).
struct ReduceLastND {
    uint32_t originalSrcM;
    uint32_t originalSrcK;
    uint32_t srcM;
    uint32_t srcK;
    uint32_t dstM;
    uint32_t dstK;
};
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

namespace detail_norm {
// The [M, K] shape: the shape info when it is given, else the tiling's; K is the valid length of a row.
inline void softmax_shape(ascendcraft::emu::NormCall& c, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info, const SoftmaxConfig& cfg,
                          uint32_t stat_bytes) {
    c.rows = info.srcM ? info.srcM : tiling.srcM;
    c.row_stride = info.srcK ? info.srcK : tiling.srcK;
    c.cols = info.oriSrcK ? info.oriSrcK : (cfg.oriSrcK ? cfg.oriSrcK : c.row_stride);
    c.stat_stride = cfg.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC ? 1 : 32 / stat_bytes;
}
}  // namespace detail_norm

// ---- SoftMax: dst = exp(x - rowmax) / rowsum, with the row max and sum as outputs (or not) -------------
#define ASCENDCRAFT_EMU_SOFTMAX_CHECK(API) ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float)
template <typename T, typename U, bool isDataFormatNZ, const SoftmaxConfig& config>
inline void softmax_call(ascendcraft::emu::Op op, const LocalTensor<T>& dst, const LocalTensor<U>* sum, const LocalTensor<U>* max,
                         const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                         const SoftMaxShapeInfo& info, SrcLoc loc) {
    if (isDataFormatNZ)
        ascendcraft::emu::norm_shape_error(op, "the NZ data format (isDataFormatNZ = true) is outside the emulated subset",
                                           "lay the rows out in ND (the default)", loc);
    ascendcraft::emu::NormCall c;
    c.op = op;
    c.dt = ascendcraft::emu::dt_of<T>();
    c.stat_dt = ascendcraft::emu::dt_of<U>();
    c.dst = &dst.emu();
    c.src = &src.emu();
    if (sum) c.sum = &sum->emu();
    if (max) c.max = &max->emu();
    if (tmp) c.tmp = &tmp->emu();
    detail_norm::softmax_shape(c, tiling, info, config, sizeof(U));
    ascendcraft::emu::vec_norm(c, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftMax);
    softmax_call<T, T, isDataFormatNZ, config>(ascendcraft::emu::Op::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                                               nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                    const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    SrcLoc loc = {}) {
    softmax_call<half, float, isDataFormatNZ, config>(ascendcraft::emu::Op::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                                                      nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftMax);
    softmax_call<T, T, isDataFormatNZ, config>(ascendcraft::emu::Op::SoftMax, dstTensor, nullptr, nullptr, srcTensor, nullptr,
                                               tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftMax);
    softmax_call<T, T, isDataFormatNZ, config>(ascendcraft::emu::Op::SoftMax, dstTensor, nullptr, nullptr, srcTensor,
                                               &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftMax);
    softmax_call<T, T, isDataFormatNZ, config>(ascendcraft::emu::Op::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                                               &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                    const LocalTensor<half>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    softmax_call<half, float, isDataFormatNZ, config>(ascendcraft::emu::Op::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                                                      &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// ---- LogSoftMax: dst = log10(softmax(x)) per row (base 10, as the API reference gives it), with the row max and the row sum of exp(x - max) as outputs ----
// A2 recomputes its own split of the rows from the shape (the LogSoftMaxTiling argument is not read), so only the
// SoftMaxShapeInfo (or the source's ShapeInfo) gives the [M, K] shape here too.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                       const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(LogSoftMax);
    SoftMaxTiling shape;
    shape.srcM = softmaxShapeInfo.srcM ? softmaxShapeInfo.srcM : tiling.srcM;
    shape.srcK = softmaxShapeInfo.srcK ? softmaxShapeInfo.srcK : tiling.srcK;
    if (!shape.srcM || !shape.srcK) {
        const ShapeInfo si = src.GetShapeInfo();
        if (si.shapeDim >= 2) {
            shape.srcK = si.shape[si.shapeDim - 1];
            shape.srcM = 1;
            for (int i = 0; i + 1 < si.shapeDim; ++i) shape.srcM *= si.shape[i];
        }
    }
    const LocalTensor<uint8_t>* tmp = sharedTmpBuffer.GetSize() ? &sharedTmpBuffer : nullptr;
    softmax_call<T, T, isDataFormatNZ, SOFTMAX_DEFAULT_CFG>(ascendcraft::emu::Op::LogSoftMax, dst, &sumTensor, &maxTensor, src,
                                                            tmp, shape, softmaxShapeInfo, loc);
}

// ---- AdjustSoftMaxRes: rows whose max has the bit pattern `from` get every element of the result set to `to` -------
// The row max is read every 32 bytes (one broadcast block per row), or every element with stepSizeMode != 0; for half
// maxima the low 16 bits of `from` are compared. Returns whether any row was adjusted.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                             const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(AdjustSoftMaxRes, "half and float", T1, half, float);
    ASCENDCRAFT_EMU_TYPES_CHECK(AdjustSoftMaxRes, "half and float", T2, half, float);
    const event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
    const uint32_t step = stepSizeMode ? 1u : static_cast<uint32_t>(32 / sizeof(T2));
    const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
    bool adjusted = false;
    for (uint32_t j = 0; j < m; ++j) {
        const T2 v = maxTensor.GetValue(j * step);
        bool hit;
        if (sizeof(T2) == 4) { uint32_t bits; std::memcpy(&bits, &v, 4); hit = bits == from; }
        else { uint16_t bits; std::memcpy(&bits, &v, 2); hit = bits == static_cast<uint16_t>(from); }
        if (!hit) continue;
        adjusted = true;
        if (isDataFormatNZ) {
            for (uint32_t b = 0; b < k / 16; ++b) Duplicate(softMaxRes[j * 16 + b * m * 16], to, 16, loc);
        } else {
            Duplicate(softMaxRes[j * k], to, static_cast<int32_t>(k), loc);
        }
    }
    return adjusted;
}

// ---- SimpleSoftMax: dst = exp(x - inMax) / inSum with given row statistics -----------------------------
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                          const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SimpleSoftMax);
    softmax_call<T, T, isDataFormatNZ, config>(ascendcraft::emu::Op::SimpleSoftMax, dstTensor, &inSumTensor, &inMaxTensor,
                                               srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                          const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    softmax_call<half, float, isDataFormatNZ, config>(ascendcraft::emu::Op::SimpleSoftMax, dstTensor, &inSumTensor,
                                                      &inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                          const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SimpleSoftMax);
    softmax_call<T, T, isDataFormatNZ, config>(ascendcraft::emu::Op::SimpleSoftMax, dstTensor, &inSumTensor, &inMaxTensor,
                                               srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                          const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    softmax_call<half, float, isDataFormatNZ, config>(ascendcraft::emu::Op::SimpleSoftMax, dstTensor, &inSumTensor,
                                                      &inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// ---- SoftmaxFlashV2's tiling made on the device, for a block whose shape is known only there -----------------
// SoftMaxFlashV2TilingFuncImpl takes the temporary space in float elements, SoftMaxFlashV2TilingFunc (the kernel's
// SoftMaxShapeInfo form) in bytes. The shape fields are exact (the emulation reads srcM / srcK when no shape info is
// passed); the row split is the rows whose float temporaries fit (a broadcast block, the row again for a 2-byte
// source, one 64-element repeat), a multiple of 8 rows (16 for a half source with isFlashOutputBrc) when it splits,
// which the emulation, computing whole rows, does not read. A split of zero rows leaves rangeM at 0.
inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK, const uint32_t dataTypeSize1,
                                                            const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                            const bool isUpdate = false, const bool isBasicBlock = false,
                                                            const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate; (void)isBasicBlock; (void)isDataFormatNZ;
    SoftMaxTiling t;
    const uint32_t blk = dataTypeSize2 ? 32 / dataTypeSize2 : 8;
    const uint32_t perRow = blk + (dataTypeSize1 == 2 ? blk + srcK : 0) + 64;
    const uint32_t unit = (isFlashOutputBrc && dataTypeSize1 == 2) ? 16 : 8;
    uint32_t rows = localWorkSpaceSize / perRow;
    if (rows < srcM && rows > unit) rows = rows / unit * unit;
    if (rows > srcM) rows = srcM;
    t.srcM = srcM; t.srcK = srcK; t.srcSize = srcM * srcK;
    t.outMaxM = srcM; t.outMaxK = blk; t.outMaxSize = srcM * blk;
    t.reduceM = rows; t.reduceK = blk; t.reduceSize = rows * blk;
    t.splitM = rows; t.splitK = srcK; t.splitSize = rows * srcK;
    t.rangeM = rows ? srcM / rows : 0;
    t.tailM = rows ? srcM % rows : srcM;
    t.tailSplitSize = t.tailM * srcK; t.tailReduceSize = t.tailM * blk;
    return t;
}
inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                        const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                        const bool isUpdate = false, const bool isBasicBlock = false,
                                                        const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    return SoftMaxFlashV2TilingFuncImpl(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2, localWorkSpaceSize / 4,
                                        isUpdate, isBasicBlock, isDataFormatNZ, isFlashOutputBrc);
}

// ---- SoftmaxFlash (FlashAttention-1 update) and SoftmaxFlashV2 (FlashAttention-2 update) ------------------
template <typename T, typename U, typename E>
inline void flash_call(ascendcraft::emu::Op op, bool update, bool brc, const LocalTensor<T>& dst, const LocalTensor<U>* reduceMax,
                       const LocalTensor<U>& sum, const LocalTensor<U>& max, const LocalTensor<T>& src, const LocalTensor<E>& expMax,
                       const LocalTensor<U>& inSum, const LocalTensor<U>& inMax, const LocalTensor<uint8_t>* tmp,
                       const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info, const SoftmaxConfig& cfg, bool nz, SrcLoc loc) {
    if (nz)
        ascendcraft::emu::norm_shape_error(op, "the NZ data format (isDataFormatNZ = true) is outside the emulated subset",
                                           "lay the rows out in ND (the default)", loc);
    ascendcraft::emu::NormCall c;
    c.op = op;
    c.update = update;
    c.dt = ascendcraft::emu::dt_of<T>();
    c.stat_dt = ascendcraft::emu::dt_of<U>();
    c.aux_dt = ascendcraft::emu::dt_of<E>();
    c.dst = &dst.emu();
    c.src = &src.emu();
    c.sum = &sum.emu();
    c.max = &max.emu();
    c.exp_max = &expMax.emu();
    c.in_sum = &inSum.emu();
    c.in_max = &inMax.emu();
    if (reduceMax) c.reduce_max = &reduceMax->emu();
    if (tmp) c.tmp = &tmp->emu();
    detail_norm::softmax_shape(c, tiling, info, cfg, sizeof(U));
    // no SoftMaxShapeInfo: the source's ShapeInfo (SetShapeInfo) gives [M, K] (the leading axes' product, the last) and
    // the original K, and with isCheckTiling (the default configuration) a tiling that does not fit it is made again on
    // the device, as the API does (ops-transformer FlashAttentionScore passes a zeroed SoftMaxTiling, the shape set)
    const ShapeInfo si = src.GetShapeInfo();
    if ((!info.srcM || !info.srcK) && si.shapeDim >= 1) {
        if (cfg.isCheckTiling) {
            c.rows = 1;
            for (int i = 0; i + 1 < si.shapeDim; ++i) c.rows *= si.shape[i];
            c.row_stride = si.shape[si.shapeDim - 1];
        }
        c.cols = si.originalShapeDim >= 1 ? si.originalShape[si.originalShapeDim - 1] : c.row_stride;
    }
    if (!brc) c.stat_stride = 1;
    ascendcraft::emu::vec_norm(c, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                         const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                         const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftmaxFlash);
    flash_call<T, T, T>(ascendcraft::emu::Op::SoftmaxFlash, isUpdate, true, dstTensor, nullptr, sumTensor, maxTensor, srcTensor,
                        expMaxTensor, inSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, false, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                         const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
                         const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                         bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    flash_call<half, float, half>(ascendcraft::emu::Op::SoftmaxFlash, isUpdate, true, dstTensor, nullptr, sumTensor, maxTensor,
                                  srcTensor, expMaxTensor, inSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo,
                                  SOFTMAX_DEFAULT_CFG, false, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                         const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                         const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                         bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftmaxFlash);
    flash_call<T, T, T>(ascendcraft::emu::Op::SoftmaxFlash, isUpdate, true, dstTensor, nullptr, sumTensor, maxTensor, srcTensor,
                        expMaxTensor, inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG,
                        false, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                         const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
                         const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor,
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    flash_call<half, float, half>(ascendcraft::emu::Op::SoftmaxFlash, isUpdate, true, dstTensor, nullptr, sumTensor, maxTensor,
                                  srcTensor, expMaxTensor, inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                                  SOFTMAX_DEFAULT_CFG, false, loc);
}

#define ASCENDCRAFT_EMU_FLASHV2_TEMPLATE                                                                      \
    template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,       \
              bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define ASCENDCRAFT_EMU_FLASHV2_BRC (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC)
ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                           const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftmaxFlashV2);
    flash_call<T, T, T>(ascendcraft::emu::Op::SoftmaxFlashV2, isUpdate, ASCENDCRAFT_EMU_FLASHV2_BRC, dstTensor, nullptr,
                        expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, tiling,
                        softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                           const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                           const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                           const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    flash_call<half, float, half>(ascendcraft::emu::Op::SoftmaxFlashV2, isUpdate, ASCENDCRAFT_EMU_FLASHV2_BRC, dstTensor, nullptr,
                                  expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, tiling,
                                  softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                           const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftmaxFlashV2);
    flash_call<T, T, T>(ascendcraft::emu::Op::SoftmaxFlashV2, isUpdate, ASCENDCRAFT_EMU_FLASHV2_BRC, dstTensor, nullptr,
                        expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                        softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                           const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                           const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                           const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    flash_call<half, float, half>(ascendcraft::emu::Op::SoftmaxFlashV2, isUpdate, ASCENDCRAFT_EMU_FLASHV2_BRC, dstTensor, nullptr,
                                  expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer,
                                  tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
// The forms that also output the row max of src alone (outReduceMax).
ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,
                           const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                           const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftmaxFlashV2);
    flash_call<T, T, T>(ascendcraft::emu::Op::SoftmaxFlashV2, isUpdate, ASCENDCRAFT_EMU_FLASHV2_BRC, dstTensor, &outReduceMax,
                        outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, nullptr, tiling, softmaxShapeInfo, config,
                        isDataFormatNZ, loc);
}
ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,
                           const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                           const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_SOFTMAX_CHECK(SoftmaxFlashV2);
    flash_call<T, T, T>(ascendcraft::emu::Op::SoftmaxFlashV2, isUpdate, ASCENDCRAFT_EMU_FLASHV2_BRC, dstTensor, &outReduceMax,
                        outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                        config, isDataFormatNZ, loc);
}
#undef ASCENDCRAFT_EMU_FLASHV2_TEMPLATE
#undef ASCENDCRAFT_EMU_FLASHV2_BRC
#undef ASCENDCRAFT_EMU_SOFTMAX_CHECK

// ---- LayerNorm [B, S, H]: y = (x - mean) / sqrt(var + eps) * gamma + beta, mean and variance per row --------
template <typename T>
inline void layernorm_bsh(const LocalTensor<T>& output, const LocalTensor<T>& mean, const LocalTensor<T>& variance,
                          const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                          const LocalTensor<uint8_t>* tmp, T epsilon, const LayerNormTiling& tiling, SrcLoc loc) {
    ascendcraft::emu::NormCall c;
    c.op = ascendcraft::emu::Op::LayerNorm;
    c.dt = c.stat_dt = c.aux_dt = ascendcraft::emu::dt_of<T>();
    c.dst = &output.emu();
    c.src = &x.emu();
    c.max = &mean.emu();
    c.sum = &variance.emu();
    c.gamma = &gamma.emu();
    c.beta = &beta.emu();
    if (tmp) c.tmp = &tmp->emu();
    c.rows = tiling.bLength * tiling.sLength;
    c.row_stride = tiling.hLength;
    c.cols = tiling.originalHLength ? tiling.originalHLength : tiling.hLength;
    c.stat_stride = 1;
    c.rstd = false;
    c.eps = static_cast<float>(epsilon);
    ascendcraft::emu::vec_norm(c, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(LayerNorm, "half and float", T, half, float);
    layernorm_bsh<T>(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon, tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                      LayerNormTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(LayerNorm, "half and float", T, half, float);
    layernorm_bsh<T>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, epsilon, tiling, loc);
}

// ---- LayerNorm [A, R]: float mean and rstd (or variance) per row; gamma / beta of type U ------------------
template <typename U, typename T, const LayerNormConfig& config>
inline void layernorm_ar(const LocalTensor<T>& output, const LocalTensor<float>& mean, const LocalTensor<float>& rstd,
                         const LocalTensor<T>& x, const LocalTensor<U>& gamma, const LocalTensor<U>& beta, float epsilon,
                         const LocalTensor<uint8_t>* tmp, const LayerNormPara& para, SrcLoc loc) {
    ascendcraft::emu::NormCall c;
    c.op = ascendcraft::emu::Op::LayerNorm;
    c.dt = ascendcraft::emu::dt_of<T>();
    c.stat_dt = ascendcraft::emu::Dt::f32;
    c.aux_dt = ascendcraft::emu::dt_of<U>();
    c.dst = &output.emu();
    c.src = &x.emu();
    if (!config.isOnlyOutput) {
        c.max = &mean.emu();
        c.sum = &rstd.emu();
    }
    if (!config.isNoGamma) c.gamma = &gamma.emu();
    if (!config.isNoBeta) c.beta = &beta.emu();
    c.no_gamma = config.isNoGamma;
    c.no_beta = config.isNoBeta;
    c.only_output = config.isOnlyOutput;
    c.rstd = config.isOutputRstd;
    if (tmp) c.tmp = &tmp->emu();
    c.rows = para.aLength;
    c.row_stride = para.rLengthWithPadding ? para.rLengthWithPadding : para.rLength;
    c.cols = para.rLength;
    c.stat_stride = 1;
    c.eps = epsilon;
    ascendcraft::emu::vec_norm(c, loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(LayerNorm, "half and float", T, half, float);
    ASCENDCRAFT_EMU_TYPES_CHECK(LayerNorm, "half and float", U, half, float);
    (void)tiling;
    layernorm_ar<U, T, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, &sharedTmpBuffer, para, loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(LayerNorm, "half and float", T, half, float);
    ASCENDCRAFT_EMU_TYPES_CHECK(LayerNorm, "half and float", U, half, float);
    (void)tiling;
    layernorm_ar<U, T, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, nullptr, para, loc);
}

// ---- RmsNorm [B, S, H]: y = x / sqrt(mean(x^2) + eps) * gamma -------------------------------------------
template <typename T>
inline void rmsnorm_call(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                         const LocalTensor<uint8_t>* tmp, T epsilon, const RmsNormTiling& tiling, SrcLoc loc) {
    ascendcraft::emu::NormCall c;
    c.op = ascendcraft::emu::Op::RmsNorm;
    c.dt = c.aux_dt = ascendcraft::emu::dt_of<T>();
    c.dst = &dst.emu();
    c.src = &src.emu();
    c.gamma = &gamma.emu();
    if (tmp) c.tmp = &tmp->emu();
    c.rows = tiling.bLength * tiling.sLength;
    c.row_stride = tiling.hLength;
    c.cols = tiling.originalHLength ? tiling.originalHLength : tiling.hLength;
    c.eps = static_cast<float>(epsilon);
    ascendcraft::emu::vec_norm(c, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(RmsNorm, "half and float", T, half, float);
    rmsnorm_call<T>(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(RmsNorm, "half and float", T, half, float);
    rmsnorm_call<T>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling, loc);
}

// ---- Log, Log2, Log10 (lib/math): natural, base-2 and base-10 logarithms; half and float ----------------
#define ASCENDCRAFT_EMU_LOG(API)                                                                                   \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount, SrcLoc loc = {}) { \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, "half and float", T, half, float);                                         \
        ascendcraft::emu::vec_math(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(), dstTensor.emu(),         \
                                   srcTensor.emu(), nullptr, {}, 0, nullptr, calCount, loc);                       \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                             \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, SrcLoc loc = {}) {            \
        API<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);                                     \
    }
ASCENDCRAFT_EMU_LOG(Log)
ASCENDCRAFT_EMU_LOG(Log2)
ASCENDCRAFT_EMU_LOG(Log10)
#undef ASCENDCRAFT_EMU_LOG
// Log2 also takes a sharedTmpBuffer (half needs one on the NPU).
template <typename T, bool isReuseSource = false>
inline void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_TYPES_CHECK(Log2, "half and float", T, half, float);
    ascendcraft::emu::vec_math(ascendcraft::emu::Op::Log2, ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(),
                               nullptr, {}, 0, &sharedTmpBuffer.emu(), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 SrcLoc loc = {}) {
    Log2<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}

// ---- GetReduceMaxMinCount / GetReduceRepeatMaxMinSpr: the last max/min reduction's value and index -------
// The index comes back in a T slot as its integer bits (uint16 for half, uint32 for float), as on the NPU.
template <typename T> inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "GetReduceMaxMinCount supports half and float");
    ascendcraft::emu::reduce_maxmin_result(ascendcraft::emu::dt_of<T>(), reinterpret_cast<uint8_t*>(&maxMinValue),
                                           reinterpret_cast<uint8_t*>(&maxMinIndex), sizeof(T), loc);
}
template <typename T> inline void GetReduceMaxMinCount(uint32_t& maxMinValue, uint32_t& maxMinIndex, SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value, "GetReduceMaxMinCount supports half and float");
    maxMinValue = 0;
    ascendcraft::emu::reduce_maxmin_result(ascendcraft::emu::dt_of<T>(), reinterpret_cast<uint8_t*>(&maxMinValue),
                                           reinterpret_cast<uint8_t*>(&maxMinIndex), 4, loc);
}
// The value alone (a reduction run with calIndex = false).
template <typename T> inline void GetReduceMaxMinCount(T& maxMinValue, SrcLoc loc = {}) {
    T index{};
    GetReduceMaxMinCount<T>(maxMinValue, index, loc);
}
template <typename T> inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex, SrcLoc loc = {}) {
    GetReduceMaxMinCount<T>(maxMinValue, maxMinIndex, loc);
}

}  // namespace AscendC
