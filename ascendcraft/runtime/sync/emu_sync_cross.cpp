// AscendCraft CPU emulation runtime: the cores of a launch (AIC and AIV, by kernel type) and the synchronisation
// between cores: CrossCoreSetFlag / CrossCoreWaitFlag and, in a mixed launch, SyncAll. The semantics are in
// include/ascendcraft_emu/sync_cross.h.
//
// A launch that has cube and vector cores, or that uses cross-core flags, runs its cores on the CrossScheduler:
// one core at a time (like the plain Scheduler), a core that waits hands over to the next one that can run, and
// when every live core waits for something no core can still give, the run stops with a deadlock error at each
// waiting line instead of hanging. Every core keeps a vector clock; a flag or a barrier carries the setter's clock to
// the waiter, so "core B's read happens after core A's write" is decided by the program's synchronisation, not
// by the order this emulator happened to run the cores in. A read of GM bytes another core wrote without such an
// edge (the cube's output read by the vector core without its CrossCoreWaitFlag) is a `cross-core-race` error at
// the read; a write over bytes another core read without an edge is one at the write.
#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>

#include "ascendcraft_emu/driver.h"
#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/sync_cross.h"

namespace ascendcraft { namespace emu {

namespace {

constexpr int kFlagIds = 16;       // flag ids 0..15 per core in modes 0, 1 and 2 on A2 (the CrossCoreSetFlag page)
constexpr int kSyncAllLo = 11, kSyncAllHi = 14;  // the ids the hardware SyncAll sets and waits on itself
constexpr uint32_t kFlagMax = 15;  // a flag's counter holds at most 15 pending sets

// ---- the kernel type the build found (see ascendcraft.emu_kind) ----------------------------------------
struct KindTable {
    int def = -1;                                // KERNEL_TYPE_*, -1 = not declared (the legacy behaviour)
    std::vector<std::pair<uint64_t, int>> keys;  // KERNEL_TASK_TYPE(key, type)
    bool cross = false;                          // the kernel calls CrossCoreSetFlag / CrossCoreWaitFlag
};
KindTable g_kind;

// ---- the launch's cores ---------------------------------------------------------------------------------------
struct Layout {
    int kind = -1;
    int aic = 0, aiv = 0;   // per group
    int groups = 0;
    int per_group() const { return aic + aiv; }
    int slots() const { return groups * per_group(); }
    bool is_aic(int slot) const { return aic && slot % per_group() == 0; }
    int group(int slot) const { return slot / per_group(); }
    int sub(int slot) const { return is_aic(slot) ? 0 : slot % per_group() - aic; }
};
Layout g_layout;

struct CoreRole {
    bool set = false, aic = false;
    int slot = 0;
};
thread_local CoreRole t_role;
thread_local bool t_legacy_aic = false;  // undeclared kernels: KERNEL_TASK_TYPE_DEFAULT(AIC_ONLY) at run time

const char* kind_name(int kind) {
    static const char* names[] = {"KERNEL_TYPE_AIV_ONLY", "KERNEL_TYPE_AIC_ONLY", "KERNEL_TYPE_MIX_AIV_1_0",
                                  "KERNEL_TYPE_MIX_AIC_1_0", "KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2"};
    return kind >= 0 && kind < 6 ? names[kind] : "undeclared";
}

std::string core_name(int slot) {
    if (!g_layout.aic || !g_layout.aiv) return fmt("%s %d", g_layout.aic ? "AIC" : "AIV", slot);
    if (g_layout.is_aic(slot)) return fmt("the AIC of group %d", g_layout.group(slot));
    return fmt("AIV %d of group %d (GetBlockIdx() %d)", g_layout.sub(slot), g_layout.group(slot),
               g_layout.group(slot) * g_layout.aiv + g_layout.sub(slot));
}

// ---- vector clocks ----------------------------------------------------------------------------------------------
using CoreClock = std::vector<uint32_t>;
void merge(CoreClock& into, const CoreClock& from) {
    for (size_t i = 0; i < into.size() && i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// ---- GM accesses of the cores: the last writer of each byte, and each core's reads ------------------------------
struct Access {
    int slot = -1;
    uint32_t tag = 0;        // the core's own clock when it made the access
    bool atomic = false;
    SrcLoc loc;
    Op op = Op::Kernel;
    // A write only: the other AIV of the group whose Matmul request put these same bytes here before (see
    // cross_gm_write); a core ordered after either write reads what it expects.
    int twin_slot = -1;
    uint32_t twin_tag = 0;
    bool operator==(const Access& o) const {
        return slot == o.slot && tag == o.tag && atomic == o.atomic && loc.line == o.loc.line && loc.file == o.loc.file &&
               twin_slot == o.twin_slot && twin_tag == o.twin_tag;
    }
    // `clock` (a core's) orders this access before that core's next one
    bool known_to(const CoreClock& clock) const {
        return clock[slot] > tag || (twin_slot >= 0 && clock[twin_slot] > twin_tag);
    }
};
// Byte ranges [lo, hi) -> the access that covers them, non-overlapping.
class RangeMap {
public:
    template <typename F> void each(uint64_t lo, uint64_t hi, F&& f) const {
        auto it = m_.upper_bound(lo);
        if (it != m_.begin()) --it;
        for (; it != m_.end() && it->first < hi; ++it)
            if (it->second.first > lo) f(std::max(lo, it->first), std::min(hi, it->second.first), it->second.second);
    }
    void assign(uint64_t lo, uint64_t hi, const Access& a) {
        if (lo >= hi) return;
        cut(lo);
        cut(hi);
        m_.erase(m_.lower_bound(lo), m_.lower_bound(hi));
        auto it = m_.emplace(lo, std::make_pair(hi, a)).first;
        if (it != m_.begin()) {  // merge with an equal left neighbour
            auto prev = std::prev(it);
            if (prev->second.first == lo && prev->second.second == a) { prev->second.first = hi; m_.erase(it); it = prev; }
        }
        auto next = std::next(it);
        if (next != m_.end() && next->first == it->second.first && next->second.second == a) {
            it->second.first = next->second.first;
            m_.erase(next);
        }
    }

private:
    void cut(uint64_t at) {
        auto it = m_.upper_bound(at);
        if (it == m_.begin()) return;
        --it;
        if (it->first < at && it->second.first > at) {
            m_.emplace(at, it->second);
            it->second.first = at;
        }
    }
    std::map<uint64_t, std::pair<uint64_t, Access>> m_;
};

// ---- the cooperative scheduler ----------------------------------------------------------------------------------
class CrossScheduler {
public:
    CrossScheduler(int slots, void (*body)(int)) : slots_(slots), body_(body), state_(slots, kNew), why_(slots), loc_(slots) {}
    void run();
    // On a core's thread: wait (handing the CPU to the other cores) until `ready()` holds.
    void block_until(int slot, std::function<bool()> ready, const SrcLoc& loc, std::string why);
    bool finished(int slot) const { return state_[slot] == kDone; }

private:
    enum State { kNew, kRunning, kBlocked, kDone };
    void start(int slot);
    int slots_;
    void (*body_)(int);
    std::vector<State> state_;
    std::vector<std::function<bool()>> ready_;
    std::vector<std::string> why_;
    std::vector<SrcLoc> loc_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable cv_;
    int turn_ = -1;
    int next_new_ = 0;
};

void CrossScheduler::start(int slot) {
    state_[slot] = kRunning;
    turn_ = slot;
    threads_.emplace_back([this, slot] {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [&] { return turn_ == slot; });
        }
        body_(slot);
        std::unique_lock<std::mutex> lock(mutex_);
        state_[slot] = kDone;
        turn_ = -1;
        cv_.notify_all();
    });
}

void CrossScheduler::block_until(int slot, std::function<bool()> ready, const SrcLoc& loc, std::string why) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (ready()) return;
    ready_.resize(slots_);
    ready_[slot] = std::move(ready);
    why_[slot] = std::move(why);
    loc_[slot] = loc;
    state_[slot] = kBlocked;
    turn_ = -1;
    cv_.notify_all();
    cv_.wait(lock, [&] { return turn_ == slot; });
}

void CrossScheduler::run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        int next = -1;
        for (int s = 0; s < slots_ && next < 0; ++s)
            if (state_[s] == kBlocked && ready_[s]()) next = s;
        if (next >= 0) {
            state_[next] = kRunning;
            turn_ = next;
            cv_.notify_all();
        } else if (next_new_ < slots_) {
            start(next_new_++);
            cv_.notify_all();
        } else {
            int blocked = -1;
            for (int s = 0; s < slots_ && blocked < 0; ++s)
                if (state_[s] == kBlocked) blocked = s;
            if (blocked < 0) break;  // every core finished
            // every live core waits and nothing can release any of them: on the NPU the kernel hangs
            std::string others;
            int n = 0;
            for (int s = 0; s < slots_; ++s)
                if (state_[s] == kBlocked && s != blocked && n++ < 4)
                    others += fmt("%s%s at line %d (%s)", others.empty() ? "" : "; ", core_name(s).c_str(), loc_[s].line,
                                  why_[s].c_str());
            Report("cross-core-deadlock", Op::Kernel, loc_[blocked])
                .block(blocked)
                .msg("deadlock: %s waits here (%s), and no core that is still running can release it%s%s: on the NPU "
                     "the kernel hangs",
                     core_name(blocked).c_str(), why_[blocked].c_str(), others.empty() ? "" : "; also waiting: ",
                     others.c_str())
                .val("core", core_name(blocked).c_str())
                .hint("every CrossCoreWaitFlag needs a matching CrossCoreSetFlag on the cores that release it (mode 2: the "
                      "AIC's set releases its AIVs and both AIVs' sets release the AIC), executed the same number of times; "
                      "keep SyncAll out of branches that only some cores take")
                .fail();
        }
        cv_.wait(lock, [&] { return turn_ == -1; });
    }
    lock.unlock();
    for (std::thread& t : threads_) if (t.joinable()) t.join();
    threads_.clear();
}

