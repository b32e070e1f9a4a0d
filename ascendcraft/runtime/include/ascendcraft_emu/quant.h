// AscendCraft CPU emulation: the quantisation advanced APIs of lib/quantization in their Ascend 910B (A2) forms.
// - AscendQuant: half / float -> int8_t, dst = round_half_even(src * scale + offset) saturated to int8, computed in
//   half as A2 does (a float source, scale and offset are first rounded to half); per tensor (scalar scale and offset)
//   or per channel (a scale tensor of scaleCount elements, element i takes scale[i % scaleCount]; the offset a scalar
//   or a tensor of offsetCount = scaleCount elements).
// - AscendDequant: int32_t -> half / float / bfloat16_t, dst = float(src) * float(deqScale) rounded to dstT, row by
//   row of a [m, n] source (DequantParams; the first calCount elements of each row, dst rows padded to 32 bytes), with
//   the DEQUANT_WITH_SINGLE_ROW reshaping of {1, n, calCount}; deqScale a tensor (uint64_t: its low 32 bits are a
//   float; float; bfloat16_t) or a scalar.
// - AscendAntiQuant: int8_t -> half / bfloat16_t, dst = scale * (src + offset), per tensor (scalars) or per channel
//   (offset / scale tensors of shape [h, N], or [N, w] when isTranspose, from AntiQuantShapeInfo or the tensors'
//   SetShapeInfo); half computes in half, bfloat16_t in float.
// The documented A2 dtype combinations are compile-time checks; shapes and counts are checked at run time.
// Signatures and rules from the public AscendC API reference; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
struct QuantCall {
    Dt src_dt = Dt::none, dst_dt = Dt::none, scale_dt = Dt::none;
    const Local* dst = nullptr;
    const Local* src = nullptr;
    const Local* scale = nullptr;    // nullptr: scale_s
    const Local* offset = nullptr;   // nullptr: offset_s
    const Local* tmp = nullptr;      // nullptr: the framework allocates
    double scale_s = 1, offset_s = 0;
    bool has_offset = true;
    uint64_t count = 0;              // AscendQuant: calCount
    uint32_t scale_count = 0, offset_count = 0;
    // AscendDequant: [m, n], calCount per row, `total` elements at most (the calCount forms), the single-row mode
    uint32_t m = 0, n = 0, row_count = 0;
    uint64_t total = 0;
    bool single_row = true;
    // AscendAntiQuant: k, isTranspose, the offset / scale shapes
    uint32_t k = 0;
    bool transpose = false;
    uint32_t off_h = 0, off_w = 0, scale_h = 0, scale_w = 0;
};
void adv_quant(const QuantCall& c, SrcLoc loc);
void adv_dequant(const QuantCall& c, SrcLoc loc);
void adv_antiquant(const QuantCall& c, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn, const uint32_t scaleCountIn,
                                const uint32_t workLocalSizeIn)
        : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn), workLocalSize(workLocalSizeIn) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
#ifndef ASCENDCRAFT_DEQUANT_MODE
#define ASCENDCRAFT_DEQUANT_MODE
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
#endif
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

namespace quant_detail {
template <typename T, const AscendQuantConfig& config>
inline void quant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                  const LocalTensor<T>* scale, const LocalTensor<T>* offset, double scale_s, double offset_s,
                  uint32_t scaleCount, uint32_t offsetCount, uint64_t calCount, SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, float>::value,
                  "AscendQuant on Ascend 910B (A2) quantises half and float to int8_t only");
    ascendcraft::emu::QuantCall c;
    c.src_dt = ascendcraft::emu::dt_of<T>();
    c.dst_dt = ascendcraft::emu::Dt::i8;
    c.dst = &dst.emu();
    c.src = &src.emu();
    if (tmp) c.tmp = &tmp->emu();
    if (scale) c.scale = &scale->emu();
    if (offset) c.offset = &offset->emu();
    c.scale_s = scale_s;
    c.offset_s = offset_s;
    c.count = calCount ? calCount : (config.calcCount ? config.calcCount : src.GetSize());
    c.scale_count = scaleCount ? scaleCount : (config.scaleCount ? config.scaleCount : (scale ? scale->GetSize() : 0));
    c.offset_count = offsetCount ? offsetCount : (config.offsetCount ? config.offsetCount : (offset ? offset->GetSize() : 0));
    ascendcraft::emu::adv_quant(c, loc);
}
template <typename T> inline double scalar(T v) { return static_cast<double>(static_cast<float>(v)); }
}  // namespace quant_detail

