// AscendCraft CPU emulation runtime: the launch and per-block state, global memory (bounds, the cross-block write
// tracker, poison), scalar access (GetValue / SetValue on GM and UB) and the mask / atomic state.
// Why these are one file (about 1,000 lines): the scalar accesses a kernel's loops make billions of times take inlined
// fast paths (runtime.h) over per-thread state that the block switch (set_current_core), the GM write tracker and
// the scalar paths' slow sides all keep up to date together (t_scalar_reads, t_scalar_writes); split, that state
// would have to become a shared header of mutable globals. The other runtime parts that lived here are files of their
// own: core/emu_report.cpp, emu_trace.cpp, emu_ub.cpp, emu_queue.cpp, emu_scheduler.cpp, sync/emu_flags.cpp and
// vector/emu_geometry.cpp.
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

Launch* g_launch = nullptr;
namespace {
thread_local Core* t_core = nullptr;
}
namespace {
// the race words of a run without a race check (newest_writes' five, scalar_known's four): every scalar access settled;
// and its scalar epoch, which never moves
const Clock kNoRace[5] = {};
const uint64_t kNoEpoch = 0;
const uint8_t kNoUb[2] = {};            // [&kNoUb[1], &kNoUb[0]]: an empty UB range (no inlined UB reads)
uint64_t kNoGmEnd = 0;                  // the end of an unused GM write range of gm_set (gm_lo 1: no address lies in it)
const uint64_t kNoGmVersion = 0;        // no tracker yet: gm_seen 1 never matches it
const uint8_t* kNoRunEnd = nullptr;     // the end of no run of appends (ScalarReads::run_end): no address equals it
}  // namespace
// runtime.h: GlobalTensor::GetValue's and LocalTensor::GetValue's inlined fast paths (no range, no UB before a block)
__thread ScalarReads t_scalar_reads = {{}, {}, {}, nullptr, nullptr, nullptr, &kNoUb[1], &kNoUb[0], kNoRace, kNoRace,
                                       {}, {}, {}, {}, {}, {}, {}, 0, &kNoEpoch, {},
                                       {1, 1}, {&kNoGmEnd, &kNoGmEnd}, {}, {}, {}, {}, &kNoGmVersion, 1, 0, false,
                                       nullptr, &kNoRunEnd, nullptr, nullptr, 0, nullptr, 0, 0, 0, nullptr, nullptr};
namespace {
// GlobalTensor::SetValue's fast path (gm_write): the GM buffer this block's last scalar write went to, and its byte
// bitmap of API writes (ApiWrites::byte_bits). Reset whenever a block starts or ends on this thread.
struct ScalarWrites {
    const GmBuffer* buffer = nullptr;
    uint8_t* bits = nullptr;
};
thread_local ScalarWrites t_scalar_writes;
}  // namespace
Core* current_core() { return t_core; }
// GlobalTensor::SetValue's fast path (gm_set, runtime.h): no range, until gm_write records one, and no tracker (the
// launch's may be gone when the next block starts on this thread)
void scalar_writes_forget() {
    ScalarReads& r = t_scalar_reads;
    for (int i = 0; i < ScalarReads::kGmSetRanges; ++i) {
        r.gm_lo[i] = 1;
        r.gm_hi[i] = &kNoGmEnd;
        r.gm_limit[i] = 0;
    }
    r.gm_version = &kNoGmVersion;
    r.gm_seen = 1;
}
// The S-pipe work of the reads GlobalTensor::GetValue made inline (runtime.h), added to the running block's counts.
void scalar_reads_flush() {
    ScalarReads& r = t_scalar_reads;
    if (t_core) t_core->gm_writes += r.gm_writes;   // GlobalTensor::SetValue's fast-path writes (gm_set)
    r.gm_writes = 0;
    uint64_t count = 0, bytes = 0;
    for (uint64_t size = 1; size <= 8; ++size) {
        count += r.reads[size - 1] + r.writes[size - 1];
        bytes += (r.reads[size - 1] + r.writes[size - 1]) * size;
        r.reads[size - 1] = 0;
        r.writes[size - 1] = 0;
    }
    if (t_core && count) {
        t_core->work_count[static_cast<uint8_t>(TPipe_::S)] += count;
        t_core->work_bytes[static_cast<uint8_t>(TPipe_::S)] += bytes;
    }
}
// A block starts or ends on this thread: its scalar reads start with no range known, and count in its own counters.
void set_current_core(Core* c) {
    scalar_reads_flush();   // into the block that ran here until now
    if (RaceChecker* race = t_scalar_reads.run_race) settle_scalar_run(*race);   // its appends' race records too
    t_core = c;
    t_scalar_writes = ScalarWrites{};
    scalar_writes_forget();
    ScalarReads& r = t_scalar_reads;
    for (int i = 0; i < ScalarReads::kSpans; ++i) { r.lo[i] = nullptr; r.room[i] = 0; }
    for (int i = 0; i < ScalarReads::kSetPlaces; ++i) {   // no inlined UB writes until local_write records a range
        r.set_lo[i] = r.set_hi[i] = nullptr;
        r.set_file[i] = nullptr;
    }
    static thread_local uint32_t scratch_line;
    static thread_local uint16_t scratch_op;
    Status* s = g_launch ? g_launch->status : nullptr;
    r.line = s ? &s->line : &scratch_line;
    r.op = s ? &s->op : &scratch_op;
    if (c && g_launch && g_launch->mode != Mode::Trace) {
        r.ub = c->ub;
        r.ub_end = c->ub + g_launch->ub_bytes;
        r.newest = c->race ? c->race->newest_writes() : kNoRace;
        r.known = c->race ? c->race->scalar_known() : kNoRace;
        r.epoch = c->race ? c->race->scalar_epoch() : &kNoEpoch;
    } else {   // no inlined UB reads or writes: an empty range
        r.ub = &kNoUb[1];
        r.ub_end = &kNoUb[0];
        r.newest = r.known = kNoRace;
        r.epoch = &kNoEpoch;
    }
}

// ---- per-block state -----------------------------------------------------------------------------
Core::Core(int index) : idx(index) {
    uint32_t bytes = g_launch->ub_bytes;
    uint8_t* mem = nullptr;
    {
        std::lock_guard<std::mutex> lock(g_launch->race_mutex);
#if !defined(__SANITIZE_ADDRESS__)  // under ASan every block gets memory of its own (a stale pointer is caught)
        if (!g_launch->ub_pool.free.empty()) {
            mem = static_cast<uint8_t*>(g_launch->ub_pool.free.back());
            g_launch->ub_pool.free.pop_back();
        }
#endif
        if (!mem) {
            g_launch->ub_pool.bytes = bytes;   // the same ub_bytes for every block of the launch
            mem = ub_allocate(bytes, g_launch->ub_pool.next_slot);
        }
    }
    if (!mem) {
        fprintf(stderr, "ascendcraft emulator: cannot allocate %u bytes of UB\n", bytes);
        die(4);
    }
    ub = mem;
    const bool trace_mode = g_launch->mode == Mode::Trace;
    if (trace_mode) {
        std::memset(ub, 0, bytes);
    } else {
        std::memset(ub, g_launch->poison, bytes);
        written.assign((static_cast<uint64_t>(bytes) + 63) / 64, 0);
        written_bytes = bytes;
    }
    // execute mode: the race check (or auto-sync's waits); trace mode: auto-sync's waits only
    {
        if (trace_mode ? g_launch->auto_sync : g_launch->races != RaceMode::Off) {
            std::lock_guard<std::mutex> lock(g_launch->race_mutex);
            if (g_launch->race_pool.empty()) {
                race.reset(new RaceChecker(ub, bytes));
            } else {
                race = std::move(g_launch->race_pool.back());
                g_launch->race_pool.pop_back();
                race->reset(ub);
            }
        }
    }
}
Core::~Core() {
    if (race) {
        std::lock_guard<std::mutex> lock(g_launch->race_mutex);
        g_launch->race_pool.push_back(std::move(race));
    }
#if !defined(__SANITIZE_ADDRESS__)
    std::lock_guard<std::mutex> lock(g_launch->race_mutex);
    g_launch->ub_pool.free.push_back(ub);   // the same ub_bytes for every block of the launch
#else
    ub_release(ub, g_launch->ub_bytes);   // its slot is not mapped again soon: a stale pointer faults
#endif
}

