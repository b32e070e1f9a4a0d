// AscendCraft CPU emulation runtime: the race check between the pipes of one core (execute mode).
// The model and its happens-before edges are described in ascendcraft_emu/race.h.
#include <algorithm>
#include <cstdlib>

#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {

constexpr uint8_t kS = static_cast<uint8_t>(TPipe_::S), kV = static_cast<uint8_t>(TPipe_::V),
                  kMte2 = static_cast<uint8_t>(TPipe_::MTE2), kMte3 = static_cast<uint8_t>(TPipe_::MTE3);
static_assert(kS == 0 && kV == 1 && kMte2 == 2 && kMte3 == 3, "the race check indexes its clocks by TPipe_ 0..3");
const char* const kPipeNames[kRacePipes] = {"S", "V", "MTE2", "MTE3"};
// RaceChecker's tracks: 0..2 the writes of S, V, MTE2; 3..4 the reads of V, MTE3.
constexpr uint8_t kTrackPipe[5] = {kS, kV, kMte2, kV, kMte3};
constexpr bool kTrackWrites[5] = {true, true, true, false, false};
constexpr uint32_t kMaxWarnings = 20;
constexpr uint32_t kPageBytes = 1024;

int own_track(uint8_t pipe, bool write) {
    if (write) return pipe <= kMte2 ? pipe : -1;
    return pipe == kV ? 3 : (pipe == kMte3 ? 4 : -1);
}
// The tracks an access can race with: other pipes' writes, and for a write other pipes' reads.
bool races_with(int track, uint8_t pipe, bool write) {
    return kTrackPipe[track] != pipe && (write || kTrackWrites[track]);
}
const char* hazard_of(int track, bool write) {
    return !write ? "read-after-write" : (kTrackWrites[track] ? "write-after-write" : "write-after-read");
}
// Bytes [lo, hi) of `block` (hi > lo, both inside the UB) as a mask of the block's 32 bytes.
uint32_t block_mask(uint32_t block, uint32_t lo, uint32_t hi) {
    const uint32_t first = std::max(lo, block * 32) - block * 32, last = std::min(hi, block * 32 + 32) - 1 - block * 32;
    return (~0u << first) & (~0u >> (31 - last));
}
bool tracked(uint8_t pipe) { return pipe < kRacePipes; }
const char* base_name(const char* path) {
    const char* slash = path ? strrchr(path, '/') : nullptr;
    return slash ? slash + 1 : (path ? path : "");
}

}  // namespace

// ---- state ---------------------------------------------------------------------------------------------
RaceChecker::RaceChecker(uint8_t* ub, uint32_t ub_bytes)
    : ub_(ub), ub_bytes_(ub_bytes), pages_count_((ub_bytes + kPageBytes - 1) / kPageBytes) {
    const size_t pages = pages_count_ ? pages_count_ : 1;
    pages_ = static_cast<Page*>(calloc(pages, sizeof(Page)));
    blocks_ = static_cast<Block*>(malloc(pages * kPageBlocks * sizeof(Block)));
    if (!pages_ || !blocks_) {
        fprintf(stderr, "ascendcraft emulator: cannot allocate the race check's shadow state\n");
        die(4);
    }
}

RaceChecker::~RaceChecker() {
    free(pages_);
    free(blocks_);
}

void RaceChecker::reset(uint8_t* ub) {
    ub_ = ub;
    ++epoch_;
    std::memset(pages_, 0, static_cast<size_t>(pages_count_ ? pages_count_ : 1) * sizeof(Page));
    now_ = VClock();
    for (VClock& k : known_) k = VClock();
    for (Clock& c : newest_) c = 0;
    for (auto& from : user_flags_)
        for (auto& to : from)
            for (Flag& f : to) f = Flag();
    queue_flags_.clear();
}

VClock RaceChecker::row(uint8_t pipe) const {
    VClock r = known_[pipe];
    if (pipe != kS) r.join(known_[kS]);  // the scalar unit issued this instruction after all it knows
    return r;
}

Clock RaceChecker::issue(uint8_t pipe, VClock* known) {
    settle();
    *known = row(pipe);
    return ++now_.c[pipe];
}

