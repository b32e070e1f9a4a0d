// AscendCraft: the host-side tiling functions of the normalisation advanced APIs (norm.h), as an op's TilingFunc
// calls them: SoftMaxTilingFunc / SoftMaxFlashV2TilingFunc / GetSoftMax*TmpSize, GetLayerNormNDTilingInfo /
// GetLayerNormMaxMinTmpSize, GetRmsNormTilingInfo / GetRmsNormMaxMinTmpSize, and the ge::Shape they take. The
// struct fields that the kernel-side emulation reads (the shape) are exact; the split fields are plausible values
// (the emulation computes whole rows and never reads them). Temporary sizes: a row of float intermediates at the
// minimum, all rows at the maximum. From the public AscendC API reference; no vendor code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ascendcraft_emu/norm_tiling_data.h"

#include "ascendcraft_emu/ge_shape.h"   // ge::Shape

namespace AscendC {
namespace detail_norm_tiling {
// [M, K]: the product of the leading dims and the last dim.
inline void rows_cols(const ge::Shape& s, uint32_t& m, uint32_t& k) {
    k = s.GetDimNum() ? static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1)) : 0;
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < s.GetDimNum(); ++i) rows *= s.GetDim(i);
    m = static_cast<uint32_t>(rows);
}
// The LayerNorm family's shape: the documented 4-D form is {B, S, storageHLength, originHLength} (H as stored, then H
// before any alignment padding); a 3-D [B, S, H] (or 2-D [S, H], B 1) has origin H = H, and more leading dims fold
// into B.
inline void layernorm_bsh(const ge::Shape& s, uint32_t& b, uint32_t& sl, uint32_t& h, uint32_t& originH) {
    const size_t d = s.GetDimNum();
    if (d == 4) {
        b = static_cast<uint32_t>(s.GetDim(0)); sl = static_cast<uint32_t>(s.GetDim(1));
        h = static_cast<uint32_t>(s.GetDim(2)); originH = static_cast<uint32_t>(s.GetDim(3));
        return;
    }
    h = d ? static_cast<uint32_t>(s.GetDim(d - 1)) : 0;
    sl = d >= 2 ? static_cast<uint32_t>(s.GetDim(d - 2)) : 1;
    b = 1;
    for (size_t i = 0; i + 2 < d; ++i) b *= static_cast<uint32_t>(s.GetDim(i));
    originH = h;
}
inline uint32_t align32(uint64_t b) { return static_cast<uint32_t>((b + 31) / 32 * 32); }
inline uint32_t row_tmp(uint32_t k) { return align32(static_cast<uint64_t>(k) * 4 + 64); }
inline void fill_softmax(uint32_t m, uint32_t k, uint32_t type_size, uint32_t ws, tiling::SoftMaxTiling& t) {
    const uint32_t blk = 32 / (type_size ? type_size : 4);
    const uint32_t split = std::max<uint32_t>(1, std::min<uint32_t>(m, ws / row_tmp(k)));
    t.srcM = m; t.srcK = k; t.srcSize = m * k;
    t.outMaxM = m; t.outMaxK = blk; t.outMaxSize = m * blk;
    t.splitM = split; t.splitK = k; t.splitSize = split * k;
    t.reduceM = split; t.reduceK = blk; t.reduceSize = split * blk;
    t.rangeM = m / split; t.tailM = m % split;
    t.tailSplitSize = t.tailM * k; t.tailReduceSize = t.tailM * blk;
}
}  // namespace detail_norm_tiling

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    return detail_norm_tiling::row_tmp(k);
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    return m * detail_norm_tiling::row_tmp(k);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              tiling::SoftMaxTiling& softmaxTiling) {
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    detail_norm_tiling::fill_softmax(m, k, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
// LogSoftMax (A2): float temporaries of one broadcast block, the row and 64 more elements, for one row at least and
// every row at most; its tiling has SoftMax's fields (the kernel recomputes its own split from the shape).
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    if (!dataTypeSize || srcShape.GetDimNum() < 2) return 0;
    return m * (32 / dataTypeSize + k + 64) * 4;
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    if (!dataTypeSize || srcShape.GetDimNum() < 2) return 0;
    return (32 / dataTypeSize + k + 64) * 4;
}
inline void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                 tiling::LogSoftMaxTiling& softmaxTiling) {
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    detail_norm_tiling::fill_softmax(m, k, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
// SoftmaxGrad: a row of temporaries (the products, then the broadcast sum) at least; every row at most.
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)dataTypeSize; (void)isFront; (void)isReuseSource;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    return detail_norm_tiling::row_tmp(k);
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)dataTypeSize; (void)isFront; (void)isReuseSource;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    return m * detail_norm_tiling::row_tmp(k);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  tiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
    (void)isFront;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    detail_norm_tiling::fill_softmax(m, k, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)dataTypeSize2; (void)isUpdate; (void)isBasicBlock; (void)isFlashOutputBrc;
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize1, false);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)dataTypeSize2; (void)isUpdate; (void)isBasicBlock; (void)isFlashOutputBrc;
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize1, false);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate; (void)isBasicBlock; (void)isFlashOutputBrc;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    detail_norm_tiling::fill_softmax(m, k, dataTypeSize2 ? dataTypeSize2 : dataTypeSize1, localWorkSpaceSize, softmaxFlashTiling);
}
// SoftmaxFlash (v1) has the SoftMax tiling.
inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                   tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate = false) {
    (void)isUpdate;
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxFlashTiling);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isUpdate;
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isUpdate;
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}

