// AscendCraft: the host-side GetReduce<Op>MaxMinTmpSize of the pattern reductions (reduce_pattern.h), as an op's
// TilingFunc calls them through tiling/tiling_api.h or lib/reduce/reduce_tiling.h. A2 rules: a 2-D srcShape, the AR or
// RA pattern, isSrcInnerPad true, and the element types of each API (ReduceSum / ReduceMean / ReduceProd float,
// ReduceMax / ReduceMin half and float, ReduceAny / ReduceAll float and uint8); a call that breaks one prints an
// error and leaves the sizes unchanged. The minimum and the maximum are the same size (reduce_pattern_tmp.h).
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

#include <cstdint>
#include <cstdio>

#include "norm_tiling.h"
#include "reduce_pattern_enum.h"
#include "reduce_pattern_tmp.h"
#include "register/op_def_registry.h"

namespace AscendC {
namespace reduce_tiling_detail {
inline void sizes(const char* api, AscendC::reduce_tmp_detail::Family f, bool typeOk, const char* types, const ge::Shape& srcShape,
                  ge::DataType dataType, ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue,
                  uint32_t& minValue) {
    const char* why = nullptr;
    if (!typeOk) why = types;
    else if (srcShape.GetDimNum() != 2) why = "srcShape must have 2 dims";
    else if (!isSrcInnerPad) why = "isSrcInnerPad must be true on this platform";
    else if (pattern != ReducePattern::AR && pattern != ReducePattern::RA) why = "only the AR and RA patterns are supported";
    else if (srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0) why = "both axes must be greater than 0";
    if (why) { std::fprintf(stderr, "[ERROR] [%s][Get%sMaxMinTmpSize] %s\n", api, api, why); return; }
    const uint32_t ts = dataType == ge::DT_FLOAT ? 4u : (dataType == ge::DT_FLOAT16 ? 2u : 1u);
    minValue = maxValue = AscendC::reduce_tmp_detail::min_bytes(f, pattern == ReducePattern::RA, static_cast<uint32_t>(srcShape.GetDim(0)),
                                                             static_cast<uint32_t>(srcShape.GetDim(1)), ts, isReuseSource);
}
}  // namespace reduce_tiling_detail

#define ASCENDCRAFT_EMU_REDUCE_TILING(API, FAMILY, OK, TYPES)                                                       \
    inline void Get##API##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern, \
                                        bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) { \
        reduce_tiling_detail::sizes(#API, FAMILY, OK, TYPES, srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, \
                                    maxValue, minValue);                                                           \
    }
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceSum, AscendC::reduce_tmp_detail::SUM_MEAN, dataType == ge::DT_FLOAT, "it only supports float type on this platform")
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceMean, AscendC::reduce_tmp_detail::SUM_MEAN, dataType == ge::DT_FLOAT, "it only supports float type on this platform")
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceProd, AscendC::reduce_tmp_detail::PROD, dataType == ge::DT_FLOAT, "it only supports float type on this platform")
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceMax, AscendC::reduce_tmp_detail::COMMON, dataType == ge::DT_FLOAT || dataType == ge::DT_FLOAT16,
                              "it only supports float and half type on this platform")
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceMin, AscendC::reduce_tmp_detail::COMMON, dataType == ge::DT_FLOAT || dataType == ge::DT_FLOAT16,
                              "it only supports float and half type on this platform")
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceAny, dataType == ge::DT_UINT8 ? AscendC::reduce_tmp_detail::ANY_ALL_U8 : AscendC::reduce_tmp_detail::COMMON,
                              dataType == ge::DT_FLOAT || dataType == ge::DT_UINT8, "it only supports float and uint8 type on this platform")
ASCENDCRAFT_EMU_REDUCE_TILING(ReduceAll, dataType == ge::DT_UINT8 ? AscendC::reduce_tmp_detail::ANY_ALL_U8 : AscendC::reduce_tmp_detail::COMMON,
                              dataType == ge::DT_FLOAT || dataType == ge::DT_UINT8, "it only supports float and uint8 type on this platform")
#undef ASCENDCRAFT_EMU_REDUCE_TILING
}  // namespace AscendC
#include "ascendcraft_emu/type_macros_pop.h"
