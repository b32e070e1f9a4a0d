// AscendCraft: the host tiling of SoftmaxFlashV3 on Ascend 910B (A2), GetSoftMaxFlashV3MaxMinTmpSize and
// SoftMaxFlashV3TilingFunc (tiling/tiling_api.h). A row of k half elements with float statistics (8 per 32-byte block)
// needs 5 statistic blocks, two float copies of the row and one 64-element unit of temporary space: the minimum is one
// row's worth, the maximum all m rows'. The tiling splits the m rows into blocks of baseM = the rows that fit the work
// space (a multiple of 8 when it is more than 8 and less than m). Written from the public AscendC API reference; no
// vendor code.
#pragma once

#include <cstdio>

#include "norm_tiling.h"

namespace AscendC {
namespace flashv3_tiling_detail {
// float elements of temporary space one row of k needs
inline uint32_t row_floats(uint32_t k, uint32_t stat_per_block) { return stat_per_block * 5 + 2 * k + 64; }
inline bool types_ok(uint32_t dataTypeSize1, uint32_t dataTypeSize2) {
    if (dataTypeSize1 == 2 && dataTypeSize2 == 4) return true;
    std::fprintf(stderr, "[SoftmaxFlashV3] dataTypeSize1 is %u and dataTypeSize2 %u: Ascend 910B takes half data (2) and "
                 "float statistics (4); nothing computed\n", dataTypeSize1, dataTypeSize2);
    return false;
}
}  // namespace flashv3_tiling_detail

inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                           uint32_t& maxValue, uint32_t& minValue, const bool isUpdate,
                                           const bool isBasicBlock = false) {
    (void)isUpdate; (void)isBasicBlock;
    if (!flashv3_tiling_detail::types_ok(dataTypeSize1, dataTypeSize2)) return;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    minValue = flashv3_tiling_detail::row_floats(k, 32 / dataTypeSize2) * 4;
    maxValue = m * minValue;
}

inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& t, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    (void)isUpdate; (void)isBasicBlock;
    if (!flashv3_tiling_detail::types_ok(dataTypeSize1, dataTypeSize2)) return;
    uint32_t m, k;
    detail_norm_tiling::rows_cols(srcShape, m, k);
    const uint32_t blk = 32 / dataTypeSize2;
    uint32_t baseM = std::min(localWorkSpaceSize / 4 / flashv3_tiling_detail::row_floats(k, blk), m);
    if (baseM < m && baseM > 8) baseM = baseM / 8 * 8;
    t.srcM = m; t.srcK = k; t.srcSize = m * k;
    t.outMaxM = m; t.outMaxK = blk; t.outMaxSize = m * blk;
    t.splitM = baseM; t.splitK = k; t.splitSize = baseM * k;
    t.reduceM = baseM; t.reduceK = blk; t.reduceSize = baseM * blk;
    if (baseM != 0) {
        t.rangeM = m / baseM; t.tailM = m % baseM;
        t.tailSplitSize = t.tailM * k; t.tailReduceSize = t.tailM * blk;
    }
}
}  // namespace AscendC