Core& core() {
    if (!t_core) {
        fprintf(stderr, "ascendcraft emulator: an AscendC API was called outside a kernel launch\n");
        die(4);
    }
    return *t_core;
}

// the file the status page names (enter): t_scalar_reads.file, which the inlined GetValue compares with its own
static void enter_file(Status* s, const char* file) {
    t_scalar_reads.file = file;
    strncpy(s->file, file ? file : "", sizeof(s->file) - 1);
    s->file[sizeof(s->file) - 1] = 0;
}
// enter's body, inlined into the scalar accesses of this file: a kernel's scalar loop calls them billions of times
static inline void enter_inline(Op op, const SrcLoc& loc) {
    Status* s = g_launch->status;
    if (!s) return;
    s->op = static_cast<uint16_t>(op);
    s->line = static_cast<uint32_t>(loc.line);
    if (loc.file != t_scalar_reads.file) enter_file(s, loc.file);
}
void enter(Op op, const SrcLoc& loc) { enter_inline(op, loc); }

int64_t block_idx() { return g_launch->mixed ? cross_block_idx(core().idx) : core().idx; }
int64_t block_num() { return g_launch->block_dim; }
bool tracing() { return tracing_now(); }
uint64_t tiling_key() { return g_launch->tiling_key; }

// ---- global memory -----------------------------------------------------------------------------------
void GmRegistry::add(const GmBuffer& buffer) {
    buffers_.push_back(buffer);
    std::sort(buffers_.begin(), buffers_.end(), [](const GmBuffer& a, const GmBuffer& b) { return a.base < b.base; });
}
const GmBuffer* GmRegistry::find(const void* p, uint64_t bytes) const {
    const uint8_t* a = static_cast<const uint8_t*>(p);
    auto inside = [&](const GmBuffer& b) { return a >= b.base && a + bytes <= b.base + b.bytes && a + bytes >= a; };
    static thread_local size_t last = 0;  // the buffer found last on this thread (blocks may run in parallel)
    if (last < buffers_.size() && inside(buffers_[last])) return &buffers_[last];
    for (size_t i = 0; i < buffers_.size(); ++i)
        if (inside(buffers_[i])) { last = i; return &buffers_[i]; }
    return nullptr;
}
const GmBuffer* GmRegistry::nearest(const void* p) const {
    const uint8_t* a = static_cast<const uint8_t*>(p);
    const GmBuffer* best = nullptr;
    uint64_t best_d = ~0ull;
    for (const GmBuffer& b : buffers_) {
        uint64_t d = a < b.base ? static_cast<uint64_t>(b.base - a) : (a < b.base + b.bytes ? 0 : static_cast<uint64_t>(a - (b.base + b.bytes)));
        if (d < best_d) { best_d = d; best = &b; }
    }
    return best;
}

// A barrier of the kernel's own over GM, without DataCacheCleanAndInvalid (hicann ops-nn index_fill: each block copies
// its flag byte out, then copies every block's flag in again and again until all are set; MTE2 reads GM itself, past
// the scalar's data cache, so on the NPU the loop ends once the other cores have written). With the blocks run one at
// a time the others never get to run, and blocks on a few threads may wait for one no thread has started: a block
// that reads the same range of an output or workspace buffer kPollRepeats times in a row and finds it unchanged hands
// over to the unfinished blocks, as gm_cache_clean_invalid does (a parallel launch first runs again one block at a
// time). A kernel that re-reads unchanged GM for its own reasons only runs its blocks in another order.
constexpr uint32_t kPollRepeats = 8;
constexpr uint64_t kPollMaxBytes = 2048;   // a flag area (48 cores x 32 bytes fit); a larger range re-read is data

static void gm_poll_check(const void* p, uint64_t bytes) {
    Core& c = core();
    const uint8_t* a = static_cast<const uint8_t*>(p);
    const bool same = c.poll_at == p && c.poll_seen.size() == bytes && std::equal(a, a + bytes, c.poll_seen.begin());
    if (!same) {
        c.poll_at = p;
        c.poll_seen.assign(a, a + bytes);
        c.poll_repeats = 0;
        return;
    }
    if (++c.poll_repeats < kPollRepeats) return;
    c.poll_repeats = 0;
    gm_handover_seen();   // a GM flag hand-over of the kernel's own (sync/emu_gm_read_race.cpp)
    // blocks on threads of their own may wait for a block no thread has started: one at a time, with hand-overs
    if (g_launch->parallel) require_sequential("a block polls GM for other blocks' writes");
    gm_cache_clean_invalid();
}

const GmBuffer& check_gm(const void* p, uint64_t bytes, bool write, Op op, const SrcLoc& loc) {
    const GmBuffer* b = g_launch->gm.find(p, bytes);
    if (b && write && b->constant) {   // a __gm__ array of the kernel's own (declare_gm_array): its constant data
        Report r("gm-out-of-bounds", op, loc);
        r.msg("%s writes %llu bytes into '%s', a __gm__ array the kernel source defines (its constant data, read-only)",
              op_name(op), static_cast<unsigned long long>(bytes), b->name.c_str())
            .val("buffer", b->name.c_str())
            .hint("write GM through a buffer of the launch (an output or the workspace)").fail();
    }
    if (!b && !write) {
        // A read of the allocation's padding is legal on the NPU (aclrtMalloc: the size rounded up to 32 bytes, plus
        // 32): allowed here as far as the buffer's last mapped page reaches (it reads zeros or the poison).
        const GmBuffer* n = g_launch->gm.nearest(p);
        const uint8_t* a = static_cast<const uint8_t*>(p);
        const uint64_t padded = n ? std::min<uint64_t>((n->bytes + 31) / 32 * 32 + 32, (n->bytes + 4095) / 4096 * 4096) : 0;
        if (n && n->bytes && a >= n->base && a + bytes <= n->base + padded) {
            if (n->alias) gm_materialise(*n);  // the read sees the poison
            return *n;
        }
    }
    if (!b) {
        const GmBuffer* n = g_launch->gm.nearest(p);
        const uint8_t* a = static_cast<const uint8_t*>(p);
        Report r("gm-out-of-bounds", op, loc);
        r.val("address", static_cast<int64_t>(reinterpret_cast<uintptr_t>(p))).val("bytes", static_cast<int64_t>(bytes));
        if (n) {
            int64_t off = static_cast<int64_t>(a - n->base);
            r.msg("%s %s %llu bytes of GM at offset %lld of '%s' (%llu bytes): bytes %lld..%lld lie outside every buffer the "
                  "launch was given",
                  op_name(op), write ? "writes" : "reads", static_cast<unsigned long long>(bytes), static_cast<long long>(off),
                  n->name.c_str(), static_cast<unsigned long long>(n->bytes), static_cast<long long>(off),
                  static_cast<long long>(off + static_cast<int64_t>(bytes) - 1))
                .val("buffer", n->name.c_str()).val("offset", off).val("buffer_bytes", static_cast<int64_t>(n->bytes));
        } else {
            r.msg("%s %s %llu bytes of GM at an address outside every buffer the launch was given", op_name(op),
                  write ? "writes" : "reads", static_cast<unsigned long long>(bytes));
        }
        if (op == Op::Matmul)   // the Matmul API moves whole singleCoreM x singleCoreN blocks: the usual cause is an edge block
            r.hint("the Matmul reads A and B and writes C as a whole singleCoreM x singleCoreN block from the addresses "
                   "SetTensorA / SetTensorB / IterateAll were given: for a block at the matrix's edge call "
                   "SetTail(tailM, tailN) before Iterate / IterateAll, or check those offsets").fail();
        r.hint("check the GM offset (GetBlockIdx() * per-block length + tile offset) and the count of the last tile").fail();
    }
    if (!write && (b->role == Role::Out || b->role == Role::InOut || b->role == Role::Workspace) && g_launch->parallel && bytes) {  // may read what another block writes
        uint64_t lo = reinterpret_cast<uintptr_t>(p);
        OverlapTracker::Conflict k{};
        g_launch->block_reads[core().idx].add(lo, lo + bytes, core().idx, &k);
    }
    if (write && b->role == Role::In) {
        Report("gm-write-input", op, loc)
            .msg("%s writes %llu bytes into '%s', which is an input of the kernel (offset %lld)", op_name(op),
                 static_cast<unsigned long long>(bytes), b->name.c_str(),
                 static_cast<long long>(static_cast<const uint8_t*>(p) - b->base))
            .val("buffer", b->name.c_str()).val("offset", static_cast<int64_t>(static_cast<const uint8_t*>(p) - b->base))
            .val("bytes", static_cast<int64_t>(bytes))
            .hint("write results to an output tensor; pass the tensor with role 'inout' if the kernel really updates it in place")
            .fail();
    }
    // the read sees the poison where nothing was written (bytes API calls wrote are read from the alias, as they are)
    if (!write && b->alias &&
        !g_launch->api_writes.all_written(*b, static_cast<uint64_t>(static_cast<const uint8_t*>(p) - b->base), bytes))
        gm_materialise(*b);
    if (!write && bytes && bytes <= kPollMaxBytes && g_launch->block_dim > 1 && !g_launch->cross &&
        g_launch->mode != Mode::Trace &&   // a trace has no GM bytes to compare
        (b->role == Role::Out || b->role == Role::InOut || b->role == Role::Workspace))
        gm_poll_check(p, bytes);
    return *b;
}

