// AscendCraft CPU emulation: the cores of a launch and the flags between them. On Ascend 910B (A2) an AI Core group
// is one cube core (AIC) and two vector cores (AIV). The kernel type (KERNEL_TASK_TYPE_DEFAULT, or what the compiler
// infers when the kernel names none) decides which cores a launch of block_dim blocks starts:
//   AIV_ONLY / MIX_AIV_1_0: block_dim AIVs;   AIC_ONLY / MIX_AIC_1_0: block_dim AICs;
//   MIX_AIC_1_1: block_dim groups of 1 AIC + 1 AIV;   MIX_AIC_1_2: block_dim groups of 1 AIC + 2 AIV.
// GetBlockIdx() is the group on an AIC and group * 2 + sub-block on an AIV of a 1:2 launch; GetSubBlockIdx() is the
// AIV's place in its group; GetTaskRation() is 2 on the AIVs of a 1:2 launch and 1 elsewhere.
// CrossCoreSetFlag<mode, pipe>(id) / CrossCoreWaitFlag(id) (flag ids 0..15 in modes 0-2, a counter per core and id, at most 15 sets
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
// The flag ids kernel_operator.h names on A2 for the system's own cross-core synchronisation; public kernels
// (hicann ops-nn quant_matmul_reduce_sum, conv3d_backprop_*_v2) set and wait on them by these names.
constexpr uint16_t SYNC_AIC_FLAG = 11;
constexpr uint16_t SYNC_AIV_FLAG = 12;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 13;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;
template <uint8_t modeId, pipe_t pipe> inline void CrossCoreSetFlag(uint16_t flagId, SrcLoc loc = {}) {
    static_assert(modeId <= 2, "CrossCoreSetFlag: modeId is 0 (all cores of one type), 1 (the AIVs of a group) or 2 (AIC <-> AIV)");
    ascendcraft::emu::cross_set_flag(modeId, static_cast<uint8_t>(pipe), flagId, loc);
}
inline void CrossCoreWaitFlag(uint16_t flagId, SrcLoc loc = {}) { ascendcraft::emu::cross_wait_flag(flagId, loc); }
// CANN 8.x also spells the wait with the mode and pipe (they do not change what it waits for).
template <uint8_t modeId, pipe_t pipe = PIPE_S> inline void CrossCoreWaitFlag(uint16_t flagId, SrcLoc loc = {}) {
    ascendcraft::emu::cross_wait_flag(flagId, loc);
}
// The message word of the raw set below: bit 0 set, the mode in bits 4..5, the flag id in bits 8..11.
inline uint16_t GetffstMsg(uint16_t mode, uint16_t flagId) {
    return static_cast<uint16_t>(0x1 | ((mode & 0x3) << 4) | ((flagId & 0xf) << 8));
}
}  // namespace AscendC

// ---- the device compiler's raw spellings of the same two operations (kernels ported from the devkit's own code call
// them): ffts_cross_core_sync(pipe, config) is CrossCoreSetFlag<mode, pipe>(id) with the mode in bits 4..5 and the id in
// bits 8..11 of config; wait_flag_dev(id) is CrossCoreWaitFlag(id). Same checks and hand-over as the AscendC names.
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, ascendcraft::emu::SrcLoc loc = {}) {
    ascendcraft::emu::cross_set_flag(static_cast<uint8_t>((config >> 4) & 0x3), static_cast<uint8_t>(pipe),
                                     static_cast<int64_t>((config >> 8) & 0xf), loc);
}
inline void wait_flag_dev(int64_t flagId, ascendcraft::emu::SrcLoc loc = {}) { ascendcraft::emu::cross_wait_flag(flagId, loc); }
// set_ffts_base_addr(addr): the raw spelling of SetSyncBaseAddr (ATB's attention kernels pass their ffts_addr argument
// first thing). As there, the emulation's hand-overs do not go through memory at that address: no effect.
inline void set_ffts_base_addr(uint64_t addr) { (void)addr; }
// get_ffts_base_addr(): the device compiler's read of that register (the C API's asc_get_ffts_base_addr wraps it): a
// kernel launched without an ffts argument takes it here and hands it to set_ffts_base_addr / SetSyncBaseAddr
// (MindSpore's ms_custom_ops unpad_fa_npd). No memory stands behind it in the emulation: 0, which those take and ignore.
inline int64_t get_ffts_base_addr() { return 0; }
namespace AscendC {
// SetSyncBaseAddr(config): sets the FFTS base-address register the NPU's cross-core flags use (A2: set_ffts_base_addr).
// The emulation keeps CrossCoreSetFlag / CrossCoreWaitFlag in the launch itself, not in memory at that address, so the
// value has no effect here; the hand-overs after it behave the same whatever it is.
inline void SetSyncBaseAddr(uint64_t config) { (void)config; }
// The Matmul library's names for the AIC <-> AIV hand-over on Ascend 910B (A2): NotifyEvent<pipe>(id) is a mode-2 set
// (CrossCoreSetFlag<2, pipe>), WaitEvent(id) the wait.
template <pipe_t pipe> inline void NotifyEvent(uint16_t flagId, SrcLoc loc = {}) {
    ascendcraft::emu::cross_set_flag(2, static_cast<uint8_t>(pipe), flagId, loc);
}
template <pipe_t pipe = PIPE_S> inline void WaitEvent(uint16_t flagId, SrcLoc loc = {}) {
    ascendcraft::emu::cross_wait_flag(flagId, loc);
}
}  // namespace AscendC