// ---- AscendQuant, per tensor ------------------------------------------------------------------------------
#define ASCENDCRAFT_EMU_QUANT_T template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                        const uint32_t calCount, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, nullptr, nullptr, scale, offset, 0, 0, calCount, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, const uint32_t calCount, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, nullptr, nullptr, nullptr, scale, offset, 0, 0, calCount, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, nullptr, nullptr, scale, offset, 0, 0, 0, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, nullptr, nullptr, nullptr, scale, offset, 0, 0, 0, loc);
}
// ---- AscendQuant, per channel: a scale tensor, the offset a scalar ------------------------------------------
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
                        const uint32_t scaleCount, const uint32_t calCount, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, &scaleTensor, nullptr, 1, quant_detail::scalar(offset),
                                   scaleCount, 0, calCount, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                        const T offset, const uint32_t scaleCount, const uint32_t calCount, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, nullptr, &scaleTensor, nullptr, 1, quant_detail::scalar(offset),
                                   scaleCount, 0, calCount, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
                        SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, &scaleTensor, nullptr, 1, quant_detail::scalar(offset),
                                   0, 0, 0, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                        const T offset, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, nullptr, &scaleTensor, nullptr, 1, quant_detail::scalar(offset), 0, 0, 0,
                                   loc);
}
// ---- AscendQuant, per channel: scale and offset tensors ----------------------------------------------------
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                        const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                        const uint32_t calCount, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, &scaleTensor, &offsetTensor, 1, 0, scaleCount,
                                   offsetCount, calCount, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                        const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                        const uint32_t calCount, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, nullptr, &scaleTensor, &offsetTensor, 1, 0, scaleCount, offsetCount,
                                   calCount, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                        const LocalTensor<T>& offsetTensor, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, &scaleTensor, &offsetTensor, 1, 0, 0, 0, 0, loc);
}
ASCENDCRAFT_EMU_QUANT_T
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& scaleTensor,
                        const LocalTensor<T>& offsetTensor, SrcLoc loc = {}) {
    quant_detail::quant<T, config>(dstTensor, srcTensor, nullptr, &scaleTensor, &offsetTensor, 1, 0, 0, 0, 0, loc);
}
#undef ASCENDCRAFT_EMU_QUANT_T

// ---- AscendDequant ------------------------------------------------------------------------------------------
namespace dequant_detail {
template <typename dstT, typename scaleT, bool isTensor> constexpr bool valid() {
    // A2: a deqScale tensor of uint64_t -> half, float -> float, bfloat16_t -> float, bfloat16_t -> bfloat16_t,
    // float -> bfloat16_t; a scalar bfloat16_t or float -> bfloat16_t or float.
    return isTensor ? ((std::is_same<scaleT, uint64_t>::value && std::is_same<dstT, half>::value) ||
                       (std::is_same<scaleT, float>::value && std::is_same<dstT, float>::value) ||
                       (std::is_same<scaleT, bfloat16_t>::value && std::is_same<dstT, float>::value) ||
                       (std::is_same<scaleT, bfloat16_t>::value && std::is_same<dstT, bfloat16_t>::value) ||
                       (std::is_same<scaleT, float>::value && std::is_same<dstT, bfloat16_t>::value))
                    : ((std::is_same<scaleT, bfloat16_t>::value || std::is_same<scaleT, float>::value) &&
                       (std::is_same<dstT, bfloat16_t>::value || std::is_same<dstT, float>::value));
}
template <typename dstT, typename scaleT, DeQuantMode mode>
inline void call(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src, const LocalTensor<scaleT>* scale, double scale_s,
                 const LocalTensor<uint8_t>* tmp, uint32_t m, uint32_t n, uint32_t rowCount, uint64_t total, SrcLoc loc) {
    ascendcraft::emu::QuantCall c;
    c.src_dt = ascendcraft::emu::Dt::i32;
    c.dst_dt = ascendcraft::emu::dt_of<dstT>();
    c.scale_dt = ascendcraft::emu::dt_of<scaleT>();
    c.dst = &dst.emu();
    c.src = &src.emu();
    if (scale) c.scale = &scale->emu();
    c.scale_s = scale_s;
    if (tmp) c.tmp = &tmp->emu();
    c.m = m; c.n = n; c.row_count = rowCount; c.total = total;
    c.single_row = mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW;
    ascendcraft::emu::adv_dequant(c, loc);
}
// The forms without DequantParams: [size / deqScale size, deqScale size] rows, every element of a row.
template <typename dstT, typename scaleT, DeQuantMode mode>
inline void flat(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src, const LocalTensor<scaleT>& scale,
                 const LocalTensor<uint8_t>* tmp, uint64_t total, SrcLoc loc) {
    const uint32_t s = scale.GetSize();
    call<dstT, scaleT, mode>(dst, src, &scale, 0, tmp, s ? src.GetSize() / s : 0, s, s, total, loc);
}
}  // namespace dequant_detail