bool OverlapTracker::add(uint64_t lo, uint64_t hi, int block, Conflict* conflict) {
    if (lo >= hi) return true;
    for (Ranges::iterator h : recent_) {   // continues (or lies inside) a range of this block just grown, short of the next
        if (h == ranges_.end() || h->second.block != block || lo < h->first || lo > h->second.hi) continue;
        const auto next = std::next(h);
        if (next != ranges_.end() && next->first <= hi) continue;
        h->second.hi = std::max(h->second.hi, hi);
        remember(h);
        return true;
    }
    if (!ranges_.empty()) {  // in address order, as tiles usually are: nothing lies past the last range
        auto last = std::prev(ranges_.end());
        if (lo > last->second.hi || (lo == last->second.hi && last->second.block != block)) {
            remember(ranges_.emplace_hint(ranges_.end(), lo, Range{hi, block}));
            ++version_;
            return true;
        }
        if (last->second.block == block && lo >= last->first) {  // continues (or lies inside) this block's last range
            last->second.hi = std::max(last->second.hi, hi);
            remember(last);
            return true;
        }
    }
    auto first = ranges_.upper_bound(lo);
    if (first != ranges_.begin()) {
        auto prev = std::prev(first);
        if (prev->second.hi >= lo) first = prev;
    }
    for (auto it = first; it != ranges_.end() && it->first < hi; ++it)   // a conflict leaves the ranges as they were
        if (it->second.block != block && it->second.hi > lo) {
            conflict->lo = std::max(lo, it->first);
            conflict->hi = std::min(hi, it->second.hi);
            conflict->other = it->second.block;
            return false;
        }
    auto it = first;
    uint64_t new_lo = lo, new_hi = hi;
    while (it != ranges_.end() && it->first <= hi) {
        if (it->second.block == block && it->second.hi >= lo) {
            new_lo = std::min(new_lo, it->first);
            new_hi = std::max(new_hi, it->second.hi);
            for (Ranges::iterator& h : recent_)   // a range merged into this one is gone
                if (h == it) h = ranges_.end();
            it = ranges_.erase(it);
            continue;
        }
        ++it;
    }
    remember(ranges_.insert_or_assign(new_lo, Range{new_hi, block}).first);
    ++version_;   // ranges merged into this one are gone, and it may be a new node
    return true;
}

ApiWrites::ByteBits::~ByteBits() {
    if (p) munmap(p, n);
}

void ApiWrites::watch(const GmBuffer& b) {
    Watched& w = buffers_[b.arg];
    const uint64_t chunks = (b.bytes + kChunk - 1) / kChunk;
    w.full.assign((chunks + 63) / 64, 0);
    if (b.bytes) {  // zero pages until a partial write touches them (MAP_NORESERVE: no commit charge for the rest)
        w.bits.n = (b.bytes + 7) / 8;
        void* p = mmap(nullptr, w.bits.n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) { w.bits.n = 0; throw std::bad_alloc(); }
        w.bits.p = static_cast<uint8_t*>(p);
    }
    if (b.role == Role::InOut) w.before.assign(b.base, b.base + b.bytes);  // out and workspace start as poison
}

void ApiWrites::mark(const GmBuffer& b, uint64_t offset, uint64_t bytes) {
    auto it = buffers_.find(b.arg);
    if (it == buffers_.end() || bytes == 0) return;
    Watched& w = it->second;
    const uint64_t lo = std::min<uint64_t>(offset, b.bytes), hi = std::min<uint64_t>(offset + bytes, b.bytes);
    if (lo >= hi) return;
    // whole chunks inside [lo, hi): their bit; the partial chunks at either end: their bytes' bits
    const uint64_t c_lo = (lo + kChunk - 1) / kChunk, c_hi = hi == b.bytes ? (hi + kChunk - 1) / kChunk : hi / kChunk;
    auto bytes_bits = [&](uint64_t a, uint64_t z) {   // the byte bits of [a, z)
        uint8_t* bits = w.bits.p;
        // the partial bytes at either end may be shared with a neighbouring range another block marks at the same time
        for (; a < z && a % 8; ++a) __atomic_fetch_or(&bits[a / 8], static_cast<uint8_t>(1u << (a % 8)), __ATOMIC_RELAXED);
        for (; z > a && z % 8; --z) __atomic_fetch_or(&bits[(z - 1) / 8], static_cast<uint8_t>(1u << ((z - 1) % 8)), __ATOMIC_RELAXED);
        if (z > a) std::memset(bits + a / 8, 0xFF, (z - a) / 8);
    };
    if (c_lo >= c_hi) { bytes_bits(lo, hi); return; }
    bytes_bits(lo, c_lo * kChunk);
    bytes_bits(std::min<uint64_t>(c_hi * kChunk, hi), hi);
    for (uint64_t k = c_lo; k < c_hi;) {              // a word of chunk bits at a time
        const uint64_t word = k / 64, first = k % 64, last = std::min<uint64_t>(64, first + (c_hi - k));
        const uint64_t mask = (last == 64 ? ~0ull : (1ull << last) - 1) & ~((1ull << first) - 1);
        __atomic_fetch_or(&w.full[word], mask, __ATOMIC_RELAXED);
        k += last - first;
    }
}

void ApiWrites::fill_unwritten(const GmBuffer& b, uint8_t* to, uint8_t poison) const {
    auto it = buffers_.find(b.arg);
    if (it == buffers_.end()) { std::memset(to, poison, b.bytes); return; }
    const Watched& w = it->second;
    const uint8_t* bits = w.bits.p;
    const uint64_t chunks = (b.bytes + kChunk - 1) / kChunk;
    for (uint64_t c = 0; c < chunks; ++c) {
        if (w.full[c / 64] == ~0ull && c % 64 == 0 && c + 64 <= chunks) { c += 63; continue; }
        if ((w.full[c / 64] >> (c % 64)) & 1) continue;
        const uint64_t lo = c * kChunk, hi = std::min<uint64_t>(lo + kChunk, b.bytes);
        uint64_t i = lo;
        while (i < hi) {  // runs of unwritten bytes (clear bits), a whole zero word of bits at a time where it can
            if (i % 64 == 0 && i + 64 <= hi) {
                uint64_t word;
                std::memcpy(&word, bits + i / 8, 8);
                if (word == ~0ull) { i += 64; continue; }
                if (word == 0) {
                    uint64_t j = i + 64;
                    for (; j + 64 <= hi; j += 64) {
                        std::memcpy(&word, bits + j / 8, 8);
                        if (word != 0) break;
                    }
                    std::memset(to + i, poison, j - i);
                    i = j;
                    continue;
                }
            }
            if (!((bits[i / 8] >> (i % 8)) & 1)) to[i] = poison;
            ++i;
        }
    }
}

