// AscendCraft CPU emulation: DropOutBitModeInit (lib/filter), kept apart from math.h's DropOut because it is made of
// kernel API calls (Duplicate, SetCmpMask, PipeBarrier) that the runtime's own use of math.h does not see. Written from
// the public AscendC API reference; no vendor code.
#pragma once

#include "block_sync.h"
#include "vector.h"

namespace AscendC {
// DropOutBitModeInit: what DropOut<T, false> does before a bit-mask drop out, for kernels that call DropOut<T, true>
// afterwards: 256 bytes of sharedTmpBuffer set to 0 and loaded into the compare-mask register (so the buffer must hold
// 256 bytes). The emulated DropOut reads its bit mask itself, with or without it.
template <typename T> inline void DropOutBitModeInit(const LocalTensor<T>& sharedTmpBuffer, SrcLoc loc = {}) {
    LocalTensor<int16_t> zeros = sharedTmpBuffer.template ReinterpretCast<int16_t>();
    Duplicate(zeros, static_cast<int16_t>(0), 128, loc);
    PipeBarrier<PIPE_V>();
    SetCmpMask(zeros, loc);
    PipeBarrier<PIPE_V>();
}
// The form without a buffer takes its 256 bytes from the UB the InitBuffer allocations leave free (PopStackBuffer), as
// the library's own stack buffer does (ops-transformer's flash_attention_score_grad calls it so).
inline void DropOutBitModeInit(SrcLoc loc = {}) {
    LocalTensor<int16_t> stack;
    PopStackBuffer<int16_t, TPosition::LCM>(stack, loc);
    DropOutBitModeInit(stack, loc);
}
}  // namespace AscendC
