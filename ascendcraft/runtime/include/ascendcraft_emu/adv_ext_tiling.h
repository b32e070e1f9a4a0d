// AscendCraft: the host-side temporary-size functions of the quantisation advanced APIs (quant.h), CumSum, Welford, Normalize, DeepNorm, LayerNormGrad(Beta) and TopK, as an op's TilingFunc
// or an example's host code calls them through tiling/tiling_api.h. The sizes follow the public API reference's rules:
// AscendQuant two 256-byte half repeats at least and two bytes per element at most; AscendDequant a float repeat plus
// one row (at least) or every row (at most) of float source and the scale; AscendAntiQuant none for half output, float
// intermediates for bfloat16_t. No vendor code.
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascendcraft_emu/topk_tiling_data.h"

namespace AscendC {
namespace quant_tiling_detail {
inline uint32_t elems(const ge::Shape& s) { return s.GetShapeSize() > 0 ? static_cast<uint32_t>(s.GetShapeSize()) : 0u; }
// AscendDequant: [outer, inner] of a 1-D ([1, n]) or 2-D source.
inline void outer_inner(const ge::Shape& s, uint32_t& outer, uint32_t& inner) {
    outer = s.GetDimNum() == 2 ? static_cast<uint32_t>(s.GetDim(0)) : 1u;
    inner = s.GetDimNum() == 2 ? static_cast<uint32_t>(s.GetDim(1)) : (s.GetDimNum() == 1 ? static_cast<uint32_t>(s.GetDim(0)) : 0u);
}
inline uint32_t antiquant(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose, ge::DataType out, bool max) {
    if (out == ge::DT_FLOAT16) return 0;                  // half computes in place
    const uint32_t scale = std::max<uint32_t>(1, elems(scaleShape)), src = elems(srcShape);
    const bool perChannel = scale != 1;
    if (!perChannel) return max ? src * 4 : 1024;
    if (isTranspose) return (8 + 8 + 64) * scale * 4;
    return scale * 2 * 4 + 64 * static_cast<uint32_t>(srcShape.GetDim(0)) * 4;
}
}  // namespace quant_tiling_detail

inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    (void)typeSize;
    minValue = 2 * 256;
    maxValue = (std::max<uint32_t>(quant_tiling_detail::elems(srcShape) * 2, 2 * 256) + 31) / 32 * 32;
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = 2;
    extraBuf = 0;
}
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSize;
    uint32_t outer, inner;
    quant_tiling_detail::outer_inner(srcShape, outer, inner);
    const uint32_t scale = inner + 8;     // the scale row, rounded up past a bfloat16_t scale's padding
    maxValue = (64 + outer * inner + scale) * 4;
    minValue = (64 + inner + scale) * 4;
}
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 8 + 64;
    if (srcShape.GetDimNum() == 2) { extraBuf += static_cast<uint32_t>(srcShape.GetDim(1)); maxLiveNodeCount = 1; }
    else if (srcShape.GetDimNum() == 1) maxLiveNodeCount = 2;
    else { extraBuf = 0; maxLiveNodeCount = 0; }
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    (void)inputDataType;
    return quant_tiling_detail::antiquant(srcShape, scaleShape, isTranspose, outputDataType, true);
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    (void)inputDataType;
    return quant_tiling_detail::antiquant(srcShape, scaleShape, isTranspose, outputDataType, false);
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType, uint32_t& maxValue,
                                            uint32_t& minValue) {
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}
inline void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                                  ge::DataType inputDataType, ge::DataType outputDataType,
                                                  uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)inputDataType;
    const uint32_t scale = std::max<uint32_t>(1, quant_tiling_detail::elems(scaleShape));
    maxLiveNodeCount = 0;
    extraBuf = 0;
    if (outputDataType == ge::DT_FLOAT16) return;
    if (scale == 1) maxLiveNodeCount = 1;
    else if (isTranspose) extraBuf = 80 * scale * 4;
    else extraBuf = scale * 2 * 4 + 64 * static_cast<uint32_t>(srcShape.GetDim(0)) * 4;
}
// CumSum (lib/math) on [outter, inner]: along the rows, half needs a float copy of the tensor (float none); along a
// row, two transposes of 16 rows at a time (plus a half cast buffer) at least, of every row at most.
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const uint32_t outer = static_cast<uint32_t>(srcShape.GetDim(0)), inner = static_cast<uint32_t>(srcShape.GetDim(1));
    if (!isLastAxis) {
        maxValue = minValue = typeSize == 2 ? outer * inner * 4 : 0;
        return;
    }
    const uint32_t aligned = (outer + 15) / 16 * 16;
    minValue = (typeSize == 2 ? inner * 16 * 2 : 0) + 16 * inner * typeSize * 2;
    maxValue = (typeSize == 2 ? inner * aligned * 2 : 0) + aligned * inner * typeSize * 2;
}
// WelfordUpdate on [rnLength, abLength]: 256-byte float buffers, three for half, two for float (one reusing the source)
// at least, one set per 8 elements of the input at most. WelfordFinalize on [abLength]: four 64-float blocks at least,
// the mean and variance rows on top for abLength beyond 64.
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSizeU; (void)isInplace;
    minValue = typeSizeT == 2 ? 3 * 256 : (isReuseSource ? 256 : 2 * 256);
    const uint64_t n = static_cast<uint64_t>(srcShape.GetDim(0)) * static_cast<uint64_t>(srcShape.GetDim(1));
    maxValue = static_cast<uint32_t>((n + 7) / 8 * minValue);
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                            uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    const uint32_t ab = static_cast<uint32_t>(srcShape.GetDim(0));
    minValue = 64 * 4 * 4;
    maxValue = ab <= 64 ? minValue : (64 * 2 + ab * 2) * 4;
}
// Normalize on [A, R] (R padded to 32 bytes of T): the gamma / beta rows in float (twice more for half U) or the
// row statistics, whichever is larger, at least; two float copies of the rows and of the data at most.
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource; (void)isComputeRstd; (void)isOnlyOutput;
    const uint32_t a = static_cast<uint32_t>(srcShape.GetDim(0)), r = static_cast<uint32_t>(srcShape.GetDim(1));
    const uint32_t per = typeSizeT ? 32 / typeSizeT : 1, rPad = (r + per - 1) / per * per;
    auto align = [](uint32_t b) { return (b + 31) / 32 * 32; };
    const uint32_t rBytes = align(rPad * 4), aBytes = align(a * 4);
    maxValue = 2 * rBytes + 2 * align((a + 7) / 8 * 8 * rPad * 4);
    const uint32_t nr = (typeSizeU == 4 ? 2 : 4) * rBytes;
    minValue = std::max(aBytes, nr);
}
// DeepNorm on [B, S, H]: LayerNorm's temporaries (a row of float intermediates per buffer at least, every row at most)
// and LayerNorm's tiling with originalHLength from the unpadded shape. Both return false on an invalid shape.
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    (void)isBasicBlock;
    if (srcShape.GetDimNum() < 2 || typeSize == 0) return false;
    GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
    return true;
}
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource, const bool isBasicBlock,
                                  tiling::DeepNormTiling& tiling) {
    (void)isBasicBlock;
    if (srcShape.GetDimNum() < 2 || typeSize == 0) return false;
    tiling::LayerNormTiling ln;
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, ln);
    static_assert(sizeof(ln) == sizeof(tiling), "DeepNormTiling has LayerNormTiling's fields");
    std::memcpy(static_cast<void*>(&tiling), &ln, sizeof(ln));
    const size_t d = originSrcShape.GetDimNum();
    if (d) tiling.originalHLength = static_cast<uint32_t>(originSrcShape.GetDim(d - 1));
    return true;
}
// LayerNormGrad / LayerNormGradBeta on [B, S, H] or the documented {B, S, storageH, originH} (layernorm_bsh): float intermediates of one row per buffer at least (GradBeta two,
// Grad six, nine for half), of every row at most; the tilings carry the shape (the emulation reads B, S, H and
// originalHLength) and the buffer split.
namespace lngrad_tiling_detail {
inline void sizes(const ge::Shape& s, uint32_t typeSize, uint32_t bufs, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t b, sl, h, originH;
    detail_norm_tiling::layernorm_bsh(s, b, sl, h, originH);
    (void)typeSize;
    minValue = bufs * ((h * 4 + 31) / 32 * 32);
    maxValue = b * sl * minValue;
}
}  // namespace lngrad_tiling_detail
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
    lngrad_tiling_detail::sizes(srcShape, typeSize, typeSize == 2 ? 9 : (isReuseSource ? 4 : 6), maxValue, minValue);
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                         const bool isReuseSource, tiling::LayerNormGradTiling& tiling) {
    uint32_t b, s, h, originH;
    detail_norm_tiling::layernorm_bsh(srcShape, b, s, h, originH);
    const uint32_t bufs = typeSize == 2 ? 9 : (isReuseSource ? 4 : 6);
    tiling.stackBufferSize = stackBufferSize;
    tiling.bLength = b; tiling.sLength = s; tiling.hLength = h; tiling.originalHLength = originH;
    const uint32_t rowsPerCall = std::max<uint32_t>(1, std::min<uint32_t>(b * s, h ? stackBufferSize / 4 / bufs / h : 1));
    tiling.oneCalSize = rowsPerCall * h; tiling.nohCalSize = rowsPerCall;
    tiling.loopNum = (b * s) / rowsPerCall;
    tiling.tailSize = (b * s) % rowsPerCall * h; tiling.nohTailSize = (b * s) % rowsPerCall;
    const float inv = originH ? 1.0f / static_cast<float>(originH) : 0.0f, inv2 = 2 * inv;
    std::memcpy(&tiling.lastDimValueBack, &inv, 4);
    std::memcpy(&tiling.lastDimValueBackMulTwo, &inv2, 4);
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                              uint32_t& maxValue, uint32_t& minValue) {
    lngrad_tiling_detail::sizes(srcShape, typeSize, typeSize == 2 ? 4 : (isReuseSource ? 1 : 2), maxValue, minValue);
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                             const bool isReuseSource, tiling::LayerNormGradBetaTiling& tiling) {
    uint32_t b, s, h, originH;
    detail_norm_tiling::layernorm_bsh(srcShape, b, s, h, originH);
    const uint32_t bufs = typeSize == 2 ? 4 : (isReuseSource ? 1 : 2);
    tiling.stackBufferSize = stackBufferSize;
    tiling.bLength = b; tiling.sLength = s; tiling.hLength = h; tiling.originalHLength = originH;
    tiling.bshLength = b * s * h; tiling.bsLength = b * s;
    const uint32_t rowsPerCall = std::max<uint32_t>(1, std::min<uint32_t>(b * s, h ? stackBufferSize / 4 / bufs / h : 1));
    tiling.oneCalSize = rowsPerCall * h; tiling.numberOfTmpBuf = bufs;
    tiling.loopRound = (b * s) / rowsPerCall;
    tiling.inputTailSize = (b * s) % rowsPerCall * h; tiling.inputTailPos = tiling.loopRound * rowsPerCall * h;
    tiling.bsTailSize = (b * s) % rowsPerCall;
    tiling.bshCurLength = rowsPerCall * h; tiling.bsCurLength = rowsPerCall;
}
// TopK (A2): the merge-sort proposals of the rows (and the generated indices without isInitIndex), as the host's
// GetTopKMaxMinTmpSize gives them; TopKTilingFunc fills the struct's sizes (the emulation reads TopKInfo only).
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform; (void)isReuseSource;
    if (dataTypeSize == 0 || inner <= 0 || outter <= 0) return false;
    const uint32_t in = static_cast<uint32_t>(inner), all = in * static_cast<uint32_t>(outter);
    if (mode == TopKMode::TOPK_NORMAL) minValue = (16 + (isInitIndex ? 0 : 4)) * in;
    else minValue = all * 8 + 64 + (isLargest ? 0 : all * 4) + (isInitIndex ? 0 : all * 4);
    maxValue = minValue;
    return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                           const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, tiling::TopkTiling& topKTiling) {
    uint32_t mx = 0, mn = 0;
    if (!GetTopKMaxMinTmpSize(ascendcPlatform, inner, outter, false, isInitIndex, mode, isLargest, dataTypeSize, mx, mn)) return false;
    topKTiling.tmpLocalSize = static_cast<int32_t>(mn);
    topKTiling.allDataSize = inner * outter;
    topKTiling.innerDataSize = inner * (32 / static_cast<int32_t>(dataTypeSize));
    topKTiling.sortRepeat = static_cast<uint32_t>(inner / 32);
    topKTiling.kAlignFourBytes = (k + 7) / 8 * 8;
    topKTiling.kAlignTwoBytes = (k + 15) / 16 * 16;
    return true;
}
}  // namespace AscendC
#include "ascendcraft_emu/type_macros_pop.h"