// ---- the state of a cross-core launch -------------------------------------------------------------------------
struct Counter {
    uint32_t count = 0;
    std::deque<CoreClock> clocks;  // the clock each pending set carries
    SrcLoc last_set;
};
struct Party {                 // sets that release once each of several cores has made one (modes 0, 1, AIV -> AIC)
    std::vector<std::deque<CoreClock>> pending;  // per member: the clocks of its sets not yet part of a release
};
struct CrossState {
    CrossScheduler* scheduler = nullptr;
    std::vector<CoreClock> clocks;                       // per slot
    std::vector<std::array<Counter, kFlagIds>> flags;  // per slot
    std::map<std::pair<int, int>, Party> parties;    // (party key, id)
    // SyncAll among the cores of one type (0 AIC, 1 AIV), and SyncAll<false> among all of them (2)
    uint32_t barrier_arrived[3] = {0, 0, 0}, barrier_gen[3] = {0, 0, 0};
    CoreClock barrier_acc[3], barrier_done[3];
    RangeMap writes;
    bool pair_warned = false;     // the AIV pair's duplicated writes: one warning a launch
    // a flag id the hardware SyncAll also uses (11..14), and the hardware SyncAll: one warning a launch when both
    SrcLoc reserved_flag, sync_all;
    int reserved_id = -1;
    bool syncall_warned = false;
    std::vector<RangeMap> reads;  // per slot
    // the tilings each group's AIC handed REGIST_MATMUL_OBJ, by the Matmul object's place in its list (matmul_server)
    std::map<std::pair<int, int>, std::vector<uint8_t>> server_tilings;
};
CrossState* g_cross = nullptr;