uint32_t RaceChecker::site(Op op, const SrcLoc& loc) {
    SiteKey key{loc.file, loc.line, op};
    SiteSlot& slot = site_cache_[SiteHash()(key) % kSiteSlots];
    if (slot.key == key) return slot.index;
    auto it = site_index_.find(key);
    uint32_t index;
    if (it != site_index_.end()) {
        index = it->second;
    } else {
        index = static_cast<uint32_t>(sites_.size());
        sites_.push_back(Site{op, loc.line, loc.file});
        site_index_.emplace(key, index);
    }
    slot = SiteSlot{key, index};
    return index;
}

// ---- synchronisation -----------------------------------------------------------------------------------
RaceChecker::Flag* RaceChecker::flag(uint8_t src, uint8_t dst, uint16_t event) {
    if (!tracked(src) || !tracked(dst)) return nullptr;
    if (event < 8) return &user_flags_[src][dst][event];
    if (event < kQueueEventBase) return nullptr;
    // a queue buffer's two flags: producer -> consumer (EnQue / DeQue) and back (FreeTensor / AllocTensor)
    const size_t index = static_cast<size_t>(event - kQueueEventBase) * 2 + (src > dst ? 1 : 0);
    if (index >= queue_flags_.size()) queue_flags_.resize(index + 1);
    return &queue_flags_[index];
}

void RaceChecker::set_flag(uint8_t src, uint8_t dst, uint16_t event) {
    settle();
    Flag* f = flag(src, dst, event);
    if (!f) return;
    VClock carried = row(src);
    carried.c[src] = now_.c[src];     // the flag fires once every earlier instruction of src is complete
    if (src == kS) ++epoch_;          // the S clock observed (scalar_epoch)
    if (f->set && event < 8) {        // a user flag set again before its wait: the next wait takes the first set's clock
        f->later.push_back(carried);  // (a queue buffer's flags keep the newest set, as the queues set them)
    } else {
        f->carried = carried;
        f->set = true;
    }
}

void RaceChecker::wait_flag(uint8_t src, uint8_t dst, uint16_t event) {
    settle();
    Flag* f = flag(src, dst, event);
    if (!f || !f->set) return;
    known_[dst].join(f->carried);
    if (f->later.empty()) {
        f->set = false;  // WaitFlag clears the flag
    } else {             // it takes the oldest set; the next one is pending
        f->carried = f->later.front();
        f->later.erase(f->later.begin());
    }
}

void RaceChecker::barrier_all() {
    settle();
    for (VClock& k : known_) k = now_;
    ++epoch_;   // the S clock observed (scalar_epoch)
}

// ---- accesses -----------------------------------------------------------------------------------------
void RaceChecker::Track::add(Clock clock, uint32_t site, uint32_t mask) {
    if (last.clock == clock) {  // the same instruction touches this block again: one access, the union of its bytes
        last.mask |= mask;
        prior.mask &= ~mask;
        if (!prior.mask) prior = Access{0, 0, 0};
        return;
    }
    const uint32_t left = (prior.mask | last.mask) & ~mask;  // earlier bytes this access does not cover
    if (left) {
        prior.mask = left;
        if (last.clock) { prior.clock = last.clock; prior.site = last.site; }
    } else {
        prior = Access{0, 0, 0};
    }
    last = Access{clock, site, mask};
}

void RaceChecker::check(RaceScope& s, uint32_t block, uint32_t mask, const Track& track, uint8_t other_pipe,
                        const char* hazard) {
    const Clock known = s.known_.c[other_pipe];
    if (track.last.clock > known && (track.last.mask & mask)) conflict(s, block, track.last.mask & mask, track.last, other_pipe, hazard);
    if (track.prior.clock > known && (track.prior.mask & mask)) conflict(s, block, track.prior.mask & mask, track.prior, other_pipe, hazard);
}