#define ASCENDCRAFT_EMU_DEQUANT_T template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
#define ASCENDCRAFT_EMU_DEQUANT_CHECK(TENSOR)                                                                       \
    static_assert(dequant_detail::valid<dstT, scaleT, TENSOR>(),                                                    \
                  "AscendDequant on Ascend 910B (A2): a deqScale tensor of uint64_t gives half; float gives float or " \
                  "bfloat16_t; bfloat16_t gives float or bfloat16_t; a scalar deqScale (bfloat16_t or float) gives "   \
                  "bfloat16_t or float; the source is int32_t")
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          DequantParams params, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(true);
    dequant_detail::call<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer, params.m, params.n,
                                             params.calCount, uint64_t(params.m) * params.n, loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, DequantParams params, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(true);
    dequant_detail::call<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0, nullptr, params.m, params.n, params.calCount,
                                             uint64_t(params.m) * params.n, loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          const uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(true);
    dequant_detail::flat<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, calCount, loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const uint32_t calCount, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(true);
    dequant_detail::flat<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, calCount, loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(true);
    dequant_detail::flat<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, srcTensor.GetSize(), loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(true);
    dequant_detail::flat<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, srcTensor.GetSize(), loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(false);
    dequant_detail::call<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, quant_detail::scalar(deqScale), &sharedTmpBuffer,
                                             params.m, params.n, params.calCount, uint64_t(params.m) * params.n, loc);
}
ASCENDCRAFT_EMU_DEQUANT_T
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                          DequantParams params, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_DEQUANT_CHECK(false);
    dequant_detail::call<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, quant_detail::scalar(deqScale), nullptr, params.m,
                                             params.n, params.calCount, uint64_t(params.m) * params.n, loc);
}
#undef ASCENDCRAFT_EMU_DEQUANT_CHECK
#undef ASCENDCRAFT_EMU_DEQUANT_T

// ---- AscendAntiQuant ----------------------------------------------------------------------------------------
namespace antiquant_detail {
// [h, w] of an offset / scale tensor: AntiQuantShapeInfo's when set, else the tensor's SetShapeInfo, else one row
// (one column with isTranspose) of its elements.
template <typename T>
inline void shape_of(const LocalTensor<T>& t, uint32_t h, uint32_t w, bool transpose, uint32_t& oh, uint32_t& ow) {
    if (h && w) { oh = h; ow = w; return; }
    const ShapeInfo si = t.GetShapeInfo();
    if (si.shapeDim >= 2) { oh = si.shape[0]; ow = si.shape[1]; return; }
    const uint32_t n = si.shapeDim == 1 ? si.shape[0] : t.GetSize();
    if (transpose) { oh = n; ow = 1; } else { oh = 1; ow = n; }
}
template <typename In, typename Out, bool isTranspose>
inline void call(const LocalTensor<Out>& dst, const LocalTensor<In>& src, const LocalTensor<Out>* offset,
                 const LocalTensor<Out>* scale, double offset_s, double scale_s, bool has_offset,
                 const LocalTensor<uint8_t>* tmp, uint32_t k, const AntiQuantShapeInfo& info, SrcLoc loc) {
    static_assert(std::is_same<In, int8_t>::value, "AscendAntiQuant on Ascend 910B (A2): the emulated source type is int8_t");
    static_assert(ascendcraft::emu::OneOf<Out, half, bfloat16_t>::value,
                  "AscendAntiQuant on Ascend 910B (A2) outputs half or bfloat16_t (offset and scale of the same type)");
    ascendcraft::emu::QuantCall c;
    c.src_dt = ascendcraft::emu::Dt::i8;
    c.dst_dt = c.scale_dt = ascendcraft::emu::dt_of<Out>();
    c.dst = &dst.emu();
    c.src = &src.emu();
    if (tmp) c.tmp = &tmp->emu();
    c.has_offset = has_offset;
    c.offset_s = offset_s;
    c.scale_s = scale_s;
    c.k = k;
    c.transpose = isTranspose;
    if (offset) {
        c.offset = &offset->emu();
        shape_of(*offset, info.offsetHeight, info.offsetWidth, isTranspose, c.off_h, c.off_w);
    }
    if (scale) {
        c.scale = &scale->emu();
        shape_of(*scale, info.scaleHeight, info.scaleWidth, isTranspose, c.scale_h, c.scale_w);
    }
    ascendcraft::emu::adv_antiquant(c, loc);
}
}  // namespace antiquant_detail

#define ASCENDCRAFT_EMU_ANTIQUANT_T template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDCRAFT_EMU_ANTIQUANT_T
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    antiquant_detail::call<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, 0, 1, true, &sharedTmpBuffer, k,
                                                                       shapeInfo, loc);
}
ASCENDCRAFT_EMU_ANTIQUANT_T
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    antiquant_detail::call<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, &scale, 0, 1, false, &sharedTmpBuffer,
                                                                       k, shapeInfo, loc);
}
ASCENDCRAFT_EMU_ANTIQUANT_T
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    antiquant_detail::call<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, 0, 1, true, nullptr, k,
                                                                       shapeInfo, loc);
}
ASCENDCRAFT_EMU_ANTIQUANT_T
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    antiquant_detail::call<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, nullptr, quant_detail::scalar(offset), quant_detail::scalar(scale), true, &sharedTmpBuffer, k,
        shapeInfo, loc);
}
ASCENDCRAFT_EMU_ANTIQUANT_T
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    antiquant_detail::call<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, 0, quant_detail::scalar(scale),
                                                                       false, &sharedTmpBuffer, k, shapeInfo, loc);
}
ASCENDCRAFT_EMU_ANTIQUANT_T
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}, SrcLoc loc = {}) {
    antiquant_detail::call<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, nullptr, quant_detail::scalar(offset), quant_detail::scalar(scale), true, nullptr, k, shapeInfo, loc);
}
#undef ASCENDCRAFT_EMU_ANTIQUANT_T
}  // namespace AscendC