int my_slot() { return current_core() ? current_core()->idx : 0; }
bool my_aic() { return t_role.set ? t_role.aic : t_legacy_aic; }

// Where a GM byte range lives, for messages; nullptr for buffers no core writes (inputs, tiling).
const GmBuffer* tracked_buffer(const void* p, uint64_t bytes) {
    const GmBuffer* b = g_launch->gm.find(p, bytes);
    if (!b || !b->real || b->role == Role::In || b->role == Role::Tiling) return nullptr;
    return b;
}

void deliver(int slot, int id, const CoreClock& clock, const SrcLoc& loc) {
    Counter& c = g_cross->flags[slot][id];
    if (c.count >= kFlagMax)
        Report("cross-flag-overflow", Op::CrossCoreSetFlag, loc)
            .msg("CrossCoreSetFlag(%d) gives %s its %u-th pending set of flag %d: the hardware counter holds at most %u "
                 "(it was last set at line %d without being waited for)",
                 id, core_name(slot).c_str(), c.count + 1, id, kFlagMax, c.last_set.line)
            .val("flag_id", id).val("pending", c.count + 1)
            .hint("wait for the flag (CrossCoreWaitFlag(%d)) on that core before setting it again", id)
            .fail();
    ++c.count;
    c.clocks.push_back(clock);
    c.last_set = loc;
}

}  // namespace

// ---- what the rest of the runtime asks ---------------------------------------------------------------------------
void declare_kernel_kind(int def, const uint64_t* keys, const int* types, int n, bool cross) {
    g_kind.def = def;
    g_kind.keys.clear();
    for (int i = 0; i < n; ++i) g_kind.keys.emplace_back(keys[i], types[i]);
    g_kind.cross = cross;
}