void RaceChecker::check_page(RaceScope& s, uint32_t page, uint32_t lo, uint32_t hi, int track) {
    const uint8_t other = kTrackPipe[track];
    const Page& pg = pages_[page];
    if (pg.newest[track] <= s.known_.c[other]) return;  // everything in the page is known to be complete
    const char* hazard = hazard_of(track, s.write_);
    if (!(pg.detailed & (1u << track))) {  // one access covers the page: it races on the first byte
        const uint32_t block = lo / 32;
        conflict(s, block, block_mask(block, lo, hi), pg.whole[track], other, hazard);
        return;
    }
    const Clock known = s.known_.c[other];
    for (uint32_t b = lo / 32; b <= (hi - 1) / 32; ++b) {
        const Track& t = blocks_[b].track[track];
        if (t.last.clock <= known && t.prior.clock <= known) continue;  // this block's accesses are known complete
        check(s, b, block_mask(b, lo, hi), t, other, hazard);
    }
}

void RaceChecker::record_page(RaceScope& s, uint32_t page, uint32_t lo, uint32_t hi, int track) {
    record_page(s.clock_, s.site_, page, lo, hi, track);
}
void RaceChecker::record_page(Clock clock, uint32_t site, uint32_t page, uint32_t lo, uint32_t hi, int track) {
    Page& pg = pages_[page];
    pg.newest[track] = clock;
    const uint8_t bit = static_cast<uint8_t>(1u << track);
    if (lo == page * kPageBytes && hi == lo + kPageBytes) {  // the whole page: one record
        pg.whole[track] = Access{clock, site, ~0u};
        pg.detailed &= static_cast<uint8_t>(~bit);
        return;
    }
    Block* blocks = blocks_ + static_cast<size_t>(page) * kPageBlocks;
    if (!(pg.detailed & bit)) {  // spread the page's record over its blocks
        for (uint32_t k = 0; k < kPageBlocks; ++k) blocks[k].track[track] = Track{pg.whole[track], Access{0, 0, 0}};
        pg.detailed |= bit;
    }
    // The first and the last block may be partial (Track::add of their bytes); the blocks between are whole, where
    // Track::add with every byte's bit set comes to {this access, none}.
    const uint32_t first = lo / 32, last = (hi - 1) / 32;
    auto edge = [&](uint32_t b) {
        Track& t = blocks_[b].track[track];
        const uint32_t mask = block_mask(b, lo, hi);
        if (mask == ~0u) {
            t.last = Access{clock, site, ~0u};
            t.prior = Access{0, 0, 0};
        } else {
            t.add(clock, site, mask);
        }
    };
    edge(first);
    if (last == first) return;
    for (uint32_t b = first + 1; b < last; ++b) {
        Track& t = blocks_[b].track[track];
        t.last = Access{clock, site, ~0u};
        t.prior = Access{0, 0, 0};
    }
    edge(last);
}

void RaceChecker::access(RaceScope& s, uint64_t lo64, uint64_t hi64, bool write) {
    settle();
    hi64 = std::min<uint64_t>(hi64, ub_bytes_);
    if (lo64 >= hi64) return;
    const uint32_t lo = static_cast<uint32_t>(lo64), hi = static_cast<uint32_t>(hi64);
    const uint8_t pipe = s.pipe_;
    const int own = own_track(pipe, write);  // -1 for a scalar read: it needs no record (see race.h)
    s.write_ = write;
    int open[kTracks], count = 0;  // tracks with an access this pipe does not know to be complete
    for (int t = 0; t < kTracks; ++t)
        if (races_with(t, pipe, write) && newest_[t] > s.known_.c[kTrackPipe[t]]) open[count++] = t;
    if (own == 0) ++epoch_;   // a scalar write recorded here, perhaps of another place than local_set's range (scalar_epoch)
    if (own >= 0) newest_[own] = s.clock_;
    else if (!count) return;
    for (uint32_t page = lo / kPageBytes; page <= (hi - 1) / kPageBytes; ++page) {
        const uint32_t plo = std::max(lo, page * kPageBytes), phi = std::min(hi, (page + 1) * kPageBytes);
        for (int i = 0; i < count; ++i) check_page(s, page, plo, phi, open[i]);
        if (own >= 0) record_page(s, page, plo, phi, own);
    }
}

