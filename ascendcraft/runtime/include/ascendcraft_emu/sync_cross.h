// AscendCraft CPU emulation: the cores of a launch and the flags between them. On Ascend 910B (A2) an AI Core group
// is one cube core (AIC) and two vector cores (AIV). The kernel type (KERNEL_TASK_TYPE_DEFAULT, or what the compiler
// infers when the kernel names none) decides which cores a launch of block_dim blocks starts:
//   AIV_ONLY / MIX_AIV_1_0: block_dim AIVs;   AIC_ONLY / MIX_AIC_1_0: block_dim AICs;
//   MIX_AIC_1_1: block_dim groups of 1 AIC + 1 AIV;   MIX_AIC_1_2: block_dim groups of 1 AIC + 2 AIV.
// GetBlockIdx() is the group on an AIC and group * 2 + sub-block on an AIV of a 1:2 launch; GetSubBlockIdx() is the
// AIV's place in its group; GetTaskRation() is 2 on the AIVs of a 1:2 launch and 1 elsewhere.
// CrossCoreSetFlag<mode, pipe>(id) / CrossCoreWaitFlag(id) (flag ids 0..10, a counter per core and id, at most 15 sets
// pending): mode 0 releases every core of the setter's type once all of them have set; mode 1 releases both AIVs of a
// group once both have set; mode 2 hands over between the AIC and the AIVs of a group (the AIC's set releases each
// AIV, the AIVs' sets together release the AIC). The emulator runs the cores cooperatively, checks that every GM
// byte one core reads from another core's writes was handed over by such a flag (or SyncAll), and reports a wait
// that can never be released as a deadlock. Written from the public AscendC documentation; no vendor code.
#pragma once

#include "runtime.h"

namespace ascendcraft { namespace emu {
void cross_set_flag(uint8_t mode, uint8_t pipe, int64_t id, SrcLoc loc);
void cross_wait_flag(int64_t id, SrcLoc loc);
int64_t cross_sub_block_idx();
int64_t cross_task_ration();
}}  // namespace ascendcraft::emu

namespace AscendC {
template <uint8_t modeId, pipe_t pipe> inline void CrossCoreSetFlag(uint16_t flagId, SrcLoc loc = {}) {
    static_assert(modeId <= 2, "CrossCoreSetFlag: modeId is 0 (all cores of one type), 1 (the AIVs of a group) or 2 (AIC <-> AIV)");
    ascendcraft::emu::cross_set_flag(modeId, static_cast<uint8_t>(pipe), flagId, loc);
}
inline void CrossCoreWaitFlag(uint16_t flagId, SrcLoc loc = {}) { ascendcraft::emu::cross_wait_flag(flagId, loc); }
// CANN 8.x also spells the wait with the mode and pipe (they do not change what it waits for).
template <uint8_t modeId, pipe_t pipe = PIPE_S> inline void CrossCoreWaitFlag(uint16_t flagId, SrcLoc loc = {}) {
    ascendcraft::emu::cross_wait_flag(flagId, loc);
}
}  // namespace AscendC