uint32_t cross_prepare(uint32_t block_dim, uint64_t tiling_key) {
    int kind = g_kind.def;
    for (const auto& k : g_kind.keys)
        if (k.first == tiling_key) kind = k.second;
    Layout l;
    l.kind = kind;
    l.groups = static_cast<int>(block_dim);
    switch (kind) {
    case AscendC::KERNEL_TYPE_AIC_ONLY: case AscendC::KERNEL_TYPE_MIX_AIC_1_0: l.aic = 1; break;
    case AscendC::KERNEL_TYPE_MIX_AIC_1_1: l.aic = 1; l.aiv = 1; break;
    case AscendC::KERNEL_TYPE_MIX_AIC_1_2: l.aic = 1; l.aiv = 2; break;
    default: l.aiv = 1; break;  // AIV_ONLY, MIX_AIV_1_0 and undeclared kernels
    }
    g_layout = l;
    g_launch->mixed = l.aic && l.aiv;
    g_launch->cross = g_launch->mixed || g_kind.cross;
    return static_cast<uint32_t>(l.slots());
}

std::string cross_layout_json() {
    return fmt("{\"kernel_type\":\"%s\",\"aic_per_group\":%d,\"aiv_per_group\":%d,\"groups\":%d}", kind_name(g_layout.kind),
               g_layout.aic, g_layout.aiv, g_layout.groups);
}

void cross_run(uint32_t slots, void (*body)(int)) {
    CrossState state;
    CrossScheduler scheduler(static_cast<int>(slots), body);
    state.scheduler = &scheduler;
    state.clocks.assign(slots, CoreClock(slots, 0));
    state.flags.resize(slots);
    state.reads.resize(slots);
    for (int t = 0; t < 3; ++t) state.barrier_acc[t] = state.barrier_done[t] = CoreClock(slots, 0);
    g_cross = &state;
    scheduler.run();
    // a flag set and never waited for stays set on the hardware and releases a wait of the next kernel
    for (uint32_t s = 0; s < slots; ++s)
        for (int id = 0; id < kFlagIds; ++id)
            if (state.flags[s][id].count)
                Report("cross-flag-unmatched", Op::CrossCoreSetFlag, state.flags[s][id].last_set)
                    .block(static_cast<int>(s))
                    .msg("flag %d of %s was set %u time(s) more than it was waited for when the kernel ended", id,
                         core_name(static_cast<int>(s)).c_str(), state.flags[s][id].count)
                    .val("flag_id", id)
                    .hint("every CrossCoreSetFlag needs a CrossCoreWaitFlag(%d) on the cores it releases; a pending set "
                          "releases a wait of the next kernel on the NPU", id)
                    .warn();
    g_cross = nullptr;
}

void cross_begin_core(int slot) {
    t_role.set = g_layout.kind >= 0;
    t_role.slot = slot;
    t_role.aic = g_layout.is_aic(slot);
    t_legacy_aic = false;
}

int64_t cross_block_idx(int slot) {
    if (!g_layout.aic || !g_layout.aiv) return slot;
    const int g = g_layout.group(slot);
    return g_layout.is_aic(slot) ? g : g * g_layout.aiv + g_layout.sub(slot);
}
int64_t cross_sub_block_idx() {
    Core* c = current_core();
    if (!c || !g_launch || !g_launch->mixed) return 0;
    return g_layout.sub(c->idx);
}
int64_t cross_task_ration() {
    Core* c = current_core();
    if (!c || !g_launch || !g_launch->mixed) return 1;
    return g_layout.is_aic(c->idx) ? 1 : g_layout.aiv;
}

void kernel_type_set(int type) {
    if (g_layout.kind >= 0) return;  // the launch was laid out for the declared type already
    t_legacy_aic = type == AscendC::KERNEL_TYPE_AIC_ONLY;
}
int kernel_type_declared(int type) {   // at file scope it runs before any launch: nothing to record then
    if (g_launch) kernel_type_set(type);
    return type;
}
bool kernel_on_aic() { return my_aic(); }
bool kernel_mixed_aic() { return g_launch && g_launch->mixed && my_aic(); }