// LayerNorm [B, S, H], the documented {B, S, storageH, originH} (layernorm_bsh) and [A, R].
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    uint32_t b, s, h, originH;
    detail_norm_tiling::layernorm_bsh(srcShape, b, s, h, originH);
    minValue = 2 * detail_norm_tiling::row_tmp(h);
    maxValue = b * s * minValue;
}
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue, uint32_t& minValue) {
    (void)isComputeRstd; (void)isOnlyOutput;
    GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, tiling::LayerNormTiling& tiling) {
    (void)isReuseSource;
    uint32_t b, s, h, originH;
    detail_norm_tiling::layernorm_bsh(srcShape, b, s, h, originH);
    tiling.bLength = b; tiling.sLength = s; tiling.hLength = h; tiling.originalHLength = originH;
    tiling.inputXSize = b * s * h; tiling.meanVarSize = b * s;
    tiling.numberOfTmpBuf = 3;
    tiling.oneTmpSize = std::max<uint32_t>(h, stackBufferSize / (3 * (typeSize ? typeSize : 4)) / (h ? h : 1) * h);
    tiling.tmpBufSize = stackBufferSize;
    tiling.loopRound = h ? (b * s * h + tiling.oneTmpSize - 1) / tiling.oneTmpSize : 0;
    tiling.inputRoundSize = tiling.oneTmpSize;
    tiling.bshCurLength = tiling.oneTmpSize; tiling.bsCurLength = h ? tiling.oneTmpSize / h : 0;
    tiling.lastDimValueBack = originH ? 1.0f / static_cast<float>(originH) : 0.0f;
}
// The older spelling.
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                      const bool isReuseSource, tiling::LayerNormTiling& tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd, tiling::LayerNormSeparateTiling& tiling) {
    (void)stackBufferSize; (void)typeSize; (void)isReuseSource; (void)isComputeRstd;
    uint32_t a, r;
    detail_norm_tiling::rows_cols(srcShape, a, r);
    tiling.aLength = a; tiling.rLength = r;
    uint32_t head = 1;
    while (head * 2 <= r) head *= 2;
    tiling.rHeadLength = head;
    tiling.k2Rec = head ? 1.0f / static_cast<float>(head) : 0.0f;
    tiling.k2RRec = r ? static_cast<float>(head) / static_cast<float>(r) : 0.0f;
    tiling.inputXSize = a * r; tiling.meanVarSize = a;
    tiling.arCurLength = a * r; tiling.aCurLength = a;
    tiling.rValueBack = r ? 1.0f / static_cast<float>(r) : 0.0f;
}

// RmsNorm [B, S, H]; originSrcShape gives the unpadded H.
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue,
                                    const bool isBasicBlock = false) {
    (void)typeSize; (void)isBasicBlock;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    minValue = detail_norm_tiling::row_tmp(k);
    maxValue = m * minValue;
    return k != 0;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferByteSize,
                                 const uint32_t typeSize, tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    (void)typeSize; (void)isBasicBlock;
    const size_t d = srcShape.GetDimNum();
    if (d == 0) return false;
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(d - 1));
    const uint32_t s = d >= 2 ? static_cast<uint32_t>(srcShape.GetDim(d - 2)) : 1;
    uint32_t b = 1;
    for (size_t i = 0; i + 2 < d; ++i) b *= static_cast<uint32_t>(srcShape.GetDim(i));
    const size_t od = originSrcShape.GetDimNum();
    const uint32_t oh = od ? static_cast<uint32_t>(originSrcShape.GetDim(od - 1)) : h;
    tiling.bLength = b; tiling.sLength = s; tiling.hLength = h; tiling.originalHLength = oh;
    tiling.reciprocalOfHLength = oh ? 1.0f / static_cast<float>(oh) : 0.0f;
    const uint32_t rows_per_loop = std::max<uint32_t>(1, std::min<uint32_t>(b * s, stackBufferByteSize / detail_norm_tiling::row_tmp(h)));
    tiling.mainBsLength = rows_per_loop; tiling.mainBshLength = rows_per_loop * h;
    tiling.mainBsLengthAlign = (rows_per_loop + 7) / 8 * 8;
    tiling.loopRound = (b * s) / rows_per_loop;
    tiling.inputTailPos = tiling.loopRound * tiling.mainBshLength;
    tiling.tailBsLength = (b * s) % rows_per_loop;
    tiling.tailBshLength = tiling.tailBsLength * h;
    return h != 0;
}
}  // namespace AscendC
