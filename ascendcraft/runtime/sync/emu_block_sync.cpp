// AscendCraft CPU emulation: block-to-block GM flags (IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier), the
// task order of a stream, the compare-mask register and the system counter (block_sync.h). Written from the public
// AscendC documentation; no vendor code. (asc8's file.)
#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "ascendcraft_emu/block_sync.h"
#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

namespace {
bool cmp_holds(uint8_t mode, double a, double b) {   // CMPMODE: LT, GT, EQ, LE, GE, NE
    switch (mode) {
    case 0: return a < b;
    case 1: return a > b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a >= b;
    default: return a != b;
    }
}

// The flags of the current launch: (workspace, block, event) for IBSet, (workspace, block) for NotifyNextBlock,
// (workspace, round) -> arrivals for GroupBarrier. Blocks run one at a time (parallel launches go sequential first).
struct FlagState {
    const Launch* launch = nullptr;
    std::map<std::tuple<uintptr_t, int32_t, int32_t>, int> ib;          // -> the core that set it
    std::map<std::pair<uintptr_t, int64_t>, int> notified;               // -> the core that notified
    std::map<std::pair<uintptr_t, uint32_t>, std::vector<int>> arrived;  // -> the cores that arrived
    std::map<int, std::array<uint8_t, 16>> cmp_mask;   // per core
};
std::mutex g_flag_mutex;
FlagState g_flags;

FlagState& block_flags() {   // under g_flag_mutex
    if (g_flags.launch != g_launch) g_flags = FlagState{g_launch};
    return g_flags;
}

int64_t flag_block() { return g_launch->cross ? cross_block_idx(core().idx) : core().idx; }

void flags_need_sequential(const char* api) {
    if (g_launch->parallel) require_sequential(api);  // a flag orders the blocks: run them one at a time
}

void check_ub_workspace(const Local& ub, Op op, const SrcLoc& loc) {
    check_local(ub, op, loc, "ubWorkspace", 32);
    check_extent(ub, 32, op, loc, "ubWorkspace");
}

// A released wait orders this core after the setter: the setter's GM writes so far are no longer a gm-overlap with
// this core's (the tracker keeps writes since the last SyncAll; the setter's are dropped from it).
void ordered_after(int setter) {
    if (setter == core().idx) return;
    const auto copy = g_launch->overlap.ranges();
    g_launch->overlap.clear();
    OverlapTracker::Conflict unused{};
    for (const auto& [lo, r] : copy)
        if (r.block != setter) g_launch->overlap.add(lo, r.hi, r.block, &unused);
}

[[noreturn]] void never_set(Op op, const SrcLoc& loc, const std::string& what, const char* hint) {
    Report("block-flag-wait", op, loc)
        .msg("%s, but no block has set it yet: the emulator runs the blocks one after another in index order, so only "
             "a lower block (or this one, earlier) can have set it; on the NPU a wait that nothing releases hangs",
             what.c_str())
        .hint("%s", hint)
        .fail();
}
}  // namespace

void ib_set(const void* gm, const Local& ub, int32_t blockIdx, int32_t eventID, SrcLoc loc) {
    const Op op = Op::CrossCoreSetFlag;
    enter(op, loc);
    flags_need_sequential("IBSet");
    check_ub_workspace(ub, op, loc);
    // the workspace holds a 32-byte flag per (block, event): blockIdx * 32 + eventID * blocks * 32 bytes and one more
    const uint64_t need = (static_cast<uint64_t>(blockIdx) + 1) * 32 + static_cast<uint64_t>(eventID) * g_launch->block_dim * 32;
    if (blockIdx < 0 || eventID < 0)
        Report("block-flag-args", op, loc).msg("IBSet(blockIdx = %d, eventID = %d): both must be >= 0", blockIdx, eventID).fail();
    check_gm(gm, need, false, op, loc);
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc, 32, 0, static_cast<uint32_t>(eventID));
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    block_flags().ib[{reinterpret_cast<uintptr_t>(gm), blockIdx, eventID}] = core().idx;
}

void ib_wait(const void* gm, const Local& ub, int32_t blockIdx, int32_t eventID, SrcLoc loc) {
    const Op op = Op::CrossCoreWaitFlag;
    enter(op, loc);
    flags_need_sequential("IBWait");
    check_ub_workspace(ub, op, loc);
    if (blockIdx < 0 || eventID < 0)
        Report("block-flag-args", op, loc).msg("IBWait(blockIdx = %d, eventID = %d): both must be >= 0", blockIdx, eventID).fail();
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc, 32, 0, static_cast<uint32_t>(eventID));
    if (tracing_now()) return;
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    const auto set = block_flags().ib.find({reinterpret_cast<uintptr_t>(gm), blockIdx, eventID});
    if (set != block_flags().ib.end()) return ordered_after(set->second);
    never_set(op, loc, fmt("block %lld waits in IBWait(blockIdx = %d, eventID = %d)", static_cast<long long>(flag_block()),
                               blockIdx, eventID),
                  "IBSet and IBWait must name the same gmWorkspace, blockIdx and eventID, and the IBSet must come first");
}