// ---- CrossCoreSetFlag / CrossCoreWaitFlag ---------------------------------------------------------------------
namespace {
// A flag id outside 0..15: on A2 the hardware keeps the id's low 4 bits, so the kernel would set or wait on another
// flag than it names; the emulator stops at the call.
void check_flag_id(Op op, const char* what, int mode, int64_t id, const SrcLoc& loc) {
    if (id >= 0 && id < kFlagIds) return;
    const long long v = static_cast<long long>(id);
    Report r("cross-flag-id", op, loc);
    if (mode >= 0)
        r.msg("%s<%d>(%lld): flag ids are 0..15 in modes 0, 1 and 2 on Ascend 910B (A2), 16 per core", what, mode, v);
    else
        r.msg("%s(%lld): flag ids are 0..15 in modes 0, 1 and 2 on Ascend 910B (A2), 16 per core", what, v);
    r.val("flag_id", id);
    if (id >= kFlagIds)
        r.hint("use a flag id from 0 to 15 (the hardware keeps only the low 4 bits: %lld would be flag %lld, another "
               "hand-over's flag)", v, v & 15);
    else
        r.hint("use a flag id from 0 to 15");
    r.fail();
}
// The hardware SyncAll uses flag ids 11..14 itself: a kernel that also hands over on one of them counts SyncAll's
// sets as its own (or SyncAll counts the kernel's). One warning a launch, at the flag, naming the SyncAll.
void check_syncall_clash(Op op, int64_t id, const SrcLoc& loc, bool is_sync_all) {
    CrossState& st = *g_cross;
    if (is_sync_all) { if (!st.sync_all.line) st.sync_all = loc; }
    else if (id >= kSyncAllLo && id <= kSyncAllHi && st.reserved_id < 0) { st.reserved_flag = loc; st.reserved_id = static_cast<int>(id); }
    if (st.syncall_warned || st.reserved_id < 0 || !st.sync_all.line) return;
    st.syncall_warned = true;
    Report("cross-flag-syncall", Op::CrossCoreSetFlag, st.reserved_flag)
        .msg("flag %d, in a kernel that also calls SyncAll() (line %d): the hardware SyncAll sets and waits on flag ids "
             "11..14 itself, so the two count each other's sets", st.reserved_id, st.sync_all.line)
        .val("flag_id", st.reserved_id).val("sync_all_line", st.sync_all.line)
        .hint("hand over on a flag id from 0 to 10 or 15, or synchronise with the software SyncAll(gmWorkspace, ubWorkspace)")
        .warn();
    (void)op;
}
}  // namespace

void cross_set_flag(uint8_t mode, uint8_t pipe, int64_t id, SrcLoc loc) {
    enter(Op::CrossCoreSetFlag, loc);
    check_flag_id(Op::CrossCoreSetFlag, "CrossCoreSetFlag", mode, id, loc);
    if (!g_cross)
        Report("cross-flag-launch", Op::CrossCoreSetFlag, loc)
            .msg("CrossCoreSetFlag in a kernel the emulator did not lay out for cross-core flags")
            .hint("declare the kernel type with KERNEL_TASK_TYPE_DEFAULT(...) in the kernel function").fail();
    check_syncall_clash(Op::CrossCoreSetFlag, id, loc, false);
    const int slot = my_slot();
    const bool aic = g_layout.is_aic(slot);
    if (mode == 1 && (aic || g_layout.aiv < 2))
        Report("cross-flag-mode", Op::CrossCoreSetFlag, loc)
            .msg("CrossCoreSetFlag<1> (between the two AIVs of a group) on %s, in a %s launch: on Ascend 910B (A2) only a "
                 "KERNEL_TYPE_MIX_AIC_1_2 group has two AIVs", core_name(slot).c_str(),
                 kind_name(g_layout.kind))
            .hint("mode 1 needs KERNEL_TYPE_MIX_AIC_1_2 and runs on the AIVs; use mode 0 to synchronise all cores of one type")
            .fail();
    if (mode == 2 && !g_launch->mixed)
        Report("cross-flag-mode", Op::CrossCoreSetFlag, loc)
            .msg("CrossCoreSetFlag<2> (AIC <-> AIV) in a %s launch, which on Ascend 910B (A2) starts no %s core to release", kind_name(g_layout.kind),
                 aic ? "vector" : "cube")
            .hint("mode 2 needs a mixed kernel: KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) (or 1_1)").fail();
    record(static_cast<TPipe_>(trace_pipe_of(pipe)), TKind::INSTR, Op::CrossCoreSetFlag, Dt::none, 0, loc, 0,
           static_cast<uint64_t>(mode), static_cast<uint32_t>(id));
    CrossState& st = *g_cross;
    CoreClock& mine = st.clocks[slot];
    ++mine[slot];  // what this core did before the set happens before what the released cores do after their wait
    const int g = g_layout.group(slot);
    // `member` of `need` cores has set: every time each member has a set pending, one release
    auto party = [&](int key, uint32_t need, uint32_t member, const std::function<void(const CoreClock&)>& release) {
        Party& p = st.parties[{key, static_cast<int>(id)}];
        p.pending.resize(need);
        p.pending[member].push_back(mine);
        for (const auto& q : p.pending)
            if (q.empty()) return;
        CoreClock c(mine.size(), 0);
        for (auto& q : p.pending) { merge(c, q.front()); q.pop_front(); }
        release(c);
    };
    if (mode == 2 && aic) {
        for (int k = 0; k < g_layout.aiv; ++k) deliver(slot + 1 + k, static_cast<int>(id), mine, loc);
    } else if (mode == 2) {
        party(2 * 1000000 + g, static_cast<uint32_t>(g_layout.aiv), static_cast<uint32_t>(g_layout.sub(slot)),
              [&](const CoreClock& c) { deliver(g * g_layout.per_group(), static_cast<int>(id), c, loc); });
    } else if (mode == 1) {
        party(1 * 1000000 + g, static_cast<uint32_t>(g_layout.aiv), static_cast<uint32_t>(g_layout.sub(slot)), [&](const CoreClock& c) {
            for (int k = 0; k < g_layout.aiv; ++k) deliver(g * g_layout.per_group() + g_layout.aic + k, static_cast<int>(id), c, loc);
        });
    } else {
        const uint32_t n = static_cast<uint32_t>(g_layout.groups * (aic ? g_layout.aic : g_layout.aiv));
        const uint32_t member = static_cast<uint32_t>(aic ? g : g * g_layout.aiv + g_layout.sub(slot));
        party(aic ? -1 : -2, n, member, [&](const CoreClock& c) {
            for (int s = 0; s < g_layout.slots(); ++s)
                if (g_layout.is_aic(s) == aic) deliver(s, static_cast<int>(id), c, loc);
        });
    }
}