bool ApiWrites::all_written(const GmBuffer& b, uint64_t offset, uint64_t bytes) const {
    auto it = buffers_.find(b.arg);
    if (it == buffers_.end() || offset > b.bytes || bytes > b.bytes - offset) return false;
    const Watched& w = it->second;
    for (uint64_t i = offset, hi = offset + bytes; i < hi;) {
        const uint64_t c = i / kChunk, end = std::min<uint64_t>((c + 1) * kChunk, hi);
        if ((w.full[c / 64] >> (c % 64)) & 1) { i = end; continue; }
        for (; i < end; ++i)
            if (!((w.bits.p[i / 8] >> (i % 8)) & 1)) return false;
    }
    return true;
}

bool ApiWrites::first_raw_write(const GmBuffer& b, uint8_t poison, uint64_t* offset) const {
    auto it = buffers_.find(b.arg);
    if (it == buffers_.end()) return false;
    const Watched& w = it->second;
    const uint8_t* bits = w.bits.p;
    const uint64_t chunks = (b.bytes + kChunk - 1) / kChunk;
    for (uint64_t c = 0; c < chunks; ++c) {
        if (w.full[c / 64] == ~0ull && c % 64 == 0 && c + 64 <= chunks) { c += 63; continue; }
        if ((w.full[c / 64] >> (c % 64)) & 1) continue;
        // a chunk not written whole: its byte bits, whole 64-bit words first (bytes the API wrote in pieces)
        const uint64_t k_end = std::min<uint64_t>((c + 1) * kChunk, b.bytes) / 8 + ((std::min<uint64_t>((c + 1) * kChunk, b.bytes) % 8) ? 1 : 0);
        for (uint64_t k = c * kChunk / 8; k < k_end;) {
            if (k + 8 <= k_end) {
                uint64_t word;
                std::memcpy(&word, bits + k, 8);
                if (word == ~0ull) { k += 8; continue; }
            }
            const uint64_t end = std::min<uint64_t>(k + 8, k_end);
            for (; k < end; ++k) {
                if (bits[k] == 0xFF) continue;
                for (uint64_t i = k * 8; i < std::min<uint64_t>(k * 8 + 8, b.bytes); ++i) {
                    if ((bits[k] >> (i % 8)) & 1) continue;
                    uint8_t initial = w.before.empty() ? poison : w.before[i];
                    if (b.base[i] != initial) { *offset = i; return true; }
                }
            }
        }
    }
    return false;
}

void track_gm_write(const void* p, uint64_t bytes, Op op, const SrcLoc& loc, const void* src, uint32_t period) {
    if (bytes == 0) return;   // writes nothing (a DataCopy count under one 32-byte block): not a write for no-output
    Core& c = core();
    ++c.gm_writes;
    if (!tracing_now())
        if (const GmBuffer* watched = g_launch->gm.find(p, bytes)) {
            if (c.atomic_add && watched->alias) {  // the accumulation reads what is there: the poison, before this write counts
                if (g_launch->parallel) require_sequential("atomic GM accumulation");
                gm_materialise(*watched);
            }
            g_launch->api_writes.mark(*watched, static_cast<uint64_t>(static_cast<const uint8_t*>(p) - watched->base), bytes);
        }
    if (g_launch->cross)   // cores ordered by flags (emu_sync_cross.cpp)
        return cross_gm_write(p, bytes, c.atomic_add, op, loc, tracing_now() || period ? nullptr : src);
    if (c.atomic_add) {  // atomic accumulation into the same bytes is how blocks combine results
        if (g_launch->parallel) require_sequential("atomic GM accumulation");  // the sum's order is the blocks' order
        return;
    }
    OverlapTracker::Conflict k{};
    uint64_t lo = reinterpret_cast<uintptr_t>(p);
    if (g_launch->parallel) {  // this block's own ranges; other blocks' are compared after the launch
        g_launch->block_writes[c.idx].add(lo, lo + bytes, c.idx, &k);
        return;
    }
    bool ok = g_launch->overlap.add(lo, lo + bytes, c.idx, &k);
    // Another block wrote these bytes in this phase. If it wrote the values this write brings (every block zeroing
    // a result before atomic adds, copies of overlapping tiles), the NPU ends with those values whichever block
    // writes last: shared, not an overlap. The values are known only when executing.
    const GmBuffer* real = ok || !src ? nullptr : g_launch->gm.find(p, bytes);
    if (real && real->alias) gm_materialise(*real);   // the comparison below reads the bytes there
    if (real && tracing_now()) {   // no values while tracing: the execute run decides; say so once, and carry on
        if (!g_launch->gm_shared_warned.exchange(true))
            Report("gm-overlap", op, loc)
                .msg("blocks %d and %d both write bytes of '%s' between the same pair of SyncAll points; the trace has "
                     "no values, so only an execute run can tell whether they write the same bytes", k.other, c.idx,
                     real->name.c_str())
                .val("other_block", k.other).val("buffer", real->name.c_str())
                .hint("run the kernel (execute) to check this write; give each block its own range to be sure")
                .warn();
        ok = g_launch->overlap.add_shared(lo, lo + bytes, c.idx, &k, [](uint64_t, uint64_t) { return true; });
    } else if (real && real->real) {
        const uint8_t* from = static_cast<const uint8_t*>(src);
        ok = g_launch->overlap.add_shared(lo, lo + bytes, c.idx, &k, [&](uint64_t a, uint64_t b) {
            const uint8_t* gm = reinterpret_cast<const uint8_t*>(a);
            if (!period) return std::memcmp(gm, from + (a - lo), b - a) == 0;
            for (uint64_t i = a; i < b; ++i)
                if (gm[i - a] != from[(i - lo) % period]) return false;
            return true;
        });
    }
    if (!ok) {
        const GmBuffer* b = g_launch->gm.find(reinterpret_cast<const void*>(k.lo), 1);
        int64_t off = b ? static_cast<int64_t>(k.lo - reinterpret_cast<uintptr_t>(b->base)) : 0;
        Report("gm-overlap", op, loc)
            .msg("blocks %d and %d both write bytes %lld..%lld of '%s' between the same pair of SyncAll points%s",
                 k.other, c.idx, static_cast<long long>(off), static_cast<long long>(off + static_cast<int64_t>(k.hi - k.lo) - 1),
                 b ? b->name.c_str() : "GM", real && real->real ? ", with different values" : "")
            .val("other_block", k.other).val("buffer", b ? b->name.c_str() : "").val("offset", off)
            .val("bytes", static_cast<int64_t>(k.hi - k.lo))
            .hint("on the NPU the blocks run at the same time, so the result depends on timing; give each block its own "
                  "range, or combine with SetAtomicAdd, or separate the writes with SyncAll")
            .fail();
    }
}

