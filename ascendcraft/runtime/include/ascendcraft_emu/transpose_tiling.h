// AscendCraft: the host side of ConfusionTranspose / Transpose(TransposeType) (adv_api/transpose/
// confusion_transpose_tiling.h): GetConfusionTransposeTilingInfo / GetTransposeTilingInfo and their temporary sizes, as an
// op's TilingFunc calls them with the TransposeType's number. The emulated type is TRANSPOSE_ND2ND_ONLY (7): a [H, W]
// source gives param0 = the elements of a 32-byte block, param1 = H, param2 = W, param3 = H / 16, param4 = H's blocks
// of 32 bytes a row of 16, param5 = W's 32-byte blocks, as the API reference lists them; it needs no temporary space.
// Any other type is reported on stderr and leaves the tiling zero (its kernel call then stops with an error naming the
// type). Written from the public API reference; no vendor code.
#pragma once

#include <cstdint>
#include <cstdio>

#include "transpose_tiling_data.h"
#include "math_tiling.h"   // AscendC::TensorShape (ge::Shape)

namespace AscendC {
namespace transpose_tiling_detail {
constexpr uint32_t kOnly = 7;   // TransposeType::TRANSPOSE_ND2ND_ONLY
inline void only(const ge::Shape& s, uint32_t typeSize, AscendC::tiling::ConfusionTransposeTiling& t) {
    t = AscendC::tiling::ConfusionTransposeTiling{};
    if (s.GetDimNum() != 2 || s.GetDim(0) <= 0 || s.GetDim(1) <= 0 || typeSize == 0 || typeSize > 32) {
        std::fprintf(stderr, "[ERROR] GetConfusionTransposeTilingInfo (TRANSPOSE_ND2ND_ONLY): srcShape must be 2-D [H, W] "
                             "with both axes > 0, and typeSize 1 to 32 bytes\n");
        return;
    }
    const uint32_t blockSize = 32 / typeSize, height = static_cast<uint32_t>(s.GetDim(0)), width = static_cast<uint32_t>(s.GetDim(1));
    t.param0 = blockSize;
    t.param1 = height;
    t.param2 = width;
    t.param3 = height / 16;
    t.param4 = height * blockSize * typeSize / 32;
    t.param5 = width / blockSize;
}
inline void fill(const char* api, const ge::Shape& s, uint32_t typeSize, uint32_t type, AscendC::tiling::ConfusionTransposeTiling& t) {
    if (type == kOnly) return only(s, typeSize, t);
    t = AscendC::tiling::ConfusionTransposeTiling{};
    std::fprintf(stderr, "[ERROR] %s: TransposeType %u is not emulated (only TRANSPOSE_ND2ND_ONLY, 7, is); the tiling is left "
                         "zero\n", api, type);
}
}  // namespace transpose_tiling_detail

inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                            const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling) {
    (void)stackBufferSize;
    transpose_tiling_detail::fill("GetConfusionTransposeTilingInfo", srcShape, typeSize, transposeTypeIn, tiling);
}
inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                   const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling) {
    (void)stackBufferSize;
    transpose_tiling_detail::fill("GetTransposeTilingInfo", srcShape, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                                AscendC::tiling::ConfusionTransposeTiling& tiling) {
    (void)stackBufferSize;
    transpose_tiling_detail::only(srcShape, typeSize, tiling);
}
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                                               uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape; (void)typeSize;
    maxValue = minValue = 0;
    if (transposeTypeIn != transpose_tiling_detail::kOnly)
        std::fprintf(stderr, "[ERROR] GetConfusionTransposeMaxMinTmpSize: TransposeType %u is not emulated (only "
                             "TRANSPOSE_ND2ND_ONLY, 7, is)\n", transposeTypeIn);
}
inline void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                                      uint32_t& maxValue, uint32_t& minValue) {
    GetConfusionTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}
}  // namespace AscendC
