// AscendCraft CPU emulation runtime: SetFlag / WaitFlag, PipeBarrier and SyncAll inside a launch.
// Split out of emu_core.cpp; written from the public AscendC documentation, no vendor code.
#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <cstddef>
#include <sys/mman.h>
#include <unistd.h>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/cube_internal.h"

namespace ascendcraft { namespace emu {

// ---- flags and barriers ------------------------------------------------------------------------------------
uint8_t trace_pipe_of(uint8_t p) {
    switch (p) {
    case PIPE_S: return static_cast<uint8_t>(TPipe_::S);
    case PIPE_V: return static_cast<uint8_t>(TPipe_::V);
    case PIPE_M: return static_cast<uint8_t>(TPipe_::M);
    case PIPE_MTE1: return static_cast<uint8_t>(TPipe_::MTE1);
    case PIPE_MTE2: return static_cast<uint8_t>(TPipe_::MTE2);
    case PIPE_MTE3: return static_cast<uint8_t>(TPipe_::MTE3);
    case PIPE_FIX: return static_cast<uint8_t>(TPipe_::FIX);
    default: return static_cast<uint8_t>(TPipe_::ALL);
    }
}

void event_pipes(uint8_t event, uint8_t* src, uint8_t* dst) {
    static const uint8_t table[][2] = {
        {PIPE_MTE2, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE2}, {PIPE_MTE1, PIPE_M}, {PIPE_M, PIPE_MTE1}, {PIPE_MTE2, PIPE_V},
        {PIPE_V, PIPE_MTE2}, {PIPE_MTE3, PIPE_V}, {PIPE_V, PIPE_MTE3}, {PIPE_M, PIPE_V}, {PIPE_V, PIPE_M}, {PIPE_V, PIPE_V},
        {PIPE_MTE3, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE3}, {PIPE_MTE1, PIPE_V}, {PIPE_MTE2, PIPE_M}, {PIPE_M, PIPE_MTE2},
        {PIPE_V, PIPE_MTE1}, {PIPE_M, PIPE_FIX}, {PIPE_FIX, PIPE_M}, {PIPE_MTE3, PIPE_MTE2}, {PIPE_MTE2, PIPE_MTE3},
        {PIPE_S, PIPE_V}, {PIPE_V, PIPE_S}, {PIPE_S, PIPE_MTE2}, {PIPE_MTE2, PIPE_S}, {PIPE_S, PIPE_MTE3}, {PIPE_MTE3, PIPE_S},
        {PIPE_MTE2, PIPE_FIX}, {PIPE_FIX, PIPE_MTE2}, {PIPE_FIX, PIPE_S}, {PIPE_M, PIPE_S}, {PIPE_FIX, PIPE_MTE3},
        {PIPE_MTE1, PIPE_FIX}, {PIPE_FIX, PIPE_MTE1}, {PIPE_FIX, PIPE_FIX}};
    if (event < sizeof(table) / sizeof(table[0])) {
        *src = trace_pipe_of(table[event][0]);
        *dst = trace_pipe_of(table[event][1]);
    } else {
        *src = *dst = static_cast<uint8_t>(TPipe_::ALL);
    }
}

static void check_event(uint8_t event, int32_t id, Op op, const SrcLoc& loc) {
    if (event >= static_cast<uint8_t>(AscendC::HardEvent::MAX))
        Report("event-id", op, loc).msg("%s with HardEvent value %u, which is not a hardware event", op_name(op), event).fail();
    if (id < 0 || id >= 8)
        Report("event-id", op, loc)
            .msg("%s<HardEvent::%s>(%d): event ids on Ascend 910B are 0..7", op_name(op), event_name(event), id)
            .val("event_id", id).hint("use EVENT_ID0..EVENT_ID7, or an id from GetTPipePtr()->FetchEventID<...>()").fail();
}

// A flag counts its SetFlags: each WaitFlag takes one, and waits (here: an error) when none is left. The API reference
// calls a second SetFlag of the same event and id before its WaitFlag undefined behaviour and shows the one outcome it
// names, a core hung by a PipeBarrier<PIPE_ALL> between the two sets and their waits; CANN's own operators set twice and
// wait twice without a barrier between (ops-nn add_rms_norm's float32 path), and pass on the NPU. So a second set is a
// warning, the barrier over a doubly set flag an error, and a flag still set when the kernel ends an error
// (finish_block), as before.
void flag_set(uint8_t event, int32_t id, SrcLoc loc) {
    enter(Op::SetFlag, loc);
    check_event(event, id, Op::SetFlag, loc);
    Core& c = core();
    uint8_t& pending = c.flag_set[event][id];
    if (pending == 255)
        Report("event-set-twice", Op::SetFlag, loc)
            .msg("SetFlag<HardEvent::%s>(%d) set 255 times with no WaitFlag between", event_name(event), id)
            .val("event", event_name(event)).val("event_id", id)
            .hint("pair every SetFlag with a WaitFlag of the same event and id").fail();
    if (pending > 0 && first_report_at("event-set-twice", loc))
        Report("event-set-twice", Op::SetFlag, loc)
            .msg("SetFlag<HardEvent::%s>(%d) while the same flag is still set (line %d set it and no WaitFlag came between): "
                 "the API reference calls this undefined behaviour; the emulator counts the sets, so each later WaitFlag "
                 "takes one (kernels that pass on the NPU rely on it), and a PipeBarrier<PIPE_ALL> before the waits is an "
                 "error (it hangs the core)",
                 event_name(event), id, c.flag_loc[event][id].line)
            .val("event", event_name(event)).val("event_id", id)
            .hint("wait for the flag before setting it again, or give the second set an event id of its own").warn();
    ++pending;
    c.flag_loc[event][id] = loc;
    uint8_t src, dst;
    event_pipes(event, &src, &dst);
    sync_flag(TKind::SET, src, dst, static_cast<uint16_t>(id), Op::SetFlag, loc);
}

void flag_wait(uint8_t event, int32_t id, SrcLoc loc) {
    enter(Op::WaitFlag, loc);
    check_event(event, id, Op::WaitFlag, loc);
    Core& c = core();
    if (!c.flag_set[event][id]) {
        const char* names[] = {"S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX", "ALL"};
        uint8_t src, dst;
        event_pipes(event, &src, &dst);
        Report("event-unmatched", Op::WaitFlag, loc)
            .msg("WaitFlag<HardEvent::%s>(%d) with no SetFlag before it; on the NPU the %s pipe would wait forever",
                 event_name(event), id, names[dst & 7])
            .val("event", event_name(event)).val("event_id", id)
            .hint("call SetFlag<HardEvent::%s>(%d) before this WaitFlag", event_name(event), id).fail();
    }
    --c.flag_set[event][id];
    uint8_t src, dst;
    event_pipes(event, &src, &dst);
    sync_flag(TKind::WAIT, src, dst, static_cast<uint16_t>(id), Op::WaitFlag, loc);
}

int32_t event_alloc(uint8_t event, SrcLoc loc) {
    enter(Op::AllocEventID, loc);
    Core& c = core();
    if (event >= 64) Report("event-id", Op::AllocEventID, loc).msg("AllocEventID with an unknown HardEvent").fail();
    for (int i = 0; i < 8; ++i)
        if (!(c.event_ids[event] & (1u << i))) { c.event_ids[event] |= static_cast<uint8_t>(1u << i); return i; }
    Report("event-id", Op::AllocEventID, loc)
        .msg("AllocEventID<HardEvent::%s>: all 8 event ids are allocated", event_name(event))
        .hint("ReleaseEventID ids you no longer need").fail();
}
int32_t event_fetch(uint8_t event, SrcLoc loc) {
    enter(Op::FetchEventID, loc);
    Core& c = core();
    if (event >= 64) Report("event-id", Op::FetchEventID, loc).msg("FetchEventID with an unknown HardEvent").fail();
    for (int i = 0; i < 8; ++i)
        if (!(c.event_ids[event] & (1u << i))) return i;
    Report("event-id", Op::FetchEventID, loc)
        .msg("FetchEventID<HardEvent::%s>: all 8 event ids are allocated", event_name(event)).fail();
}
void event_release(uint8_t event, int32_t id, SrcLoc loc) {
    enter(Op::ReleaseEventID, loc);
    Core& c = core();
    if (event >= 64 || id < 0 || id >= 8 || !(c.event_ids[event] & (1u << id)))
        Report("event-id", Op::ReleaseEventID, loc)
            .msg("ReleaseEventID<HardEvent::%s>(%d) of an id that AllocEventID did not hand out", event_name(event), id)
            .val("event_id", id).fail();
    c.event_ids[event] &= static_cast<uint8_t>(~(1u << id));
}

void pipe_barrier(uint8_t pipe, SrcLoc loc) {
    enter(Op::PipeBarrier, loc);
    if (pipe == PIPE_S)
        Report("pipe-barrier", Op::PipeBarrier, loc)
            .msg("PipeBarrier<PIPE_S>: the scalar pipe is ordered by itself and a barrier on it is a hardware error")
            .hint("remove it; use PipeBarrier<PIPE_V>, <PIPE_MTE2>, <PIPE_MTE3> or <PIPE_ALL>").fail();
    if (pipe == PIPE_ALL) {
        const Core& c = core();
        for (int e = 0; e < 64; ++e)
            for (int id = 0; id < 8; ++id)
                if (c.flag_set[e][id] > 1)
                    Report("event-set-twice", Op::PipeBarrier, loc)
                        .msg("PipeBarrier<PIPE_ALL> while SetFlag<HardEvent::%s>(%d) is set %d times with no WaitFlag "
                             "between (last set at line %d): the API reference says this barrier hangs the core",
                             event_name(static_cast<uint8_t>(e)), id, c.flag_set[e][id], c.flag_loc[e][id].line)
                        .val("event", event_name(static_cast<uint8_t>(e))).val("event_id", id)
                        .hint("wait for the flag before setting it again, or move the barrier after the WaitFlags").fail();
    }
    record(static_cast<TPipe_>(trace_pipe_of(pipe)), TKind::BARRIER, Op::PipeBarrier, Dt::none, 0, loc);
    if (pipe == PIPE_ALL)
        if (RaceChecker* race = core().race.get()) race->barrier_all();
}

void sync_all(SrcLoc loc, bool all_cores) {
    enter(Op::SyncAll, loc);
    if (!g_launch->mixed && g_launch->block_dim > g_launch->cores)
        Report("syncall-cores", Op::SyncAll, loc)
            .msg("SyncAll with block_dim = %u on a chip with %u vector cores: blocks that never get a core never arrive, so "
                 "the kernel hangs on the NPU",
                 g_launch->block_dim, g_launch->cores)
            .val("block_dim", g_launch->block_dim).val("cores", g_launch->cores)
            .hint("launch at most %u blocks when the kernel synchronises across cores", g_launch->cores).fail();
    record(TPipe_::ALL, TKind::SYNC_ALL, Op::SyncAll, Dt::none, 0, loc);
    if (RaceChecker* race = core().race.get()) race->barrier_all();  // every pipe of the core drains first
    // among the cores of one type, or (SyncAll<false>) all of them (emu_sync_cross.cpp)
    if (g_launch->cross) return cross_sync_all(loc, all_cores);
    g_launch->scheduler->arrive(core().idx, loc);
    scalar_read_spans_forget();   // lower blocks may have written this phase's GM before this one goes on
}

// The emulated GM has no data cache: a clean-and-invalidate changes no byte. What it is for, seeing another block's GM
// writes (a block that spins on GetValue until the other blocks have set their flags: the asc-devkit gm_by_dcache
// example), needs those blocks to run: one block at a time, this block hands over to them (parallel blocks already
// run at once; cross-core launches have their own scheduler).
void gm_cache_clean_invalid() {
    if (!g_launch) return;
    gm_handover_seen();   // the block synchronises through GM in this phase (emu_gm_read_race.cpp)
    if (g_launch->parallel || g_launch->cross || !g_launch->scheduler || g_launch->block_dim < 2) return;
    g_launch->scheduler->yield(core().idx);
    scalar_read_spans_forget();   // the other blocks wrote GM meanwhile: GetValue's spans may hold their bytes now
}


void sync_all_soft(const void* gm, uint64_t gmBytes, const Local& ub, int32_t usedCores, SrcLoc loc) {
    enter(Op::SyncAll, loc);
    uint32_t n = usedCores > 0 ? static_cast<uint32_t>(usedCores) : g_launch->block_dim;
    check_gm(gm, static_cast<uint64_t>(n) * 32, false, Op::SyncAll, loc);
    (void)gmBytes;
    check_local(ub, Op::SyncAll, loc, "ubWorkspace", 32);
    check_extent(ub, static_cast<uint64_t>(n) * 32, Op::SyncAll, loc, "ubWorkspace");
    sync_all(loc);
}

}}  // namespace ascendcraft::emu