// ---- scalar access --------------------------------------------------------------------------------------------
// One scalar's bytes: the sizes a scalar has, as single moves (memcpy of a size known only at run time is a call)
static inline void copy_scalar(void* to, const void* from, uint32_t size) {
    switch (size) {
    case 1: std::memcpy(to, from, 1); return;
    case 2: std::memcpy(to, from, 2); return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    default: std::memcpy(to, from, size);
    }
}
// An index past GetSize() but inside the buffer the tensor came from: the NPU reads or writes that address, a warning
// once per place as for vector operands (check_extent); NPUKernelBench's Arange answer reads GetValue(0) of the
// Get<float>(0) view it cast into. Past the buffer: an error.
static void check_index(const Local& t, uint64_t index, uint32_t size, Op op, const SrcLoc& loc) {
    check_local(t, op, loc, "tensor", 1);
    if ((index + 1) * size > t.bytes && (index + 1) * size <= t.cap) {
        if (first_report_at("ub-out-of-range", loc))
            Report("ub-out-of-range", op, loc)
                .msg("%s(%llu) on a LocalTensor of %u elements; inside the buffer the tensor came from, the NPU %s that "
                     "element (CANN's CPU-debug build stops here), and so does the emulator", op_name(op),
                     static_cast<unsigned long long>(index), t.bytes / size, op == Op::GetValue ? "reads" : "writes")
                .val("index", static_cast<int64_t>(index)).val("size", t.bytes / size)
                .hint("the index must be below GetSize(); TBuf::Get<T>(len) takes a length in elements, not an offset")
                .warn();
        return;
    }
    if ((index + 1) * size > t.bytes && !ub_overrun(t, (index + 1) * size, op, loc, "tensor"))
        Report("ub-out-of-range", op, loc)
            .msg("%s(%llu) on a LocalTensor of %u elements", op_name(op), static_cast<unsigned long long>(index), t.bytes / size)
            .val("index", static_cast<int64_t>(index)).val("size", t.bytes / size)
            .hint("the index must be below GetSize()").fail();
}