bool RaceChecker::scalar_write_open(uint64_t lo, uint32_t size) const {
    const VClock& known = known_[kS];   // row(S): what the scalar unit knows
    for (int t = 0; t < kTracks; ++t)   // access()'s open tracks for an S write: every track but S's own writes
        if (races_with(t, kS, true) && newest_[t] > known.c[kTrackPipe[t]]) return true;
    const uint64_t hi = std::min<uint64_t>(lo + size, ub_bytes_);
    return lo >= hi || lo / kPageBytes != (hi - 1) / kPageBytes;   // none or two pages: as access() does
}
void RaceChecker::record_scalar_write(uint64_t lo, uint32_t size, uint32_t where) {
    const uint64_t hi = std::min<uint64_t>(lo + size, ub_bytes_);
    const Clock clock = ++now_.c[kS];   // issue()
    newest_[0] = clock;
    record_page(clock, where, static_cast<uint32_t>(lo / kPageBytes), static_cast<uint32_t>(lo), static_cast<uint32_t>(hi), 0);
}
bool RaceChecker::scalar_write_settled(uint64_t lo, uint32_t size, Op op, const SrcLoc& loc) {
    settle();
    if (scalar_write_open(lo, size)) return false;
    record_scalar_write(lo, size, site(op, loc));
    return true;
}
bool RaceChecker::scalar_write_settled(uint64_t lo, uint32_t size, uint32_t where) {
    settle();
    if (scalar_write_open(lo, size)) return false;
    record_scalar_write(lo, size, where);
    return true;
}
// Element k's record is record_scalar_write's: clock now + 1 + k, and in its page and 32-byte block of track 0 (S writes)
// what record_page makes, Track::add of its bytes. Made a block at a time: the elements of one block, j = 1..n, are
// disjoint and their clocks new and rising, so n adds leave `last` the n-th (its clock and bytes) and `prior` the
// (n-1)-th's clock over every earlier byte the n-th does not cover; the same as an add of the first n-1 elements' bytes
// at the (n-1)-th's clock, then the n-th's add. A run whose elements are not each inside one block (not aligned to a
// size of 1, 2, 4 or 8 bytes, a stride below the size) or reach past UB: one record_scalar_write an element.
void RaceChecker::record_scalar_run(uint64_t lo, uint64_t stride, uint32_t size, uint64_t count, uint32_t where) {
    if (!count) return;
    if (size > 8 || (size & (size - 1)) != 0 || lo % size != 0 || stride < size || stride % size != 0 ||
        lo + (count - 1) * stride + size > ub_bytes_) {
        for (uint64_t k = 0; k < count; ++k) record_scalar_write(lo + k * stride, size, where);
        return;
    }
    const Clock base = now_.c[kS];   // element k's clock: base + 1 + k
    now_.c[kS] = base + static_cast<Clock>(count);
    newest_[0] = now_.c[kS];
    const uint32_t bits = (1u << size) - 1u;
    const uint8_t bit = 1u;   // track 0's bit in Page::detailed
    uint64_t k = 0;
    while (k < count) {
        const uint64_t at = lo + k * stride;
        const uint32_t block = static_cast<uint32_t>(at / 32), page = block / kPageBlocks;
        Page& pg = pages_[page];
        Block* blocks = blocks_ + static_cast<size_t>(page) * kPageBlocks;
        if (!(pg.detailed & bit)) {   // spread the page's record over its blocks, as record_page does
            for (uint32_t b = 0; b < kPageBlocks; ++b) blocks[b].track[0] = Track{pg.whole[0], Access{0, 0, 0}};
            pg.detailed |= bit;
        }
        uint32_t before = 0, mask = bits << (at % 32);   // the bytes of the block's elements before its last; its last
        uint64_t next = k + 1;
        for (; next < count && (lo + next * stride) / 32 == block; ++next) {
            before |= mask;
            mask = bits << ((lo + next * stride) % 32);
        }
        Track& t = blocks_[block].track[0];
        const Clock last = base + static_cast<Clock>(next);   // the clock of element next - 1
        if (before) t.add(last - 1, where, before);
        t.add(last, where, mask);
        pg.newest[0] = last;
        k = next;
    }
}

std::string RaceChecker::describe(uint32_t offset) const {
    const Core& c = *current_core();
    const Queue* found = nullptr;
    for (const Queue& q : c.queues) {
        const uint64_t end = q.base + static_cast<uint64_t>(q.len) * q.slots.size();
        if (offset >= q.base && offset < end && (!found || q.live)) found = &q;
    }
    if (!found) return "";
    const uint32_t inside = offset - found->base;
    if (found->is_buf) return fmt(" (byte %u of a %s TBuf)", inside, position_name(found->src));
    return fmt(" (byte %u of buffer %u of a %s queue)", inside % found->len, inside / found->len, position_name(found->src));
}

