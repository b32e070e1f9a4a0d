// AscendCraft CPU emulation runtime: `gm-read-race`, a block reading GM bytes another block wrote since the last SyncAll,
// with nothing ordering the two (launches whose blocks run one at a time on the plain Scheduler; a cross-core launch has
// its own check, `cross-core-race` in emu_sync_cross.cpp). Written from the public AscendC documentation; no vendor code.
//
// The gm-overlap tracker (Launch::overlap, OverlapTracker) holds which block wrote which GM bytes in this SyncAll phase:
// SyncAll clears it, and a released block-flag wait (IBWait, WaitPreBlock, GroupBarrier::Wait: ordered_after in
// emu_block_sync.cpp) drops the setter's ranges. Atomic accumulation never enters it (how blocks combine results). So a
// read of an output, in-out or workspace buffer that finds another block's range there reads bytes that block wrote with
// no ordering between the write and the read: on the NPU the blocks run at the same time and the read sees the old or the
// new bytes depending on timing; here, with the blocks run in index order, a higher block always sees a lower block's
// write. GroupNormV2 (linnlh/ascendc-perf-s2) passes one workspace as mean and variance buffer: block 0's variances land
// over the means blocks 1..31 have not gathered yet, a wrong result the NPU's cores (all gathering right after the
// barrier) normally do not give.
//
// A GM flag hand-over of the kernel's own (blocks spinning on flags other blocks set in GM, with or without
// DataCacheCleanAndInvalid: tests/test_emu_gm_poll.py, tests/test_emu_dcci_poll.py) reads other blocks' bytes on purpose,
// and what it reads after the flags is ordered by them, in a way the emulator cannot see; the last block to arrive at
// such a barrier finds every flag set at its first read and never polls. So one rule for the whole phase: the
// candidates wait until the phase ends (the barrier opens, or the blocks end), and a phase in which any block hands over
// through GM (gm_handover_seen: a DataCacheCleanAndInvalid of GM, or a poll gm_poll_check finds) is taken as ordered by
// the kernel's GM flags: its candidates are dropped. What is left is reported as a warning, once per launch per (writer,
// reader, tensor), at most kMaxReports a read line: kernels with this race pass on the NPU when the timing favours them
// (GroupNormV2 was published as passing), so the run goes on. Execute mode only: it is about the values a block reads
// (a trace has none). Blocks in parallel never get here: a read of bytes another block writes makes the launch run
// again one block at a time (parallel_conflict, emu_main.cpp).
#include <algorithm>
#include <mutex>
#include <string>

#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {
constexpr uint32_t kMaxReports = 8;        // gm-read-race warnings a launch gives at most per read line (GroupNormV2: 32 x 31 pairs)
constexpr size_t kMaxPending = 64;         // candidates a phase keeps (distinct writer, reader, tensor, line)

bool checked_launch() {
    return g_launch->block_dim > 1 && !g_launch->parallel && !g_launch->cross && g_launch->mode != Mode::Trace;
}
bool writable(const GmBuffer& b) { return b.role == Role::Out || b.role == Role::InOut || b.role == Role::Workspace; }

// Another block's range in the tracker inside [lo, hi): its first such piece, false when none.
bool other_block_write(const OverlapTracker& t, uint64_t lo, uint64_t hi, int me, OverlapTracker::Conflict* found) {
    const auto& ranges = t.ranges();
    auto it = ranges.upper_bound(lo);
    if (it != ranges.begin() && std::prev(it)->second.hi > lo) --it;
    for (; it != ranges.end() && it->first < hi; ++it) {
        if (it->second.block == me || it->second.hi <= lo) continue;
        *found = OverlapTracker::Conflict{std::max(lo, it->first), std::min(hi, it->second.hi), it->second.block};
        return true;
    }
    return false;
}

void remember(int reader, const GmBuffer& b, const OverlapTracker::Conflict& k, Op op, const SrcLoc& loc) {
    std::lock_guard<std::mutex> lock(g_launch->race_mutex);
    for (Launch::GmReadRace& p : g_launch->read_races)
        if (p.writer == k.other && p.reader == reader && p.buffer == &b && p.line == loc.line && p.file == loc.file) {
            p.lo = std::min(p.lo, k.lo);
            p.hi = std::max(p.hi, k.hi);
            return;
        }
    if (g_launch->read_races.size() < kMaxPending)
        g_launch->read_races.push_back({k.other, reader, &b, k.lo, k.hi, loc.file, loc.line, op});
}

// Every piece of other blocks' ranges inside [lo, hi), remembered.
void remember_all(const OverlapTracker& t, uint64_t lo, uint64_t hi, int me, const GmBuffer& b, Op op, const SrcLoc& loc) {
    const auto& ranges = t.ranges();
    auto it = ranges.upper_bound(lo);
    if (it != ranges.begin() && std::prev(it)->second.hi > lo) --it;
    for (; it != ranges.end() && it->first < hi; ++it) {
        if (it->second.block == me || it->second.hi <= lo) continue;
        remember(me, b, OverlapTracker::Conflict{std::max(lo, it->first), std::min(hi, it->second.hi), it->second.block}, op,
                 loc);
    }
}
}  // namespace