void cross_wait_flag(int64_t id, SrcLoc loc) {
    enter(Op::CrossCoreWaitFlag, loc);
    check_flag_id(Op::CrossCoreWaitFlag, "CrossCoreWaitFlag", -1, id, loc);
    if (!g_cross)
        Report("cross-flag-launch", Op::CrossCoreWaitFlag, loc)
            .msg("CrossCoreWaitFlag in a kernel the emulator did not lay out for cross-core flags")
            .hint("declare the kernel type with KERNEL_TASK_TYPE_DEFAULT(...) in the kernel function").fail();
    check_syncall_clash(Op::CrossCoreWaitFlag, id, loc, false);
    const int slot = my_slot();
    Counter& c = g_cross->flags[slot][id];
    g_cross->scheduler->block_until(slot, [&c] { return c.count > 0; }, loc, fmt("CrossCoreWaitFlag(%lld)", static_cast<long long>(id)));
    --c.count;
    merge(g_cross->clocks[slot], c.clocks.front());
    c.clocks.pop_front();
    record(TPipe_::S, TKind::INSTR, Op::CrossCoreWaitFlag, Dt::none, 0, loc, 0, 0, static_cast<uint32_t>(id));
}

// SyncAll in a cross-core launch: a barrier among the cores of the caller's type; with `all_cores` (SyncAll<false>, a
// fused kernel's: the API reference's "each core type's barrier, then the two types' with each other"), among all the
// launch's cores, so an AIV's reads after it follow every AIC's writes before it.
void cross_sync_all(SrcLoc loc, bool all_cores) {
    check_syncall_clash(Op::SyncAll, -1, loc, true);
    CrossState& st = *g_cross;
    const int slot = my_slot();
    const int t = all_cores ? 2 : g_layout.is_aic(slot) ? 0 : 1;
    const uint32_t n = static_cast<uint32_t>(all_cores ? g_layout.slots()
                                                       : g_layout.groups * (t == 0 ? g_layout.aic : g_layout.aiv));
    CoreClock& mine = st.clocks[slot];
    ++mine[slot];
    merge(st.barrier_acc[t], mine);
    const uint32_t gen = st.barrier_gen[t];
    if (++st.barrier_arrived[t] == n) {
        st.barrier_done[t] = st.barrier_acc[t];
        st.barrier_acc[t].assign(mine.size(), 0);
        st.barrier_arrived[t] = 0;
        ++st.barrier_gen[t];
        g_launch->overlap.clear();
    } else {
        uint32_t* g = &st.barrier_gen[t];
        st.scheduler->block_until(slot, [g, gen] { return *g != gen; }, loc, fmt("SyncAll #%u", gen + 1));
    }
    merge(mine, st.barrier_done[t]);
}

