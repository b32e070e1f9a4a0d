// AscendCraft CPU emulation: the pattern reductions of the advanced API (adv_api/reduce/reduce.h): ReduceSum,
// ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAny and ReduceAll over a 2-D source [first, last] with
// Pattern::Reduce::AR (one result per row: dst[first]) or Pattern::Reduce::RA (one per column: dst[last]). Rows are
// `last` rounded up to a 32-byte block apart (srcInnerPad must be true on A2). The A2 rules: AR and RA only; ReduceSum
// and ReduceProd float; ReduceMean, ReduceMax and ReduceMin half and float; ReduceAny / ReduceAll float and uint8_t
// (uint8_t along columns is a bitwise or / and). A sharedTmpBuffer must hold the host's GetReduce<Op>MaxMinTmpSize
// minimum. Written from the public AscendC API reference; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
void adv_pattern_reduce(Op op, Dt dt, const Local& dst, const Local& src, const Local* tmp, uint32_t first, uint32_t last,
                        bool ra, bool srcInnerPad, bool reuse, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace Pattern { namespace Reduce {
struct R {}; struct AR {}; struct RA {}; struct ARA {}; struct ARAR {}; struct ARARA {}; struct ARARAR {}; struct ARARARA {};
struct ARARARAR {}; struct ARARARARA {}; struct RAR {}; struct RARA {}; struct RARAR {}; struct RARARA {}; struct RARARAR {};
struct RARARARA {};
}}  // namespace Pattern::Reduce

#define ASCENDCRAFT_EMU_PATTERN_REDUCE(API, TYPES, ...)                                                            \
    template <class T, class pattern, bool isReuseSource = false>                                                  \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad,      \
                    SrcLoc loc = {}) {                                                                             \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TYPES, T, __VA_ARGS__);                                                   \
        static_assert(ascendcraft::emu::OneOf<pattern, Pattern::Reduce::AR, Pattern::Reduce::RA>::value,           \
                      #API " on Ascend 910B (A2) supports the AR and RA patterns only");                           \
        ascendcraft::emu::adv_pattern_reduce(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(),               \
                                             dstTensor.emu(), srcTensor.emu(), &sharedTmpBuffer.emu(), srcShape[0], \
                                             srcShape[1], std::is_same<pattern, Pattern::Reduce::RA>::value,        \
                                             srcInnerPad, isReuseSource, loc);                                     \
    }                                                                                                              \
    template <class T, class pattern, bool isReuseSource = false>                                                  \
    inline void API(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],    \
                    bool srcInnerPad, SrcLoc loc = {}) {                                                           \
        ASCENDCRAFT_EMU_TYPES_CHECK(API, TYPES, T, __VA_ARGS__);                                                   \
        static_assert(ascendcraft::emu::OneOf<pattern, Pattern::Reduce::AR, Pattern::Reduce::RA>::value,           \
                      #API " on Ascend 910B (A2) supports the AR and RA patterns only");                           \
        ascendcraft::emu::adv_pattern_reduce(ascendcraft::emu::Op::API, ascendcraft::emu::dt_of<T>(),               \
                                             dstTensor.emu(), srcTensor.emu(), nullptr, srcShape[0], srcShape[1],   \
                                             std::is_same<pattern, Pattern::Reduce::RA>::value, srcInnerPad,        \
                                             isReuseSource, loc);                                                  \
    }
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceSum, "float", float)
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceMean, "half and float", half, float)
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceMax, "half and float", half, float)
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceMin, "half and float", half, float)
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceProd, "float", float)
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceAny, "float and uint8_t", float, uint8_t)
ASCENDCRAFT_EMU_PATTERN_REDUCE(ReduceAll, "float and uint8_t", float, uint8_t)
#undef ASCENDCRAFT_EMU_PATTERN_REDUCE
}  // namespace AscendC
