// AscendCraft CPU emulation runtime: the race check between the pipes of one core (execute mode).
// Included at the end of internal.h; kernels never include it.
//
// The emulator runs every instruction in program order, but on the NPU the scalar unit only issues
// instructions: MTE2 (GM -> UB copies), V (vector instructions and UB -> UB copies) and MTE3
// (UB -> GM copies) each execute their own queue in order, concurrently with the others and with
// the scalar unit's own UB accesses (GetValue / SetValue on a LocalTensor). Two accesses to the
// same UB bytes from different pipes, at least one a write, are a hazard unless a synchronisation
// orders them. The check keeps a vector clock per pipe and, per 32-byte UB block, the last writes
// of each writing pipe and the last reads of each reading pipe (with the bytes they touched); an
// access conflicts with another pipe's earlier access that its pipe does not know to be complete.
// A 1 KB page whose bytes one instruction accessed last is kept as one record instead of 32, so
// tile-sized accesses cost a few operations per page rather than per block.
//
// Happens-before edges (the model; see nbs/10_emu.ipynb, "Races between the pipes of a core"):
//   - program order inside one pipe (same-pipe accesses are never checked);
//   - SetFlag<X_Y>(id) fires once every earlier X instruction is complete; WaitFlag<X_Y>(id) holds
//     Y's later instructions until then. The queue protocol is the same thing on fixed pipes:
//     EnQue / DeQue = producer -> consumer, FreeTensor / AllocTensor = consumer -> producer, and
//     InitBuffer pre-sets every buffer's "free" flag;
//   - PipeBarrier<PIPE_ALL> and SyncAll wait for every pipe of the core;
//   - the scalar unit issues every instruction in program order, so what the scalar unit knows to
//     be complete (through WaitFlag<X_S> or a barrier) is complete before any later instruction of
//     any pipe, and a scalar *read* (GetValue) is complete when it returns (the scalar unit needs
//     the value). A scalar *write* (SetValue) is not known to be complete by other pipes: they
//     need a flag from PIPE_S (S_V, S_MTE2, S_MTE3), as the AscendC documentation requires;
//   - nothing else: PipeBarrier<PIPE_X> orders one pipe with itself only, and TPipe::Reset is not
//     a synchronisation.
//
// Auto-sync (the `auto_sync` setting, on by default as in CANN's build): the compiler inserts the
// synchronisation a kernel leaves out. Where the check above finds a hazard, the checker instead
// makes the instruction wait for every instruction the other pipe has issued so far (a SetFlag /
// WaitFlag pair right before it, the most the compiler can need) and, in trace mode, writes that
// pair into the trace (event kAutoSyncEvent) so the cost model charges the wait. In trace mode the
// checker then runs too (addresses only, no data).
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ascendcraft { namespace emu {

using Clock = uint32_t;
constexpr int kRacePipes = 4;
constexpr uint16_t kAutoSyncEvent = 15;  // trace event of the waits auto-sync inserts (between user ids and queue keys)  // S, V, MTE2, MTE3 (the TPipe_ values 0..3): the pipes that touch UB

enum class RaceMode : uint8_t { Error = 0, Warning = 1, Off = 2 };

// What one pipe knows: for each pipe, the clock of its last instruction known to be complete.
struct VClock {
    Clock c[kRacePipes] = {0, 0, 0, 0};
    void join(const VClock& o) {
        for (int p = 0; p < kRacePipes; ++p) c[p] = c[p] > o.c[p] ? c[p] : o.c[p];
    }
};

class RaceScope;

// The happens-before state of one core and the shadow state of its UB.
class RaceChecker {
public:
    RaceChecker(uint8_t* ub, uint32_t ub_bytes);
    ~RaceChecker();
    void reset(uint8_t* ub);  // for the next block: nothing has happened yet (the call sites are kept)
    RaceChecker(const RaceChecker&) = delete;
    RaceChecker& operator=(const RaceChecker&) = delete;

    // An instruction of `pipe` starts: its clock, and what it may assume complete.
    Clock issue(uint8_t pipe, VClock* known);
    uint32_t site(Op op, const SrcLoc& loc);
    // UB bytes [lo, hi) (offsets into this core's UB) read or written by the scope's instruction.
    void access(RaceScope& scope, uint64_t lo, uint64_t hi, bool write);
    uint8_t* ub() const { return ub_; }
    std::vector<uint32_t>& noted() { return noted_; }  // RaceScope::notes's scratch

    // Synchronisation. `event` tells flags with the same pipes apart (a user event id, or a queue
    // buffer's event key, as in the trace's SET / WAIT records).
    void set_flag(uint8_t src, uint8_t dst, uint16_t event);
    void wait_flag(uint8_t src, uint8_t dst, uint16_t event);
    void barrier_all();
    uint64_t auto_waits() const { return auto_waits_; }
    // A scalar read (GetValue) races only with V and MTE2 writes the scalar unit does not know to be complete, and
    // leaves no record: when every such write anywhere in UB is known complete, it has nothing to check or record.
    bool scalar_read_settled() const {
        return newest_[1] <= known_[0].c[1] && newest_[2] <= known_[0].c[2];  // tracks 1, 2: V, MTE2 writes; pipe 0: S
    }
    // The words scalar_read_settled compares, for LocalTensor::GetValue's inlined test (local_get, runtime.h):
    // settled when newest[1] <= known[1] and newest[2] <= known[2]. They live as long as the checker.
    const Clock* newest_writes() const { return newest_; }
    const Clock* scalar_known() const { return known_[0].c; }
    // The scalar epoch, for LocalTensor::SetValue's inlined write (local_set, runtime.h): it moves whenever the S pipe's
    // clock is observed (a flag PIPE_S sets, a barrier of all pipes, an auto-sync wait for PIPE_S: the only places a
    // `now` of S is copied into what a pipe knows) and whenever a scalar write is recorded through access() (a RaceScope,
    // which may name another place). Between two moves, two scalar writes of one place are told apart by no check:
    // every S clock any pipe knows is below both of their clocks, and every one known later is at least the newest. So a
    // write of bytes a write of the same place recorded in the same epoch needs no record of its own.
    const uint64_t* scalar_epoch() const { return &epoch_; }
    // A scalar write (SetValue) of UB bytes [lo, lo + size) (offsets into this core's UB) races with V and MTE2 writes
    // and V and MTE3 reads the scalar unit does not know to be complete: when there are none anywhere in UB (its usual
    // state in a scalar loop), it has nothing to check, only its record to make (its clock, site and bytes, as a
    // RaceScope's write records them). Makes that record and returns true then; otherwise does nothing and returns false
    // (the caller checks the write with a RaceScope).
    bool scalar_write_settled(uint64_t lo, uint32_t size, Op op, const SrcLoc& loc);
    // The same for a write whose site index the caller has from an earlier site(op, loc) of this checker (local_write
    // keeps it with a place's range of writes): no look-up.
    bool scalar_write_settled(uint64_t lo, uint32_t size, uint32_t site);
    // The records of `count` settled scalar writes of `size` bytes at lo, lo + stride, ... (offsets into this core's UB),
    // one after another, each as scalar_write_settled records one (its own clock): LocalTensor::SetValue's run of appends
    // (settle_scalar_run, emu_core.cpp), whose writes were checked when they were made and recorded here later. Every
    // entry point that reads this checker's state makes that run's records first (settle), so no check sees the
    // difference.
    void record_scalar_run(uint64_t lo, uint64_t stride, uint32_t size, uint64_t count, uint32_t site);

private:
    struct Access {
        Clock clock;    // 0 = none
        uint32_t site;  // index into sites_
        uint32_t mask;  // bytes of the 32-byte block (bit i = byte i)
    };
    // One pipe's reads (or writes) of one block: the last access exactly, and the bytes of the
    // earlier ones it did not cover, under the most recent of their clocks. A later access of the
    // same pipe that covers some bytes stands for the earlier accesses of those bytes: whatever waits
    // for it waits for them (one pipe completes in order). An instruction that touches a block twice
    // (two operands, or repeats that overlap) is one access: the union of its bytes.
    struct Track {
        Access last;
        Access prior;
        void add(Clock clock, uint32_t site, uint32_t mask);
    };
    // The tracks of a block: writes by S, V, MTE2 (MTE3 never writes UB), reads by V, MTE3 (a scalar
    // read is complete when GetValue returns, so it needs no record).
    static constexpr int kTracks = 5;
    struct Block {
        Track track[kTracks];
    };
    // 32 blocks. Per track, either one instruction accessed the whole page last (`whole`, every
    // block's track is {whole, none}), or the blocks hold the track (bit set in `detailed`).
    static constexpr uint32_t kPageBlocks = 32;
    struct Page {
        Access whole[kTracks];
        Clock newest[kTracks];  // the most recent clock anywhere in the page, per track
        uint8_t detailed;
    };
    // What a set flag carries (user flags by (src, dst, id), a queue buffer's two flags by event key and direction).
    // A flag counts its sets (emu_flags.cpp): each WaitFlag takes the oldest set's clock. `later` holds the sets made
    // while one was pending (rare: the API reference calls it undefined behaviour, yet kernels that pass do it).
    struct Flag {
        VClock carried;
        bool set = false;
        std::vector<VClock> later;
    };
    struct Site {
        Op op;
        int line;
        const char* file;
    };
    struct SiteKey {
        const char* file;
        int line;
        Op op;
        bool operator==(const SiteKey& o) const { return file == o.file && line == o.line && op == o.op; }
    };
    struct SiteHash {
        size_t operator()(const SiteKey& k) const {
            return std::hash<const void*>()(k.file) ^ (static_cast<size_t>(k.line) * 0x9E3779B97F4A7C15ull) ^
                   static_cast<size_t>(k.op);
        }
    };
    VClock row(uint8_t pipe) const;  // what `pipe` knows, with the scalar unit's knowledge
    Flag* flag(uint8_t src, uint8_t dst, uint16_t event);
    void check(RaceScope& scope, uint32_t block, uint32_t mask, const Track& track, uint8_t other_pipe, const char* hazard);
    void check_page(RaceScope& scope, uint32_t page, uint32_t lo, uint32_t hi, int track);  // bytes [lo, hi) of one page
    void record_page(RaceScope& scope, uint32_t page, uint32_t lo, uint32_t hi, int track);
    void record_page(Clock clock, uint32_t site, uint32_t page, uint32_t lo, uint32_t hi, int track);
    void conflict(RaceScope& scope, uint32_t block, uint32_t mask, const Access& other, uint8_t other_pipe,
                  const char* hazard);
    std::string describe(uint32_t offset) const;
    void auto_sync(RaceScope& scope, uint8_t other_pipe);  // the wait the compiler inserts before this instruction
    bool scalar_write_open(uint64_t lo, uint32_t size) const;   // scalar_write_settled's "something to check"
    void record_scalar_write(uint64_t lo, uint32_t size, uint32_t site);   // its record, as a RaceScope's write makes it
    void settle() { if (t_scalar_reads.run_race == this) settle_scalar_run(*this); }   // the run of appends' records

    uint8_t* ub_;
    uint32_t ub_bytes_;
    uint32_t pages_count_;
    Page* pages_;
    Block* blocks_;  // read only where a page's `detailed` bit says it was written: never needs clearing
    VClock now_;     // instructions issued per pipe
    VClock known_[kRacePipes];
    Clock newest_[kTracks] = {};  // the most recent clock anywhere in each track
    Flag user_flags_[kRacePipes][kRacePipes][8];
    std::vector<Flag> queue_flags_;
    std::vector<Site> sites_;
    std::unordered_map<SiteKey, uint32_t, SiteHash> site_index_;
    // the sites looked up last, by a hash of the key: a kernel's loop calls the same few sites again and again
    struct SiteSlot { SiteKey key{nullptr, -1, Op::Count}; uint32_t index = 0; };
    static constexpr uint32_t kSiteSlots = 64;
    SiteSlot site_cache_[kSiteSlots];
    std::vector<uint32_t> noted_;
    uint64_t auto_waits_ = 0;
    uint64_t epoch_ = 0;   // scalar_epoch (64 bits: it never comes round to an old range's value)
};

// One instruction's UB accesses. Construct it after the instruction's operands were validated;
// it does nothing when the race check is off (races = off), and in trace mode it costs one comparison.
class RaceScope {
public:
    RaceScope(TPipe_ pipe, Op op, const SrcLoc& loc) {
        if (g_launch->mode != Mode::Trace || g_launch->auto_sync) begin(pipe, op, loc);
    }
    RaceScope(const RaceScope&) = delete;
    RaceScope& operator=(const RaceScope&) = delete;
    explicit operator bool() const { return checker_ != nullptr; }
    void read(const uint8_t* p, uint64_t bytes) { touch(p, bytes, false); }
    void write(const uint8_t* p, uint64_t bytes) { touch(p, bytes, true); }
    // A vector operand: `g.count` contiguous elements, or the active lanes of a level-0 instruction. The contiguous
    // case (a level-2 call, the common small one) goes to the checker without operand()'s call.
    void read(const Geometry& g, const Local& t, const Stride& s, uint32_t esize) {
        if (g.contiguous) touch(t.addr, g.count * esize, false);
        else operand(g, t, s, esize, false);
    }
    void write(const Geometry& g, const Local& t, const Stride& s, uint32_t esize) {
        if (g.contiguous) touch(t.addr, g.count * esize, true);
        else operand(g, t, s, esize, true);
    }
    // Scattered reads (Gather): the caller marks the bytes it reads in notes(t), one 32-bit mask per
    // 32-byte block of t (nullptr when the check is off); read_noted(t) checks them as merged runs.
    uint32_t* notes(const Local& t);
    void read_noted(const Local& t);

private:
    friend class RaceChecker;
    void begin(TPipe_ pipe, Op op, const SrcLoc& loc);
    void touch(const uint8_t* p, uint64_t bytes, bool write) {
        if (!checker_ || !bytes || p < checker_->ub()) return;
        const uint64_t lo = static_cast<uint64_t>(p - checker_->ub());
        checker_->access(*this, lo, lo + bytes, write);
    }
    void operand(const Geometry& g, const Local& t, const Stride& s, uint32_t esize, bool write);
    // Set by begin() when the check is on; the rest is meaningful only then.
    RaceChecker* checker_ = nullptr;
    const SrcLoc* loc_;
    Op op_;
    uint8_t pipe_;
    bool write_;     // the access being checked
    bool reported_;  // one report per instruction
    Clock clock_;
    uint32_t site_;
    VClock known_;
    size_t trace_mark_;  // trace mode: where this instruction's record goes (auto-sync's waits go before it)
};

}}  // namespace ascendcraft::emu