void determine_init(const void* gm, const Local& ub, SrcLoc loc) {
    const Op op = Op::CrossCoreSetFlag;
    enter(op, loc);
    flags_need_sequential("InitDetermineComputeWorkspace");
    check_ub_workspace(ub, op, loc);
    check_gm(gm, 32, false, op, loc);
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc, 32);
}

void determine_wait_pre(const void* gm, const Local& ub, SrcLoc loc) {
    const Op op = Op::CrossCoreWaitFlag;
    enter(op, loc);
    flags_need_sequential("WaitPreBlock");
    check_ub_workspace(ub, op, loc);
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc, 32);
    const int64_t me = flag_block();
    if (me == 0 || tracing_now()) return;   // block 0 has no block before it
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    const auto set = block_flags().notified.find({reinterpret_cast<uintptr_t>(gm), me - 1});
    if (set != block_flags().notified.end()) return ordered_after(set->second);
    never_set(op, loc, fmt("block %lld waits in WaitPreBlock for block %lld's NotifyNextBlock", static_cast<long long>(me),
                               static_cast<long long>(me - 1)),
                  "every block calls WaitPreBlock, its work, then NotifyNextBlock, on the same workspace");
}

void determine_notify_next(const void* gm, const Local& ub, SrcLoc loc) {
    const Op op = Op::CrossCoreSetFlag;
    enter(op, loc);
    flags_need_sequential("NotifyNextBlock");
    check_ub_workspace(ub, op, loc);
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc, 32);
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    block_flags().notified[{reinterpret_cast<uintptr_t>(gm), flag_block()}] = core().idx;
}

void group_arrive(const void* gm, uint32_t arriveSize, uint32_t index, uint32_t round, SrcLoc loc) {
    const Op op = Op::CrossCoreSetFlag;
    enter(op, loc);
    flags_need_sequential("GroupBarrier::Arrive");
    if (index >= arriveSize)
        Report("block-flag-args", op, loc)
            .msg("GroupBarrier::Arrive(%u) with %u arriving cores: the index must be below the arrive size", index, arriveSize)
            .fail();
    check_gm(gm, 64, false, op, loc);
    record(TPipe_::MTE3, TKind::INSTR, op, Dt::none, 0, loc, 64);
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    block_flags().arrived[{reinterpret_cast<uintptr_t>(gm), round}].push_back(core().idx);
}

void group_wait(const void* gm, uint32_t arriveSize, uint32_t waitSize, uint32_t index, uint32_t round, SrcLoc loc) {
    const Op op = Op::CrossCoreWaitFlag;
    enter(op, loc);
    flags_need_sequential("GroupBarrier::Wait");
    if (index >= waitSize)
        Report("block-flag-args", op, loc)
            .msg("GroupBarrier::Wait(%u) with %u waiting cores: the index must be below the wait size", index, waitSize)
            .fail();
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc, 64);
    if (tracing_now()) return;
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    const std::vector<int> arrivals = block_flags().arrived[{reinterpret_cast<uintptr_t>(gm), round}];
    const uint32_t n = static_cast<uint32_t>(arrivals.size());
    if (n >= arriveSize) {
        for (int c : arrivals) ordered_after(c);
        return;
    }
    if (n < arriveSize)
        never_set(op, loc, fmt("block %lld waits in GroupBarrier::Wait (round %u) for %u arrivals, and %u have arrived",
                               static_cast<long long>(flag_block()), round + 1, arriveSize, n),
                  "give the arriving cores the lower block indices (the examples' `GetBlockIdx() < arriveSize`)");
}

void task_order(bool wait, SrcLoc loc) {
    // One launch: no kernel of the stream runs before or after it here, so there is nothing to wait for or to release.
    const Op op = wait ? Op::CrossCoreWaitFlag : Op::CrossCoreSetFlag;
    enter(op, loc);
    record(TPipe_::S, TKind::INSTR, op, Dt::none, 0, loc);
}