// check_index's checks, made inline for an index inside the tensor (the usual case in a scalar loop): the tensor points
// into this block's UB and the element lies below GetSize(); anything else calls check_index, which reports it.
static inline void check_index_fast(const Core& c, const Local& t, uint64_t index, uint32_t size, Op op, const SrcLoc& loc) {
    if (!(t.addr && t.addr >= c.ub && t.addr <= c.ub + g_launch->ub_bytes && (index + 1) * size <= t.bytes))
        check_index(t, index, size, op, loc);
}
// An inline scalar access's S-pipe work in execute mode: what record (or record_gm) counts there, one instruction of
// `size` bytes, without the call.
static inline void count_scalar_work(Core& c, uint32_t size) {
    ++c.work_count[static_cast<uint8_t>(TPipe_::S)];
    c.work_bytes[static_cast<uint8_t>(TPipe_::S)] += size;
}
// mark_written of one scalar, inline when its bytes lie in one word of the bitmap (bit i: UB byte i written).
static inline void mark_written_scalar(Core& c, const Local& t, uint64_t index, uint32_t size) {
    const uint64_t start = static_cast<uint64_t>(t.addr - c.ub) + index * size;
    if (start % 64 + size <= 64 && start + size <= c.written_bytes && !tracing_now())
        c.written[start / 64] |= ((size == 64 ? ~0ull : (1ull << size) - 1)) << (start % 64);
    else
        mark_written(t, index * size, size);
}
void local_read(const Local& t, uint64_t index, uint32_t size, void* out, SrcLoc loc) {
    enter_inline(Op::GetValue, loc);
    Core& c = core();
    check_index_fast(c, t, index, size, Op::GetValue, loc);
    // the race check, unless nothing a scalar read can race with is pending (its usual state in a scalar loop); a scalar
    // read takes no clock then, which no check can tell apart (a scalar read is never recorded: race.h)
    const RaceChecker* race = c.race.get();
    if (race && !race->scalar_read_settled()) RaceScope(TPipe_::S, Op::GetValue, loc).read(t.addr + index * size, size);
    if (tracing_now()) {
        record(TPipe_::S, TKind::INSTR, Op::GetValue, Dt::none, 0, loc, size, 1);
        std::memset(out, 0, size);
        return;
    }
    count_scalar_work(c, size);
    copy_scalar(out, t.addr + index * size, size);
}
// LocalTensor::SetValue's inlined write (local_set, runtime.h) takes a write of an element of one of t_scalar_reads' set
// ranges: scalars that writes of one place recorded (race check settled, or none) and marked written while the race
// check's scalar epoch stayed the same, at a stride that is a power of two (the scalar's size when the place writes
// one element after another; two or four of them when an unrolled loop's lines write every other or every fourth).
// A write recorded here extends its place's range when it is the range's next element (or, after one element, sets
// the stride), or starts the place's range afresh; a place without a range takes the oldest place's slot. Another
// place's write of a range's bytes drops that range (their record names the other place now); a move of the epoch (a
// flag or barrier that observes the S pipe, a write the race check had to check) drops them all. A range of bytes past
// this block's UB is never kept.
static bool set_range_touches(const ScalarReads& r, int i, const uint8_t* at, uint32_t size) {
    if (r.set_lo[i] == r.set_hi[i] || at + size <= r.set_lo[i] || at >= r.set_hi[i]) return false;
    if (at < r.set_lo[i]) return true;   // reaches into the first element
    const uint64_t stride = r.set_step[i] + 1, d = static_cast<uint64_t>(at - r.set_lo[i]), off = d % stride;
    if (off < r.set_size[i]) return true;   // starts inside an element
    return off + size > stride && at - off + stride < r.set_hi[i];   // reaches into the next one
}
static void keep_set_range(const Core& c, const uint8_t* at, uint32_t size, const SrcLoc& loc, RaceChecker* race) {
    ScalarReads& r = t_scalar_reads;
    if (at < c.ub || at + size > c.ub + c.written_bytes || (size & (size - 1)) != 0) return;
    const uint64_t epoch = *r.epoch;
    if (r.set_epoch != epoch) {
        for (int i = 0; i < ScalarReads::kSetPlaces; ++i) {
            r.set_lo[i] = r.set_hi[i] = nullptr;
            r.set_file[i] = nullptr;
        }
        r.set_epoch = epoch;
    }
    int slot = -1;
    for (int i = 0; i < ScalarReads::kSetPlaces; ++i) {
        const bool mine = r.set_file[i] == loc.file && r.set_line[i] == loc.line;
        if (mine && slot < 0) slot = i;
        else if (set_range_touches(r, i, at, size)) r.set_lo[i] = r.set_hi[i] = nullptr;
    }
    if (slot >= 0 && r.set_size[slot] == size && r.set_lo[slot] != r.set_hi[slot]) {
        const uint8_t* lo = r.set_lo[slot];
        const uint64_t stride = r.set_step[slot] + 1, span = static_cast<uint64_t>(r.set_hi[slot] - lo);
        const uint64_t d = static_cast<uint64_t>(at - lo);
        if (at >= lo && d < span && d % stride == 0) return;   // an element of the range already
        if (at == r.set_hi[slot]) { r.set_hi[slot] += stride; return; }   // the next element
        if (span == stride && at > lo && (d & (d - 1)) == 0 && d >= size) {   // the second element: the stride
            r.set_step[slot] = d - 1;
            r.set_hi[slot] = at + d;
            return;
        }
    }
    if (slot < 0) slot = ScalarReads::kSetPlaces - 1;   // the oldest slot goes
    for (int i = slot; i > 0; --i) {   // this place's range starts afresh in slot 0, the newest
        r.set_lo[i] = r.set_lo[i - 1];
        r.set_hi[i] = r.set_hi[i - 1];
        r.set_step[i] = r.set_step[i - 1];
        r.set_size[i] = r.set_size[i - 1];
        r.set_file[i] = r.set_file[i - 1];
        r.set_line[i] = r.set_line[i - 1];
        r.set_site[i] = r.set_site[i - 1];
    }
    r.set_lo[0] = at;
    r.set_hi[0] = at + size;
    r.set_step[0] = size - 1;
    r.set_size[0] = size;
    r.set_file[0] = loc.file;
    r.set_line[0] = loc.line;
    r.set_site[0] = race ? race->site(Op::SetValue, loc) : 0;   // the settled write's own site: found, not made
}
// A settled write that continues its place's range (the range's next element: a loop filling a vector before a vector
// instruction reads it, EvoKernel's transposed convolutions' taps) in execute mode: local_write's checks and records
// for it, made with what the range keeps. The epoch unchanged and the place, size and address the range's, so
// keep_set_range would only extend it (after dropping the other places' ranges that these bytes touch, as here); the
// race check's settled test and record as scalar_write_settled makes them, with the site index the range keeps instead
// of a look-up. Anything else (another place, the epoch moved, a write the race check must check) returns false:
// local_write's general path.
static bool append_set_range(const Core& c, RaceChecker& race, const uint8_t* at, uint32_t size, const SrcLoc& loc) {
    ScalarReads& r = t_scalar_reads;
    if (g_launch->mode == Mode::Trace || r.set_epoch != *r.epoch || at < race.ub() || at < c.ub ||
        at + size > c.ub + c.written_bytes)
        return false;
    for (int i = 0; i < ScalarReads::kSetPlaces; ++i) {
        if (r.set_file[i] != loc.file || r.set_line[i] != loc.line) continue;   // the place's one slot
        if (r.set_size[i] != size || r.set_lo[i] == r.set_hi[i] || at != r.set_hi[i]) return false;
        if (!race.scalar_write_settled(static_cast<uint64_t>(at - race.ub()), size, r.set_site[i])) return false;
        for (int j = 0; j < ScalarReads::kSetPlaces; ++j)
            if (j != i && set_range_touches(r, j, at, size)) r.set_lo[j] = r.set_hi[j] = nullptr;
        r.set_hi[i] += r.set_step[i] + 1;
        return true;
    }
    return false;
}
// The run of appends (ScalarReads::run_*, local_set in runtime.h) that follows a settled write of a place, in
// execute mode: the place's range as keep_set_range or append_set_range left it, its next elements written without a
// record until settle_scalar_run makes their records. None where the range's next element is not aligned to the size
// (the written mark local_set makes lies in one word then) or lies inside another place's range; its limit is
// the block's UB end and the start of the next other place's range, so no appended element touches another range
// (append_set_range would drop that range).
static void start_scalar_run(Core& c, RaceChecker& race, uint32_t size, const SrcLoc& loc) {
    ScalarReads& r = t_scalar_reads;
    if (g_launch->mode == Mode::Trace || r.set_epoch != *r.epoch || race.ub() != c.ub) return;
    for (int i = 0; i < ScalarReads::kSetPlaces; ++i) {
        if (r.set_file[i] != loc.file || r.set_line[i] != loc.line) continue;   // the place's one slot
        if (r.set_size[i] != size || r.set_lo[i] == r.set_hi[i]) return;
        const uint8_t* from = r.set_hi[i];
        if (from < c.ub || static_cast<uint64_t>(from - c.ub) % size != 0) return;
        const uint8_t* limit = c.ub + c.written_bytes;
        for (int j = 0; j < ScalarReads::kSetPlaces; ++j) {
            if (j == i || r.set_lo[j] == r.set_hi[j]) continue;
            if (r.set_lo[j] >= from) limit = std::min(limit, r.set_lo[j]);
            else if (r.set_hi[j] > from) return;
        }
        r.run_race = &race;
        r.run_end = &r.set_hi[i];
        r.run_from = from;
        r.run_limit = limit;
        r.run_stride = r.set_step[i] + 1;
        r.run_file = loc.file;
        r.run_line = loc.line;
        r.run_size = size;
        r.run_site = r.set_site[i];
        r.run_written = c.written.data();
        r.run_ub = c.ub;
        return;
    }
}
// The race records of the run's appends, in the order they were written, as local_write's append would have made each
// (RaceChecker::record_scalar_run); the run ends. Called for the run's checker before anything reads its state.
void settle_scalar_run(RaceChecker& race) {
    ScalarReads& r = t_scalar_reads;
    if (r.run_race != &race) return;
    const uint8_t* from = r.run_from;
    const uint8_t* end = *r.run_end;
    r.run_race = nullptr;
    r.run_end = &kNoRunEnd;
    r.run_from = nullptr;
    if (end > from)
        race.record_scalar_run(static_cast<uint64_t>(from - race.ub()), r.run_stride, r.run_size,
                               static_cast<uint64_t>(end - from) / r.run_stride, r.run_site);
}
void local_write(const Local& t, uint64_t index, uint32_t size, const void* in, SrcLoc loc) {
    enter_inline(Op::SetValue, loc);
    Core& c = core();
    check_index_fast(c, t, index, size, Op::SetValue, loc);
    // the race check: a write with nothing to check is only recorded (RaceChecker::scalar_write_settled), as a RaceScope
    // would record it; otherwise the RaceScope (which does nothing where the check is off)
    RaceChecker* race = c.race.get();
    if (race) settle_scalar_run(*race);   // the run of appends before this write, recorded (the ranges may change below)
    uint8_t* at = t.addr + index * size;
    if (race && append_set_range(c, *race, at, size, loc)) {   // execute mode: as below with `settled`, the range extended
        count_scalar_work(c, size);
        copy_scalar(at, in, size);
        mark_written_scalar(c, t, index, size);
        start_scalar_run(c, *race, size, loc);
        return;
    }
    const bool settled = race && (g_launch->mode != Mode::Trace || g_launch->auto_sync) && at >= race->ub() &&
                         race->scalar_write_settled(static_cast<uint64_t>(at - race->ub()), size, Op::SetValue, loc);
    if (!settled) RaceScope(TPipe_::S, Op::SetValue, loc).write(t.addr + index * size, size);
    if (tracing_now()) {
        record(TPipe_::S, TKind::INSTR, Op::SetValue, Dt::none, 0, loc, size, 1);
        return;
    }
    count_scalar_work(c, size);
    copy_scalar(t.addr + index * size, in, size);
    mark_written_scalar(c, t, index, size);
    if (settled || !race) keep_set_range(c, at, size, loc, race);
    if (settled) start_scalar_run(c, *race, size, loc);
}
// operator() hands out a reference: checked as a scalar read (write through SetValue to have it checked as one), its
// bytes marked written (the caller may write through it). EvoKernel's LinearAttentionCustom keeps its sums this way,
// three references an element in its inner loops: so local_read's inline checks, the same checks (check_index_fast,
// count_work, mark_written_scalar; each calls the full check where its fast case does not hold).
void* local_ref(const Local& t, uint64_t index, uint32_t size, SrcLoc loc) {
    enter_inline(Op::GetValue, loc);
    Core& c = core();
    check_index_fast(c, t, index, size, Op::GetValue, loc);
    const RaceChecker* race = c.race.get();
    if (race && !race->scalar_read_settled()) RaceScope(TPipe_::S, Op::GetValue, loc).read(t.addr + index * size, size);
    if (tracing_now()) {
        record(TPipe_::S, TKind::INSTR, Op::GetValue, Dt::none, 0, loc, size, 1);
        return t.addr + index * size;
    }
    count_scalar_work(c, size);
    mark_written_scalar(c, t, index, size);
    return t.addr + index * size;
}