void RaceChecker::auto_sync(RaceScope& s, uint8_t other) {
    if (s.known_.c[other] >= now_.c[other]) return;  // already waited for everything the other pipe issued
    VClock carried = row(other);
    carried.c[other] = now_.c[other];
    if (other == kS) ++epoch_;   // the S clock observed (scalar_epoch)
    known_[s.pipe_].join(carried);
    s.known_.join(carried);
    ++auto_waits_;
    if (!tracing_now()) return;
    // SET on the other pipe, WAIT on this one, both right before this instruction's own record
    std::vector<Record>& t = core().trace;
    const size_t at = std::min(s.trace_mark_, t.size());
    record_flag(TKind::SET, other, s.pipe_, kAutoSyncEvent, s.op_, *s.loc_);
    record_flag(TKind::WAIT, other, s.pipe_, kAutoSyncEvent, s.op_, *s.loc_);
    if (at + 2 < t.size()) std::rotate(t.begin() + static_cast<long>(at), t.end() - 2, t.end());
    s.trace_mark_ += 2;
}

void RaceChecker::conflict(RaceScope& s, uint32_t block, uint32_t mask, const Access& other, uint8_t other_pipe,
                           const char* hazard) {
    if (g_launch->auto_sync) { auto_sync(s, other_pipe); return; }
    if (s.reported_) return;
    const Site& there = sites_[other.site];
    const uint32_t lo = block * 32 + static_cast<uint32_t>(__builtin_ctz(mask));
    const uint32_t hi = block * 32 + 31 - static_cast<uint32_t>(__builtin_clz(mask));  // inclusive
    const char* mine = kPipeNames[s.pipe_];
    const char* theirs = kPipeNames[other_pipe];
    const std::string event = std::string(theirs) + "_" + mine;
    const bool same_file = there.file && s.loc_->file && strcmp(there.file, s.loc_->file) == 0;
    const std::string where = same_file ? fmt("line %d", there.line) : fmt("%s:%d", base_name(there.file), there.line);
    const RaceMode mode = g_launch->races;
    s.reported_ = true;
    if (mode == RaceMode::Warning) {  // each pair of sites once, and not too many
        std::lock_guard<std::mutex> lock(g_launch->race_mutex);
        std::string key = fmt("%s:%d:%s|%s:%d:%s", s.loc_->file, s.loc_->line, op_name(s.op_), there.file, there.line,
                              op_name(there.op));
        if (g_launch->race_warnings >= kMaxWarnings || !g_launch->race_seen.insert(key).second) return;
        ++g_launch->race_warnings;
    }
    const std::string region = describe(lo);
    Report r("ub-race", s.op_, *s.loc_);
    if (hazard[0] == 'r')
        r.msg("%s (PIPE_%s) reads UB bytes %u..%u%s, last written by %s (PIPE_%s) at %s, and no synchronisation orders "
              "the two: on the NPU the pipes run concurrently and the read can see the old data (%s)",
              op_name(s.op_), mine, lo, hi, region.c_str(), op_name(there.op), theirs, where.c_str(), hazard);
    else if (strcmp(hazard, "write-after-read") == 0)
        r.msg("%s (PIPE_%s) writes UB bytes %u..%u%s, which %s (PIPE_%s) at %s reads, and no synchronisation orders the "
              "two: on the NPU the write can land before that read has happened (%s)",
              op_name(s.op_), mine, lo, hi, region.c_str(), op_name(there.op), theirs, where.c_str(), hazard);
    else
        r.msg("%s (PIPE_%s) writes UB bytes %u..%u%s, which %s (PIPE_%s) at %s also writes, and no synchronisation "
              "orders the two: on the NPU the writes can land in either order (%s)",
              op_name(s.op_), mine, lo, hi, region.c_str(), op_name(there.op), theirs, where.c_str(), hazard);
    r.hint("with auto-sync off (auto_sync = false in settings.ini, or auto_sync=False), make PIPE_%s wait for PIPE_%s after the %s at %s and before this %s: SetFlag<HardEvent::%s>(id); "
           "WaitFlag<HardEvent::%s>(id); with id = GetTPipePtr()->FetchEventID(HardEvent::%s) (or PipeBarrier<PIPE_ALL>())",
           mine, theirs, op_name(there.op), where.c_str(), op_name(s.op_), event.c_str(), event.c_str(), event.c_str())
        .val("hazard", hazard).val("pipe", mine).val("other_api", op_name(there.op)).val("other_line", there.line)
        .val("other_file", base_name(there.file)).val("other_pipe", theirs).val("ub_offset", lo)
        .val("bytes", hi - lo + 1).val("event", event.c_str());
    if (mode == RaceMode::Error) r.fail();
    r.warn();
}