void compare_to_register(Dt dt, uint8_t mode, const Local& a, const Local& b, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    const Op op = Op::Compare;
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es;
    if (dt == Dt::i32 && mode != 2)
        Report("unsupported", op, loc)
            .msg("Compare on int32_t supports only CMPMODE::EQ on Ascend 910B (A2)")
            .hint("cast to float first, or compare for equality").fail();
    Geometry g = resolve(lanes, epr, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src0");
    check_operand(g, b, s[2], es, true, op, loc, "src1");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        race.read(g, b, s[2], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, g.active() * es * 2, g.active(), 1);
    if (tracing_now()) return;
    std::array<uint8_t, 16> bits{};
    for (uint32_t l = 0; l < epr && l < 128; ++l)
        if (g.on(0, l) && cmp_holds(mode, load_d(dt, a.addr + lane_offset(g, s[1], es, 0, l)),
                                  load_d(dt, b.addr + lane_offset(g, s[2], es, 0, l))))
            bits[l / 8] |= static_cast<uint8_t>(1u << (l % 8));
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    block_flags().cmp_mask[core().idx] = bits;
}

// Select in VSEL_CMPMASK_SPR mode without a selMask tensor: lane l of every repeat takes src0 where bit l of the
// compare-mask register (the last Compare without dst, or SetCmpMask) is 1, else src1; the lanes are the vector mask's.
void vec_select_cmpmask(Dt dt, uint8_t mode, const Local& d, const Local& a, const Local& b, const Lanes& lanes, const Stride* s,
                        SrcLoc loc) {
    const Op op = Op::Select;
    enter(op, loc);
    if (mode != 0)
        Report("unsupported", op, loc)
            .msg("Select<T, SELMODE> without a selMask tensor is emulated for Ascend 910B (A2) in VSEL_CMPMASK_SPR mode only (mode %u here)", mode)
            .hint("pass the selMask tensor: Select(dst, selMask, src0, src1, SELMODE::VSEL_TENSOR_TENSOR_MODE, ...)").fail();
    const uint32_t es = dt_size(dt), epr = 256 / es;
    Geometry g = resolve(lanes, epr, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src0");
    check_operand(g, b, s[2], es, true, op, loc, "src1");
    check_operand(g, d, s[0], es, false, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        race.read(g, b, s[2], es);
        race.write(g, d, s[0], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, g.active() * es * 3, g.active(), g.repeats);
    if (tracing_now()) return;
    std::array<uint8_t, 16> reg;
    {
        std::lock_guard<std::mutex> lock(g_flag_mutex);
        reg = block_flags().cmp_mask[core().idx];   // all zeros until a Compare or SetCmpMask writes it
    }
    for (uint32_t r = 0; r < g.repeats; ++r)
        for (uint32_t l = 0, top = g.max_lane(r); l < top; ++l) {
            if (!g.on(r, l)) continue;
            const bool take0 = (reg[l / 8] >> (l % 8)) & 1;
            const uint8_t* src = take0 ? a.addr + lane_offset(g, s[1], es, r, l) : b.addr + lane_offset(g, s[2], es, r, l);
            std::memmove(d.addr + lane_offset(g, s[0], es, r, l), src, es);
        }
    mark_operand(g, d, s[0], es);
}

void cmp_mask_move(const Local& t, bool to_ub, SrcLoc loc) {
    const Op op = Op::Copy;
    enter(op, loc);
    check_local(t, op, loc, to_ub ? "dst" : "src", 32);
    check_extent(t, 16, op, loc, to_ub ? "dst" : "src");
    if (RaceScope race{TPipe_::V, op, loc}) {
        if (to_ub) race.write(t.addr, 16);
        else race.read(t.addr, 16);
    }
    record(TPipe_::V, TKind::INSTR, op, Dt::u8, 0, loc, 16, 16, 1);
    if (tracing_now()) return;
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    auto& reg = block_flags().cmp_mask[core().idx];   // all zeros until a Compare or SetCmpMask writes it
    if (to_ub) {
        std::memcpy(t.addr, reg.data(), 16);
        mark_written(t, 0, 16);
    } else {
        std::memcpy(reg.data(), t.addr, 16);
    }
}

// The compare-mask register as the raw vsel reads it (raw_vector_compare.h): its scalar (mode 1) or the selMask's UB
// address (mode 2), whichever the kernel's set_cmpmask put there.
void cmp_mask_read(uint8_t out[16], SrcLoc loc) {
    enter(Op::Select, loc);
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    std::memcpy(out, block_flags().cmp_mask[core().idx].data(), 16);   // all zeros until a Compare or SetCmpMask writes it
}

void data_sync_barrier(uint8_t kind, SrcLoc loc) {
    (void)kind;
    enter(Op::PipeBarrier, loc);
    record(TPipe_::S, TKind::INSTR, Op::PipeBarrier, Dt::none, 0, loc);
}

int64_t system_cycle(SrcLoc loc) {
    enter(Op::GetValue, loc);
    record(TPipe_::S, TKind::INSTR, Op::GetValue, Dt::none, 0, loc);
    const Core& c = core();
    if (tracing_now()) return static_cast<int64_t>(c.trace.size());
    scalar_reads_flush();
    uint64_t n = 0;
    for (uint64_t w : c.work_count) n += w;
    return static_cast<int64_t>(n);
}

}}  // namespace ascendcraft::emu