// A scalar GM read is the hot call of kernels that loop over GM element by element (convolutions written with
// GetValue: 10^10 calls at a task's own shape, a GEMM 10^11). check_gm's only checks for a read inside an input buffer
// are the bounds; an output's read is tracked only when blocks run in parallel (another block may be writing it), and
// a buffer with deferred poison must see the poison. So the ranges with none of those (`plain`) are remembered per
// block (t_scalar_reads, reset by set_current_core), and a read inside one costs the bounds test, the work count and
// the copy: the same checks, made once. GlobalTensor::GetValue makes that test inline (gm_get, runtime.h); the loop
// below is the same test for the other callers.
// With the blocks one at a time, an output's span is the part of the buffer around the read that holds no other block's
// write of this phase (gm_read_plain_span): a read there has no gm-read-race to find. Other blocks write only while this
// block waits: SyncAll clears their ranges, and DataCacheCleanAndInvalid's hand-over forgets the spans
// (scalar_read_spans_forget).
static bool plain_read(const GmBuffer& b, const void* p, uint32_t size, uint64_t* lo, uint64_t* hi) {
    const uint8_t* a = static_cast<const uint8_t*>(p);
    const bool tracked = (b.role == Role::Out || b.role == Role::InOut || b.role == Role::Workspace) && g_launch->parallel;
    return !tracing_now() && !g_launch->cross && b.real && !b.alias && !tracked && a >= b.base && a + size <= b.base + b.bytes &&
           gm_read_plain_span(b, p, lo, hi) && reinterpret_cast<uintptr_t>(a) + size <= *hi;
}
void scalar_read_spans_forget() {
    ScalarReads& r = t_scalar_reads;
    for (int i = 0; i < ScalarReads::kSpans; ++i) { r.lo[i] = nullptr; r.room[i] = 0; }
}

void gm_read(const void* p, uint32_t size, void* out, SrcLoc loc) {
    enter_inline(Op::GetValue, loc);
    Core& c = core();
    ScalarReads& r = t_scalar_reads;
    if (!g_launch->status) r.file = loc.file;   // no status page to keep current: any file's reads take the fast path
    const uint8_t* a = static_cast<const uint8_t*>(p);
    for (int i = 0; i < ScalarReads::kSpans; ++i) {
        const uint64_t d = static_cast<uint64_t>(a - r.lo[i]), len = r.room[i] + 7;
        if (r.room[i] && d < len && size <= len - d) {
            count_scalar_work(c, size);
            copy_scalar(out, a, size);
            return;
        }
    }
    const GmBuffer& b = check_gm(p, size, false, Op::GetValue, loc);
    record_gm(TPipe_::S, Op::GetValue, Dt::none, 0, loc, size, 1, 1, size, GmPlace{&b, p, size});
    if (b.real) std::memcpy(out, gm_source(b, p), size);
    else std::memset(out, 0, size);
    uint64_t span_lo = 0, span_hi = 0;
    if (plain_read(b, p, size, &span_lo, &span_hi) && span_hi - span_lo >= 8) {   // the latest found first; the oldest of four drops out
        std::memmove(r.lo + 1, r.lo, sizeof(r.lo[0]) * (ScalarReads::kSpans - 1));
        std::memmove(r.room + 1, r.room, sizeof(r.room[0]) * (ScalarReads::kSpans - 1));
        r.lo[0] = reinterpret_cast<const uint8_t*>(span_lo);
        r.room[0] = span_hi - span_lo - 7;
    }
}
void* gm_ref(void* p, uint32_t size, SrcLoc loc) {
    enter_inline(Op::GetValue, loc);
    const GmBuffer& b = check_gm(p, size, false, Op::GetValue, loc);
    record_gm(TPipe_::S, Op::GetValue, Dt::none, 0, loc, size, 1, 1, size, GmPlace{&b, p, size});
    if (b.real) return gm_target(b, p);
    alignas(16) static thread_local uint8_t scratch[64];   // a buffer without bytes (trace mode): reads see zeros
    std::memset(scratch, 0, sizeof scratch);
    return scratch;
}
// A scalar GM write (SetValue) is the other hot call of kernels that compute on the scalar unit: one per output element.
// Its fast path makes check_gm's, track_gm_write's and record_gm's checks for a write inside the buffer the block's last
// scalar write went to, with that buffer's place and bitmap kept from then (t_scalar_writes) instead of looked up:
// bounds (inside the buffer, short of its last byte, which ApiWrites::mark counts by chunk), not an input (the slow path
// reported that), execute mode without atomic accumulation or cross-core launch; the write counted (gm_writes), its
// bytes marked as an API write, the overlap check between blocks made as track_gm_write makes it (a write another
// block made in this phase takes the slow path, which compares the values), the S pipe's work counted, the bytes
// written where the buffer's deferred poison puts them. Anything else takes the slow path.
static inline bool gm_write_fast(void* p, uint32_t size, const void* in) {
    const ScalarWrites& w = t_scalar_writes;
    const GmBuffer* b = w.buffer;
    uint8_t* a = static_cast<uint8_t*>(p);
    if (!b || a < b->base || a >= b->base + b->bytes || size >= static_cast<uint64_t>(b->base + b->bytes - a)) return false;
    Core& c = *t_core;
    if (c.atomic_add || tracing_now() || g_launch->cross) return false;
    const uint64_t lo = reinterpret_cast<uintptr_t>(p);
    OverlapTracker::Conflict k{};
    if (g_launch->parallel) g_launch->block_writes[c.idx].add(lo, lo + size, c.idx, &k);
    else if (!g_launch->overlap.add(lo, lo + size, c.idx, &k)) return false;   // left as it was: the slow path decides
    ++c.gm_writes;
    if (uint8_t* bits = w.bits) {   // ApiWrites::mark of bytes inside one chunk: their byte bits
        const uint64_t off = static_cast<uint64_t>(a - b->base);
        if (off % 8 + size <= 8) {
            const uint8_t mask = static_cast<uint8_t>(((1u << size) - 1u) << (off % 8));
            if ((bits[off / 8] & mask) != mask) __atomic_fetch_or(&bits[off / 8], mask, __ATOMIC_RELAXED);
        } else {
            g_launch->api_writes.mark(*b, off, size);
        }
    }
    count_scalar_work(c, size);
    if (b->real) copy_scalar(gm_target(*b, p), in, size);
    return true;
}
// After a write gm_write checked and recorded: the range of this block's writes that holds it, for GlobalTensor::
// SetValue's fast path (gm_set, runtime.h) in slot 0, the other range kept in slot 1 if the tracker is unchanged
// since it was found. Only where gm_write_fast would take the write too: execute mode, no atomic accumulation, no
// cross-core launch, a buffer the kernel may write (not an input, not a __gm__ array of its own), and 8-byte aligned
// (a scalar's bits then lie in one byte of the bitmap when its address does not cross an 8-byte boundary).
static void keep_gm_set_range(const GmBuffer& b, const void* p, const SrcLoc& loc) {
    Core& c = *t_core;
    if (tracing_now() || g_launch->cross || c.atomic_add || !b.real || b.role == Role::In || b.constant ||
        reinterpret_cast<uintptr_t>(b.base) % 8)
        return;
    OverlapTracker& tracker = g_launch->parallel ? g_launch->block_writes[c.idx] : g_launch->overlap;
    uint64_t lo = 0, next = 0;
    uint64_t* hi = nullptr;
    if (!tracker.own_range(reinterpret_cast<uintptr_t>(p), c.idx, &lo, &hi, &next)) return;
    ScalarReads& r = t_scalar_reads;
    if (!g_launch->status) r.file = loc.file;   // no status page to keep current: any file's writes take the fast path
    if (r.gm_version != tracker.version() || r.gm_seen != *tracker.version()) {   // slot 1's range may be gone
        scalar_writes_forget();
        r.gm_version = tracker.version();
        r.gm_seen = *tracker.version();
    }
    r.gm_read_ok = !g_launch->parallel;
    if (r.gm_hi[0] != hi) {   // slot 0 the newest, the other one kept unless it is this range
        if (r.gm_hi[1] != hi) {
            r.gm_lo[1] = r.gm_lo[0];
            r.gm_hi[1] = r.gm_hi[0];
            r.gm_limit[1] = r.gm_limit[0];
            r.gm_base[1] = r.gm_base[0];
            r.gm_alias[1] = r.gm_alias[0];
            r.gm_bits[1] = r.gm_bits[0];
        }
        r.gm_lo[0] = std::max<uint64_t>(lo, reinterpret_cast<uintptr_t>(b.base));   // a range may reach into a buffer
        r.gm_hi[0] = hi;                                                            // mapped just before or after this one
        r.gm_limit[0] = std::min<uint64_t>(next, reinterpret_cast<uintptr_t>(b.base) + b.bytes);
        r.gm_base[0] = reinterpret_cast<uintptr_t>(b.base);
        r.gm_alias[0] = &b.alias;
        r.gm_bits[0] = g_launch->api_writes.byte_bits(b);
    }
}
void gm_write(void* p, uint32_t size, const void* in, SrcLoc loc) {
    enter_inline(Op::SetValue, loc);
    if (gm_write_fast(p, size, in)) {
        keep_gm_set_range(*t_scalar_writes.buffer, p, loc);
        return;
    }
    const GmBuffer& b = check_gm(p, size, true, Op::SetValue, loc);
    if (t_scalar_writes.buffer != &b && b.role != Role::In) t_scalar_writes = ScalarWrites{&b, g_launch->api_writes.byte_bits(b)};
    track_gm_write(p, size, Op::SetValue, loc, in);
    record_gm(TPipe_::S, Op::SetValue, Dt::none, 0, loc, size, 1, 1, size, GmPlace{&b, p, size});
    if (b.real && !tracing_now()) std::memcpy(gm_target(b, p), in, size);
    keep_gm_set_range(b, p, loc);
}
void gm_fill(void* p, uint64_t count, uint32_t size, const void* value, SrcLoc loc) {
    enter(Op::InitGlobalMemory, loc);
    const GmBuffer& b = check_gm(p, count * size, true, Op::InitGlobalMemory, loc);
    track_gm_write(p, count * size, Op::InitGlobalMemory, loc, value, size);
    record_gm(TPipe_::MTE3, Op::InitGlobalMemory, Dt::none, 0, loc, count * size, count, 1,
              static_cast<uint32_t>(std::min<uint64_t>(count * size, 0xFFFFFFFFull)), GmPlace{&b, p, count * size});
    if (!b.real || tracing_now()) return;
    uint8_t* d = gm_target(b, p);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(d + i * size, value, size);
}