// ---- one instruction -------------------------------------------------------------------------------------
void RaceScope::begin(TPipe_ pipe, Op op, const SrcLoc& loc) {
    Core* c = current_core();
    if (!c || !c->race) return;
    checker_ = c->race.get();
    loc_ = &loc;
    op_ = op;
    pipe_ = static_cast<uint8_t>(pipe);
    write_ = false;
    reported_ = false;
    clock_ = checker_->issue(pipe_, &known_);
    site_ = checker_->site(op, loc);
    trace_mark_ = tracing_now() ? c->trace.size() : 0;
}

void RaceScope::operand(const Geometry& g, const Local& t, const Stride& s, uint32_t esize, bool write) {
    if (!checker_) return;
    if (g.contiguous) { touch(t.addr, g.count * esize, write); return; }
    if (uint64_t bytes; dense_operand(g, s, esize, &bytes)) { touch(t.addr, bytes, write); return; }  // as the loop would
    // Level 0: each repeat touches up to 8 datablocks; within one, the bytes from its first to its last
    // active lane. Ranges that continue one another are checked as one.
    uint64_t run_lo = 0, run_hi = 0;
    each_block(g, esize, [&](uint32_t r, uint32_t k, uint32_t mask) {
        const uint32_t first = static_cast<uint32_t>(__builtin_ctz(mask)), last = 31 - static_cast<uint32_t>(__builtin_clz(mask));
        const uint64_t lo = block_offset(s, r, k) + static_cast<uint64_t>(first) * esize;
        const uint64_t hi = lo + static_cast<uint64_t>(last - first + 1) * esize;
        if (run_hi > run_lo && lo == run_hi) { run_hi = hi; return; }
        // bytes the current run already covers (a broadcast operand, block stride 0: the same block 8 times per
        // repeat): touching them again in the same instruction finds and records nothing new
        if (run_hi > run_lo && lo >= run_lo && hi <= run_hi) return;
        if (run_hi > run_lo) touch(t.addr + run_lo, run_hi - run_lo, write);
        run_lo = lo;
        run_hi = hi;
    });
    if (run_hi > run_lo) touch(t.addr + run_lo, run_hi - run_lo, write);
}

uint32_t* RaceScope::notes(const Local& t) {
    if (!checker_) return nullptr;
    std::vector<uint32_t>& noted = checker_->noted();
    noted.assign((static_cast<size_t>(t.bytes) + 31) / 32, 0);
    return noted.data();
}

void RaceScope::read_noted(const Local& t) {
    if (!checker_) return;
    const std::vector<uint32_t>& noted_ = checker_->noted();
    uint64_t run_lo = 0, run_hi = 0;  // bytes from each noted block's first to its last byte, runs merged
    for (uint64_t b = 0; b < noted_.size(); ++b) {
        const uint32_t m = noted_[b];
        if (!m) continue;
        const uint64_t lo = b * 32 + static_cast<uint64_t>(__builtin_ctz(m)), hi = b * 32 + 32 - static_cast<uint64_t>(__builtin_clz(m));
        if (run_hi > run_lo && lo == run_hi) { run_hi = hi; continue; }
        if (run_hi > run_lo) touch(t.addr + run_lo, run_hi - run_lo, false);
        run_lo = lo;
        run_hi = hi;
    }
    if (run_hi > run_lo) touch(t.addr + run_lo, run_hi - run_lo, false);
}

}}  // namespace ascendcraft::emu