// ---- GM accesses -----------------------------------------------------------------------------------------------
void cross_gm_read(const void* p, uint64_t bursts, uint64_t burst_bytes, uint64_t stride, Op op, const SrcLoc& loc) {
    if (!g_cross || !bursts || !burst_bytes) return;
    const uint64_t span = (bursts - 1) * stride + burst_bytes;
    const GmBuffer* b = tracked_buffer(p, span);
    if (!b) return;
    CrossState& st = *g_cross;
    const int slot = my_slot();
    const CoreClock& mine = st.clocks[slot];
    const Access me{slot, mine[slot], false, loc, op};
    for (uint64_t k = 0; k < bursts; ++k) {
        const uint64_t lo = reinterpret_cast<uintptr_t>(p) + k * stride, hi = lo + burst_bytes;
        st.writes.each(lo, hi, [&](uint64_t a, uint64_t z, const Access& w) {
            if (w.slot == slot || w.twin_slot == slot || w.known_to(mine)) return;
            const int64_t off = static_cast<int64_t>(a - reinterpret_cast<uintptr_t>(b->base));
            Report("cross-core-race", op, loc)
                .msg("%s reads bytes %lld..%lld of '%s' that %s wrote at line %d (%s), with no CrossCoreSetFlag / "
                     "CrossCoreWaitFlag (or SyncAll) between the write and this read: on the NPU the cores run at the same "
                     "time, so this read can see the data before it is written",
                     core_name(slot).c_str(), static_cast<long long>(off), static_cast<long long>(off + (z - a) - 1),
                     b->name.c_str(), core_name(w.slot).c_str(), w.loc.line, op_name(w.op))
                .val("buffer", b->name.c_str()).val("offset", off).val("writer_line", w.loc.line)
                .val("writer", core_name(w.slot).c_str())
                .hint("hand the data over: after the write, CrossCoreSetFlag<2, PIPE_FIX>(id) on the AIC (PIPE_MTE3 on an "
                      "AIV); before this read, CrossCoreWaitFlag(id)")
                .fail();
        });
        st.reads[slot].assign(lo, hi, me);
    }
}

// Whether GM already holds `src`'s bytes at p (an aliased buffer's bytes materialised first, so the comparison reads them).
static bool holds_values(const GmBuffer& b, const void* p, const void* src, uint64_t bytes) {
    if (b.alias) gm_materialise(b);
    return std::memcmp(gm_source(b, p), src, bytes) == 0;
}