void tiling_read(void* dst, const void* gm, uint64_t bytes, SrcLoc loc) {
    enter(Op::GET_TILING_DATA, loc);
    const GmBuffer& b = check_gm(gm, bytes, false, Op::GET_TILING_DATA, loc);
    if (b.real) std::memcpy(dst, gm, bytes);
    else std::memset(dst, 0, bytes);
}
void tiling_copy(void* dst, const void* src, uint64_t bytes, SrcLoc loc) {
    if (g_launch->gm.find(src, 1)) return tiling_read(dst, src, bytes, loc);
    enter(Op::GET_TILING_DATA, loc);
    std::memcpy(dst, src, bytes);   // a struct on the kernel's stack (hicann ops-nn fused_linear_cross_entropy_loss_grad)
}

// ---- mask and atomic state ------------------------------------------------------------------------------------
void mask_set(Dt dt, bool counterTemplate, uint64_t hi, uint64_t lo, bool lenForm, SrcLoc loc) {
    enter(Op::SetVectorMask, loc);
    Core& c = core();
    if (c.counter_mode || counterTemplate) {
        c.counter_value = lo;
        return;
    }
    if (lenForm) {
        uint32_t epr = 256 / dt_size(dt);
        char form[48];
        snprintf(form, sizeof form, "SetVectorMask<%s>", dt_name(dt));
        if (!continuous_mask_as_a2(lo, epr, Op::SetVectorMask, loc, form))
            Report("vector-mask", Op::SetVectorMask, loc)
                .msg("SetVectorMask<%s>(%llu): a repeat of %s has %u lanes", dt_name(dt), static_cast<unsigned long long>(lo),
                     dt_name(dt), epr)
                .fail();
        lanes_to_bits(lo, c.mask_bits);
    } else {
        c.mask_bits[0] = lo;
        c.mask_bits[1] = hi;
    }
}
void mask_mode(bool counter, SrcLoc loc) {
    enter(counter ? Op::SetMaskCount : Op::SetMaskNorm, loc);
    core().counter_mode = counter;
}
// The CTRL register as get_ctrl / set_ctrl see it: bit 56 is the mask mode the vector APIs follow (SetMaskCount /
// SetMaskNorm); the other bits are kept as written and change nothing in the emulation.
constexpr uint64_t kCtrlMaskMode = 1ull << 56;
uint64_t ctrl_read() { return (core().ctrl_rest & ~kCtrlMaskMode) | (core().counter_mode ? kCtrlMaskMode : 0); }
void ctrl_write(uint64_t value, SrcLoc loc) {
    core().ctrl_rest = value & ~kCtrlMaskMode;
    if (((value & kCtrlMaskMode) != 0) != core().counter_mode) mask_mode((value & kCtrlMaskMode) != 0, loc);
}
void mask_reset(SrcLoc loc) {
    enter(Op::ResetMask, loc);
    Core& c = core();
    c.mask_bits[0] = c.mask_bits[1] = ~0ull;
}
void atomic_set(bool add, Dt dt, SrcLoc loc) {
    enter(add ? Op::SetAtomicAdd : Op::SetAtomicNone, loc);
    Core& c = core();
    c.atomic_add = add;
    c.atomic_dt = dt;
    c.atomic_mode = AtomicMode::add;
    scalar_writes_forget();   // no fast-path GM write while atomic accumulation is on (keep_gm_set_range)
}

void dump_tensor(const Local& t, Dt dt, uint32_t desc, uint32_t count, SrcLoc loc) {
    enter(Op::DumpTensor, loc);
    // The API reference: a LocalTensor in UB, L1 or L0C (and a GlobalTensor, dump_raw); L0A / L0B and the cube core's
    // other buffers cannot be printed.
    const uint8_t region = cube_region_of(t.pos);
    if (region == kRegionL1 || region == kRegionL0C) {
        const std::vector<uint8_t>& mem = core().cube_mem[region];
        if (mem.empty() || !t.addr || t.addr < mem.data() || t.addr + t.bytes > mem.data() + mem.size())
            Report("cube-position", Op::DumpTensor, loc)
                .msg("DumpTensor: the tensor's position is %s, but it does not point into this block's %s",
                     position_name(t.pos), cube_region_name(region))
                .hint("dump a LocalTensor from a TQue/TBuf of that position, after it was allocated")
                .fail();
    } else if (region != kRegionUB) {
        Report("cube-position", Op::DumpTensor, loc)
            .msg("DumpTensor prints tensors in UB, L1 or L0C (or GM), not in %s", cube_region_name(region))
            .val("position", position_name(t.pos))
            .hint("copy the data to L1, UB or GM first and dump it there")
            .fail();
    } else {
        check_local(t, Op::DumpTensor, loc, "tensor", 1);
    }
    uint32_t n = std::min<uint32_t>(count, t.bytes / dt_size(dt));
    printf("DumpTensor: desc=%u, block=%d, %s[%u]:", desc, core().idx, dt_name(dt), n);
    for (uint32_t i = 0; i < n; ++i) printf(" %g", tracing_now() ? 0.0 : load_d(dt, t.addr + static_cast<uint64_t>(i) * dt_size(dt)));
    printf("\n");
}

void dump_raw(const void* p, Dt dt, uint32_t desc, uint32_t count, const char* where, SrcLoc loc) {
    enter(Op::DumpTensor, loc);
    const uint8_t* a = static_cast<const uint8_t*>(p);
    Core& c = core();
    uint32_t n = count;
    if (a >= c.ub && a < c.ub + g_launch->ub_bytes)     // a UB address: no further than the end of the block's UB
        n = std::min<uint32_t>(n, static_cast<uint32_t>((c.ub + g_launch->ub_bytes - a) / dt_size(dt)));
    printf("DumpTensor: desc=%u, block=%d, %s, %s[%u]:", desc, c.idx, where, dt_name(dt), n);
    for (uint32_t i = 0; i < n; ++i) printf(" %g", tracing_now() ? 0.0 : load_d(dt, a + static_cast<uint64_t>(i) * dt_size(dt)));
    printf("\n");
}

}}  // namespace ascendcraft::emu