void block_gm_read(const void* p, uint64_t bursts, uint64_t burst_bytes, uint64_t stride, Op op, const SrcLoc& loc) {
    if (!bursts || !burst_bytes || !checked_launch()) return;
    const OverlapTracker& t = g_launch->overlap;
    if (t.ranges().empty() || g_launch->gm_handover) return;   // the handed-over phase's reads are taken as ordered
    const int me = core().idx;
    const uint64_t first = reinterpret_cast<uintptr_t>(p), span = (bursts - 1) * stride + burst_bytes;
    OverlapTracker::Conflict k{};
    if (!other_block_write(t, first, first + span, me, &k)) return;   // nothing of another block's anywhere in reach
    const GmBuffer* b = g_launch->gm.find(p, 1);
    if (!b || !writable(*b)) return;
    if (bursts == 1 || stride == burst_bytes) return remember_all(t, first, first + span, me, *b, op, loc);
    for (uint64_t i = 0; i < bursts; ++i)
        remember_all(t, first + i * stride, first + i * stride + burst_bytes, me, *b, op, loc);
}

bool gm_read_plain_span(const GmBuffer& b, const void* p, uint64_t* lo, uint64_t* hi) {
    *lo = reinterpret_cast<uintptr_t>(b.base);
    *hi = *lo + b.bytes;
    if (!checked_launch() || !writable(b)) return true;
    const int me = core().idx;
    const uint64_t at = reinterpret_cast<uintptr_t>(p);
    const auto& ranges = g_launch->overlap.ranges();
    // the nearest other block's range at or after `at` bounds the span above, the nearest before it below (a few steps
    // over this block's own ranges at most; past them the span is only the bytes read)
    constexpr int kSteps = 16;
    auto up = ranges.upper_bound(at);
    int steps = 0;
    for (auto it = up; it != ranges.end() && it->first < *hi; ++it) {
        if (it->second.block != me) { *hi = it->first; break; }
        if (++steps == kSteps) { *hi = std::min(*hi, it->first); break; }
    }
    steps = 0;
    for (auto it = up; it != ranges.begin();) {
        --it;
        if (it->second.hi <= *lo) break;
        if (it->second.block != me) {
            if (it->second.hi > at) return false;   // `at` lies in another block's range: no span
            *lo = it->second.hi;
            break;
        }
        if (++steps == kSteps) { *lo = std::max(*lo, it->second.hi > at ? it->first : it->second.hi); break; }
    }
    return *hi > at;
}

void gm_handover_seen() {
    if (!g_launch || !checked_launch()) return;
    std::lock_guard<std::mutex> lock(g_launch->race_mutex);
    g_launch->gm_handover = true;
    g_launch->read_races.clear();
}

void gm_read_races_report() {
    std::vector<Launch::GmReadRace> pending;
    {
        std::lock_guard<std::mutex> lock(g_launch->race_mutex);
        pending.swap(g_launch->read_races);
        g_launch->gm_handover = false;   // a new phase: its reads are checked again
    }
    for (const Launch::GmReadRace& r : pending) {
        const std::string key = "gm-read-race/" + std::to_string(r.writer) + "/" + std::to_string(r.reader) + "/" + r.buffer->name;
        uint32_t n = 0;
        {
            std::lock_guard<std::mutex> lock(g_launch->race_mutex);
            uint32_t& given = g_launch->gm_read_race_reports[{r.file, r.line}];
            if (given >= kMaxReports || !g_launch->once_seen.insert(key).second) continue;
            n = ++given;
        }
        const int64_t off = static_cast<int64_t>(r.lo - reinterpret_cast<uintptr_t>(r.buffer->base));
        const int64_t last = off + static_cast<int64_t>(r.hi - r.lo) - 1;
        Report("gm-read-race", r.op, SrcLoc(SrcLoc::Tag{}, r.file, r.line))
            .block(r.reader)
            .msg("block %d reads bytes %lld..%lld of '%s' that block %d wrote since the last SyncAll, with nothing ordering "
                 "the write before the read: on the NPU the blocks run at the same time, so the read sees the old or the new "
                 "bytes depending on timing; here block %d's write came first (the emulator runs the blocks in index "
                 "order)%s",
                 r.reader, static_cast<long long>(off), static_cast<long long>(last), r.buffer->name.c_str(), r.writer,
                 r.writer, n == kMaxReports ? " (further gm-read-race reports of this line are left out)" : "")
            .val("writer_block", r.writer).val("reader_block", r.reader).val("buffer", r.buffer->name.c_str())
            .val("offset", off).val("bytes", static_cast<int64_t>(r.hi - r.lo))
            .hint("add a SyncAll between the write and the read, or give the two a separate workspace (one block's "
                  "results must not land where another block has still to read)")
            .warn();
    }
}

}}  // namespace ascendcraft::emu