void cross_gm_write(const void* p, uint64_t bytes, bool atomic, Op op, const SrcLoc& loc, const void* src) {
    if (!g_cross || !bytes) return;
    const GmBuffer* b = tracked_buffer(p, bytes);
    if (!b) return;
    CrossState& st = *g_cross;
    const int slot = my_slot();
    const CoreClock& mine = st.clocks[slot];
    const uint64_t lo = reinterpret_cast<uintptr_t>(p), hi = lo + bytes;
    auto offset = [&](uint64_t a) { return static_cast<int64_t>(a - reinterpret_cast<uintptr_t>(b->base)); };
    // The Matmul API's client / server form (the REGIST_MATMUL_OBJ and CubeResGroupHandle pages): in a mixed launch an
    // AIV's Matmul call is a request that its group's one AIC runs, and each AIV that makes the call makes its own
    // request. Two AIVs asking for the same product get the same C bytes written twice by that AIC. The emulator runs
    // each request in place on its AIV. A Matmul write that leaves every byte as it was (`src`, the values it brings,
    // equal to what GM holds) cannot be seen by the other AIV's reads, nor change what the other AIV's request left
    // there: no hazard with that AIV. Any other core, and any write that changes a byte, is checked as before.
    bool rewrite = false;
    if (src && !atomic && op == Op::Matmul && g_launch->mixed && !g_layout.is_aic(slot)) {
        rewrite = holds_values(*b, p, src, bytes);
    }
    auto group_aiv = [&](int other) {
        return other != slot && !g_layout.is_aic(other) && g_layout.group(other) == g_layout.group(slot);
    };
    for (size_t r = 0; r < st.reads.size(); ++r) {
        if (static_cast<int>(r) == slot) continue;
        st.reads[r].each(lo, hi, [&](uint64_t a, uint64_t z, const Access& rd) {
            if (mine[rd.slot] > rd.tag || (rewrite && group_aiv(rd.slot))) return;
            Report("cross-core-race", op, loc)
                .msg("%s writes bytes %lld..%lld of '%s' that %s reads at line %d (%s), with no CrossCoreSetFlag / "
                     "CrossCoreWaitFlag (or SyncAll) between them: on the NPU the cores run at the same time, so the read "
                     "can see this write or the data before it",
                     core_name(slot).c_str(), static_cast<long long>(offset(a)), static_cast<long long>(offset(z) - 1),
                     b->name.c_str(), core_name(rd.slot).c_str(), rd.loc.line, op_name(rd.op))
                .val("buffer", b->name.c_str()).val("offset", offset(a)).val("reader_line", rd.loc.line)
                .val("reader", core_name(rd.slot).c_str())
                .hint("order them: the reader sets a flag when it is done (CrossCoreSetFlag<2, ...>), and the writer "
                      "waits for it (CrossCoreWaitFlag) before overwriting")
                .fail();
        });
    }
    // A write of the values GM already holds there (`src` equal to the bytes the other core wrote): the NPU ends with
    // those values whichever core writes last, so it is shared, not an overlap, as between the blocks of a launch
    // without cube cores (track_gm_write). Any byte that differs is checked as before.
    int same_values = rewrite ? 1 : -1;   // -1: not compared yet (only a write over another core's needs it)
    auto unchanged = [&] {
        if (same_values < 0) {
            same_values = 0;
            if (src && !atomic) same_values = holds_values(*b, p, src, bytes);
        }
        return same_values == 1;
    };
    bool warned = false;
    st.writes.each(lo, hi, [&](uint64_t a, uint64_t z, const Access& w) {
        if (w.slot == slot || w.known_to(mine) || (atomic && w.atomic) || warned) return;
        if (rewrite && group_aiv(w.slot) && w.op == Op::Matmul) return;
        if (!w.atomic && unchanged()) return;
        // the two AIVs of a group repeating the same epilogue write the same values: legal, and common in public kernels
        const bool pair = g_launch->mixed && !g_layout.is_aic(slot) && !g_layout.is_aic(w.slot) &&
                          g_layout.group(slot) == g_layout.group(w.slot);
        Report r("cross-core-overlap", op, loc);
        r.msg("%s writes bytes %lld..%lld of '%s' that %s also wrote at line %d, with no flag or SyncAll between the two "
              "writes: on the NPU which one lands last depends on timing",
              core_name(slot).c_str(), static_cast<long long>(offset(a)), static_cast<long long>(offset(z) - 1),
              b->name.c_str(), core_name(w.slot).c_str(), w.loc.line)
            .val("buffer", b->name.c_str()).val("offset", offset(a)).val("other_line", w.loc.line)
            .hint("split the work between the cores (GetBlockIdx() / GetSubBlockIdx()), or order the writes with a flag");
        if (pair) { if (!st.pair_warned) r.warn(); st.pair_warned = warned = true; }
        else r.fail();
    });
    const Access me{slot, mine[slot], atomic, loc, op};
    if (!rewrite) return st.writes.assign(lo, hi, me);
    // where the other AIV's request wrote these bytes, that write stays on the record as this one's twin
    std::vector<std::pair<std::pair<uint64_t, uint64_t>, Access>> pieces;
    st.writes.each(lo, hi, [&](uint64_t a, uint64_t z, const Access& w) {
        Access twin = me;
        if (group_aiv(w.slot) && w.op == Op::Matmul) { twin.twin_slot = w.slot; twin.twin_tag = w.tag; }
        pieces.push_back({{a, z}, twin});
    });
    st.writes.assign(lo, hi, me);
    for (const auto& piece : pieces) st.writes.assign(piece.first.first, piece.first.second, piece.second);
}

bool cross_active() { return g_cross != nullptr; }
bool kernel_declared() { return t_role.set; }
void matmul_server() { throw CoreExit{}; }
// The AIC of a mixed launch keeps the tilings its REGIST_MATMUL_OBJ names: its server inits the Matmul objects with
// them, and an AIV client registered with a null tiling (AscendC's client stores it and leaves the work to the server:
// ops-transformer incre_flash_attention passes nullptr outside __DAV_C220_CUBE__) computes in place with its group's.
void matmul_server_tiling_put(int index, const void* tiling, size_t size) {
    if (!g_cross || !tiling) return;
    const uint8_t* b = static_cast<const uint8_t*>(tiling);
    g_cross->server_tilings[{g_layout.group(my_slot()), index}].assign(b, b + size);
}
bool matmul_server_tiling_get(int index, void* out, size_t size) {
    if (!g_cross || !g_launch || !g_launch->mixed || my_aic()) return false;
    auto it = g_cross->server_tilings.find({g_layout.group(my_slot()), index});
    if (it == g_cross->server_tilings.end() || it->second.size() != size) return false;
    std::memcpy(out, it->second.data(), size);
    return true;
}

}}  // namespace ascendcraft::emu
