// AscendCraft CPU emulation: state and helpers shared by the runtime library's sources. Kernels
// never include this header.
#pragma once

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime.h"

namespace ascendcraft { namespace emu {

const char* op_name(Op op);
const char* dt_name(Dt dt);
uint32_t dt_size(Dt dt);
const char* position_name(uint8_t pos);
const char* event_name(uint8_t event);

// ---- trace records (layout = ascendcraft.trace.TRACE_DTYPE) -----------------------------------
enum class TPipe_ : uint8_t { S = 0, V = 1, MTE2 = 2, MTE3 = 3, MTE1 = 4, M = 5, FIX = 6, ALL = 7 };
enum class TKind : uint8_t { INSTR = 0, SET = 1, WAIT = 2, BARRIER = 3, SYNC_ALL = 4 };
constexpr uint16_t kQueueEventBase = 16;
constexpr uint8_t kFlagUbToUb = 1, kFlagPad = 2, kFlagLevel0 = 4, kFlagGmUnaligned = 8;
constexpr uint32_t kTraceFormat = 3;      // ascendcraft.trace.TRACE_FORMAT: bump with every layout change
constexpr uint16_t kNoTensor = 0xFFFF;    // `tensor` of records that touch no GM buffer

#pragma pack(push, 1)
struct Record {
    uint16_t core = 0;
    uint8_t pipe = 0, kind = 0;
    uint16_t op = 0;
    uint8_t dtype = 0, flags = 0, src_pipe = 0, dst_pipe = 0;
    uint16_t event = 0;
    uint32_t line = 0;
    uint64_t bytes = 0, elems = 0;
    uint32_t repeats = 0, bursts = 0, burst_bytes = 0;
    uint16_t gm_mod = 0;
    uint16_t tensor = kNoTensor;  // GM argument index (among the pointer arguments) the record touches
    uint64_t gm_offset = 0;       // byte offset of the first byte touched inside that tensor
    uint32_t gm_stride = 0;       // GM bytes from one burst's start to the next (saturates at 2^32 - 1)
    uint32_t reserved = 0;
};
#pragma pack(pop)
static_assert(sizeof(Record) == 64, "trace records are 64 bytes (ascendcraft.trace.TRACE_DTYPE)");
// Every field in declaration order: the runtime writes (name, offset, size) of each into trace.json
// and ascendcraft.trace checks them against TRACE_DTYPE when it loads a trace.
#define ASCENDCRAFT_EMU_RECORD_FIELDS(X)                                                                       \
    X(core) X(pipe) X(kind) X(op) X(dtype) X(flags) X(src_pipe) X(dst_pipe) X(event) X(line) X(bytes) X(elems) \
    X(repeats) X(bursts) X(burst_bytes) X(gm_mod) X(tensor) X(gm_offset) X(gm_stride) X(reserved)

// ---- the status page: what the parent reads after a crash or a timeout -----------------------
struct Status {
    uint32_t magic;         // 'ACEM'
    int32_t block;          // block running now (-1 = none)
    uint32_t line;          // kernel line of the last API call
    uint16_t op;            // last API call
    uint8_t phase;          // 0 setup, 1 running blocks, 2 blocks done, 3 writing results
    uint8_t fault_kind;     // 0 none, 1 write to an input buffer, 2 inside a GM buffer, 3 elsewhere, 4 a guard page of the core's UB
    int32_t signal;         // signal caught
    int32_t fault_buffer;   // GM argument index of the fault address, -1 = none
    uint64_t fault_addr;
    uint64_t fault_offset;  // offset of the fault address inside that buffer
    uint32_t blocks_done;
    uint32_t frames;        // return addresses in `pc`
    uint64_t anchor;        // run-time address of ascendcraft_emu_anchor (gives the load base)
    uint64_t pc[8];         // faulting PC, then the caller chain
    char file[136];         // kernel file of the last API call
};
static_assert(sizeof(Status) == 256, "status page layout is shared with ascendcraft.emu");
// An x86 divide error in kernel code (emu_divzero.cpp): resume past it with the result the emulation gives (true), or
// leave it a crash (false); and the one warning of the run, written after the blocks.
bool int_div_resume(void* context);
void int_div_report();

// ---- global memory ---------------------------------------------------------------------------
enum class Role : uint8_t { In = 0, Out, InOut, Workspace, Tiling };
struct GmBuffer {
    std::string name;
    uint8_t* base = nullptr;
    uint64_t bytes = 0;
    Role role = Role::In;
    bool real = true;       // false in trace mode: a PROT_NONE reservation, never dereferenced
    int arg = -1;           // kernel argument index (from the parameter count on: a run's GM buffer that is no parameter)
    int tensor = -1;        // index among the pointer arguments (the trace's `tensor` field)
    bool own = false;       // a __gm__ array of the kernel's own (declare_gm_array), not a launch argument
    bool constant = false;  // such an array whose element type is const: read-only
    // Execute mode, an out buffer whose poison is deferred (emu_main.cpp, "Deferred poison"): while `alias` is set,
    // the kernel's own address range [base, base + bytes) is not mapped, API writes land in `alias` (a second mapping
    // of the same file) and the bytes no API call wrote get the poison at the end. Whatever needs the poison sooner (an
    // API read, atomic accumulation, an access through the kernel's pointer) calls gm_materialise first.
    mutable uint8_t* alias = nullptr;
    int fd = -1;            // the file, while the poison is deferred
};
// Where an API write of GM bytes at `p` (inside `b`) lands: the buffer's alias while its poison is deferred.
inline uint8_t* gm_target(const GmBuffer& b, void* p) {
    return b.alias ? b.alias + (static_cast<uint8_t*>(p) - b.base) : static_cast<uint8_t*>(p);
}
// Where an API read of GM bytes at `p` (inside `b`, checked by check_gm) finds them.
inline const uint8_t* gm_source(const GmBuffer& b, const void* p) {
    return b.alias ? b.alias + (static_cast<const uint8_t*>(p) - b.base) : static_cast<const uint8_t*>(p);
}
// The deferred poison now: every byte of `b` no API call wrote gets it, and the kernel's range maps the file. With
// blocks in parallel it ends the run for a sequential one instead (the fill would race with the other blocks' writes).
// Async-signal-safe enough for the fault handler: no allocation, no lock.
void gm_materialise(const GmBuffer& b);

class GmRegistry {
public:
    void add(const GmBuffer& buffer);
    const GmBuffer* find(const void* p, uint64_t bytes) const;   // the buffer holding [p, p+bytes)
    const GmBuffer* nearest(const void* p) const;                // the buffer closest to p
    const std::vector<GmBuffer>& buffers() const { return buffers_; }
private:
    std::vector<GmBuffer> buffers_;  // sorted by base
};

// Which block wrote which GM bytes since the last SyncAll (for `gm-overlap`).
class OverlapTracker {
public:
    struct Conflict { uint64_t lo, hi; int other; };
    bool add(uint64_t lo, uint64_t hi, int block, Conflict* conflict);
    // As add, but another block's bytes that `same(lo, hi)` finds written with the values this write brings are
    // shared, not a conflict (the result does not depend on which block writes last); this block records the rest.
    template <class Same> bool add_shared(uint64_t lo, uint64_t hi, int block, Conflict* conflict, Same same);
    void clear() { ranges_.clear(); recent_[0] = recent_[1] = ranges_.end(); ++version_; }
    struct Range { uint64_t hi; int block; };
    const std::map<uint64_t, Range>& ranges() const { return ranges_; }
    // GlobalTensor::SetValue's fast path (gm_set, runtime.h) continues a range of its block in place: `own_range`
    // gives the range of `block` that holds byte `at` (its start, its end to move, and the next range's start, or
    // UINT64_MAX; false: none), and `version` moves whenever a range is made, merged or dropped (not when an end only
    // grows), so that what own_range gave stays true while the version stays the same.
    bool own_range(uint64_t at, int block, uint64_t* lo, uint64_t** hi, uint64_t* next) {
        auto it = ranges_.upper_bound(at);
        if (it == ranges_.begin()) return false;
        const auto range = std::prev(it);
        if (range->second.block != block || at >= range->second.hi) return false;
        *lo = range->first;
        *hi = &range->second.hi;
        *next = it == ranges_.end() ? UINT64_MAX : it->first;
        return true;
    }
    const uint64_t* version() const { return &version_; }
    OverlapTracker() = default;
    // a copy or move starts with no recent range (the iterators point into the other map)
    OverlapTracker(const OverlapTracker& o) : ranges_(o.ranges_) {}
    OverlapTracker(OverlapTracker&& o) noexcept : ranges_(std::move(o.ranges_)) { o.forget(); }
    OverlapTracker& operator=(const OverlapTracker& o) { ranges_ = o.ranges_; forget(); return *this; }
    OverlapTracker& operator=(OverlapTracker&& o) noexcept { ranges_ = std::move(o.ranges_); forget(); o.forget(); return *this; }
private:
    using Ranges = std::map<uint64_t, Range>;
    void forget() { recent_[0] = recent_[1] = ranges_.end(); ++version_; }
    void remember(Ranges::iterator it) {   // `it` first; the other one kept unless it is none
        if (recent_[0] == it) return;
        if (recent_[0] != ranges_.end()) recent_[1] = recent_[0];
        recent_[0] = it;
    }
    Ranges ranges_;
    // The two ranges the last adds grew or made (end(): none). A scalar loop writes a few rows in turn, each write next
    // to its row's last one: a write that starts inside one of these and reaches no further range only moves its end,
    // which is what the general path below would make of it too (the ranges never overlap, so none other is touched).
    Ranges::iterator recent_[2] = {ranges_.end(), ranges_.end()};
    uint64_t version_ = 0;
};

template <class Same>
bool OverlapTracker::add_shared(uint64_t lo, uint64_t hi, int block, Conflict* conflict, Same same) {
    std::vector<std::pair<uint64_t, uint64_t>> shared;  // other blocks' bytes inside [lo, hi), in address order
    auto it = ranges_.upper_bound(lo);
    if (it != ranges_.begin() && std::prev(it)->second.hi > lo) --it;
    for (; it != ranges_.end() && it->first < hi; ++it) {
        if (it->second.block == block || it->second.hi <= lo) continue;
        const uint64_t a = std::max(lo, it->first), b = std::min(hi, it->second.hi);
        if (!same(a, b)) {
            *conflict = Conflict{a, b, it->second.block};
            return false;
        }
        shared.emplace_back(a, b);
    }
    uint64_t at = lo;
    Conflict none{};
    for (const auto& [a, b] : shared) {
        if (a > at) add(at, a, block, &none);
        at = std::max(at, b);
    }
    if (at < hi) add(at, hi, block, &none);
    return true;
}

// Which bytes of the writable GM buffers (out, inout, workspace) AscendC API calls wrote, in
// execute mode: after the run, a byte that changed but was never written by the API was written
// through a raw pointer, past the trace and the cost model (`gm-raw-write`).
class ApiWrites {
public:
    void watch(const GmBuffer& b);                                   // remember b's initial bytes
    void mark(const GmBuffer& b, uint64_t offset, uint64_t bytes);  // an API call wrote these bytes
    // The first byte of b that changed without an API write, or false.
    bool first_raw_write(const GmBuffer& b, uint8_t poison, uint64_t* offset) const;
    // Every byte of b that no API call wrote set to `poison`, written at `to` (b's bytes, or a second mapping of them).
    void fill_unwritten(const GmBuffer& b, uint8_t* to, uint8_t poison) const;
    // Whether API calls wrote every byte of [offset, offset + bytes) of b.
    bool all_written(const GmBuffer& b, uint64_t offset, uint64_t bytes) const;
    // b's byte bitmap (bit i % 8 of [i / 8]: byte i written), null when b is not watched (mark does nothing then):
    // a scalar SetValue's fast path marks its bytes there, as mark does for a write inside one chunk.
    uint8_t* byte_bits(const GmBuffer& b) {
        auto it = buffers_.find(b.arg);
        return it == buffers_.end() ? nullptr : it->second.bits.p;
    }
private:
    // A bit per 4 KiB chunk the API wrote whole, and a bit per byte only for the chunks it wrote in part: a 64 MB
    // output written by whole-tile copies costs a few hundred words, not an 8 MB bitmap to clear, fill and scan.
    // The byte bitmap is anonymous memory mapped on first use: its pages exist only where a partial write landed.
    static constexpr uint64_t kChunk = 4096;
    struct ByteBits {
        uint8_t* p = nullptr;
        uint64_t n = 0;
        ByteBits() = default;
        ByteBits(const ByteBits&) = delete;
        ByteBits& operator=(const ByteBits&) = delete;
        ~ByteBits();
    };
    struct Watched {
        std::vector<uint64_t> full;     // chunk k written whole: bit k % 64 of full[k / 64]
        ByteBits bits;                  // byte i written: bit i % 8 of bits.p[i / 8] (chunks not written whole)
        std::vector<uint8_t> before;
    };
    std::map<int, Watched> buffers_;  // by argument index
};

// Writes the blocks' trace records in block order, whatever order the blocks finish in.
// A block whose records equal an earlier stored block's in every field but `core` and the `gm_offset` of records
// that name a GM tensor (the same instruction stream on other addresses) is not written again: trace_repeats.bin
// gets {uint32 block, uint32 template block, uint64 n} and the n GM offsets of those records, in record order
// (ascendcraft.trace.Trace.load expands them; the cost model and the coverage check use them as they are).
// The trace cap (file_limit_mb, Launch::trace_records) then counts only what is written and held: a repeated
// block's records are released when it is found to repeat.
class TraceWriter {
public:
    bool open(const std::string& path);   // also opens trace_repeats.bin beside it
    void finish_block(int block, std::vector<Record>&& records);
    void close();
    uint64_t written() const { return written_; }      // records of every block, repeated ones included
    uint64_t stored() const { return stored_; }        // records in trace.bin
    uint64_t repeated_blocks() const { return repeats_; }
    // A cleared record buffer with the capacity of an earlier block's, for the next block: its pages are already
    // mapped, so a block's records cost no page zeroing and no regrowth (empty when none is free).
    std::vector<Record> take_buffer();
private:
    void write_block(int block, std::vector<Record>& records);
    void recycle(std::vector<Record>& records);   // keep a written block's buffer for take_buffer (under mutex_)
    FILE* file_ = nullptr;
    FILE* repeats_file_ = nullptr;
    std::mutex mutex_;      // blocks finish on several threads when they run in parallel
    int next_ = 0;
    std::map<int, std::vector<Record>> pending_;
    // the last few stored blocks, newest first: (block, records); a new block is compared with them
    std::vector<std::pair<int, std::vector<Record>>> templates_;
    std::vector<std::vector<Record>> free_;   // buffers of written blocks, for take_buffer
    uint64_t written_ = 0, stored_ = 0, repeats_ = 0;
};

// Runs the blocks of a launch one at a time on their own threads; a block that calls SyncAll hands
// over to the next one, and the barrier opens when every block has arrived.
class Scheduler {
public:
    using Body = void (*)(int block);
    Scheduler(int blocks, Body body) : blocks_(blocks), body_(body), state_(blocks, kNew), epoch_(blocks, 0) {}
    void run();
    // Parallel launches (Launch::parallel): `threads` workers take the blocks in index order, each block on one
    // worker from start to end. Only for launches whose result cannot depend on the order of the blocks: anything
    // order-dependent calls require_sequential(), and the parent runs the launch again one block at a time.
    void run_parallel(int threads);
    void arrive(int block, const SrcLoc& loc);  // SyncAll, called on the block's thread (parallel: require_sequential)
    // DataCacheCleanAndInvalid of GM, on the block's thread (one block at a time only): the blocks that have not
    // finished run until they finish or wait, then this one goes on (a block that polls GM for another block's flag
    // sees it set, as on the NPU, where the blocks run at once); nothing to do when every other block has finished.
    void yield(int block);
    bool cooperative() const { return cooperative_; }
private:
    enum State { kNew, kReady, kRunning, kWaiting, kYielded, kDone };
    void start(int block);
    int blocks_;
    Body body_;
    std::vector<State> state_;
    std::vector<uint32_t> epoch_;
    std::vector<SrcLoc> wait_loc_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable cv_;
    int turn_ = -1;  // block allowed to run; -1 = the scheduler
    int next_new_ = 0;
    bool cooperative_ = false;
};

enum class Mode : uint8_t { Execute = 0, Trace = 1 };
enum class RaceMode : uint8_t;  // race.h
class RaceChecker;              // race.h

// Everything about the current launch (one per process).
struct Core;
// A block's UB of `bytes` bytes between two inaccessible guard pages, at an address whose low 32 bits are the same in
// every run (the next free slot from `next_slot` on; nullptr, said on stderr, when none maps), its release, and
// whether `addr` (a fault address) lies in a guard page of core c's UB: then *offset is its distance from the UB's start.
uint8_t* ub_allocate(uint32_t bytes, uint32_t& next_slot);
void ub_release(uint8_t* ub, uint32_t bytes);
bool ub_guard_offset(const Core* c, uint32_t bytes, uintptr_t addr, int64_t* offset);

struct Launch {
    Mode mode = Mode::Execute;
    uint32_t block_dim = 1;
    uint32_t cores = 48;
    uint32_t ub_bytes = 196608;
    uint8_t poison = 0xA5;
    uint64_t tiling_key = 0;
    uint64_t trace_cap_records = 0;           // 0: no cap (execute mode)
    std::atomic<uint64_t> trace_records{0};   // records taken so far, all blocks
    bool key_from_host = false;       // the host tiling function set the key (SetTilingKey)
    bool key_given = false;           // the run passed tiling_key= explicitly
    bool atomic_clean = false;        // the host tiling set SetNeedAtomic(true): the out buffers start as zeros
    int report_fd = -1;
    Status* status = nullptr;
    GmRegistry gm;
    OverlapTracker overlap;
    ApiWrites api_writes;
    TraceWriter trace;
    Scheduler* scheduler = nullptr;
    bool mixed = false;               // cube and vector cores (emu_sync_cross.cpp): slots are groups' AIC and AIVs
    bool cross = false;               // the cores synchronise across cores: the CrossScheduler runs them
    std::atomic<bool> uninit_reported{false};
    std::atomic<uint64_t> gm_writes{0};   // AscendC API writes to GM, all blocks (no-output check)
    std::atomic<bool> gm_shared_warned{false};  // trace mode: the gm-overlap whose values only execute can compare
    std::vector<uint32_t> ub_used;
    uint32_t sync_epoch = 0;
    RaceMode races{};                 // ub-race: error (default), warning or off
    bool auto_sync = false;           // the compiler's automatic pipe synchronisation (race.h)
    bool ub_overrun_warn = false;     // run option ub_overrun "warning": an operand past its buffer, inside UB (ub_overrun)
    bool vector_mask_warn = false;    // run option vector_mask "warning": a mask outside its documented range (mask_outside)
    bool extra_deque_warn = false;    // run option extra_deque "warning": a DeQue past the EnQues of a depth-1 queue (queue_deque)
    std::mutex race_mutex;            // warning mode: the pairs of sites already reported, and how many
    std::set<std::string> race_seen;
    std::set<std::string> once_seen;  // warnings given once per call site (first_report_at, under race_mutex)
    // gm-read-race (sync/emu_gm_read_race.cpp), blocks one at a time: this SyncAll phase's reads of GM bytes another
    // block wrote with nothing ordering them, reported when the phase ends unless a block hands over through GM in it
    // (gm_handover); the warnings given so far per read line (capped). Under race_mutex.
    struct GmReadRace {
        int writer, reader;
        const GmBuffer* buffer;
        uint64_t lo, hi;   // the bytes read (addresses), merged over the reader's reads at one line
        const char* file;
        int line;
        Op op;
    };
    std::vector<GmReadRace> read_races;
    bool gm_handover = false;
    std::map<std::pair<const char*, int>, uint32_t> gm_read_race_reports;
    uint32_t race_warnings = 0;
    std::vector<std::unique_ptr<RaceChecker>> race_pool;  // checkers of finished blocks, reused (under race_mutex)
    // UB memory of finished blocks, reused by the next ones (under race_mutex): a new 192 KB allocation per block
    // came from a thread's malloc arena, which hands freed pages back (MADV_DONTNEED), so every block faulted in and
    // cleared its UB's pages again (a fifth of a trace's CPU). Each block still fills its UB (zeros or the poison).
    // Each is mapped where the low 32 bits of its address are the same in every run (ub_allocate, emu_ub.cpp).
    struct UbPool {
        std::vector<void*> free;
        uint32_t bytes = 0;       // the size of each (the launch's ub_bytes)
        uint32_t next_slot = 0;   // ub_allocate's next address slot
        ~UbPool() { for (void* p : free) ub_release(static_cast<uint8_t*>(p), bytes); }
    } ub_pool;
    // Blocks in parallel (spec `threads` > 1): each block's GM writes and its API reads of writable GM, for the
    // cross-block check after the launch (parallel_conflict in emu_main.cpp); each vector entry belongs to one block.
    bool parallel = false;
    uint32_t threads = 1;
    std::vector<OverlapTracker> block_writes, block_reads;
    // Execute mode: the instructions issued and their bytes, per pipe, all blocks. The parent compares them with a
    // trace of the same shapes (ascendcraft.judge): a kernel whose work depends on data the trace does not have
    // would otherwise be timed on work it never does.
    std::atomic<uint64_t> work_count[8] = {};
    std::atomic<uint64_t> work_bytes[8] = {};
};
extern Launch* g_launch;
// The launch's parameter area (emu_param_base.cpp): one word per parameter, then the tiling bytes; set by the driver
// before the blocks run.
void set_launch_params(const std::vector<uint64_t>& words, const uint8_t* tiling, uint64_t tiling_bytes);

// Parallel launches only: end the run now with a "sequential" record, so that the parent runs the launch again
// one block at a time and every report, its order and the first error come out exactly as they do there. Called
// by every report, SyncAll, atomic GM accumulation, a crash, and a cross-block conflict; a new cross-block
// wait or any other order-dependent runtime feature must call it too.
[[noreturn]] void require_sequential(const char* why);
constexpr int kSequentialExit = 75;  // ascendcraft.emu._SEQUENTIAL_EXIT
constexpr int kRekeyExit = 76;       // ascendcraft.emu._REKEY_EXIT: this binary was compiled for another tiling key

// ---- per-block state ---------------------------------------------------------------------------
enum class SlotState : uint8_t { Free = 0, Allocated, Queued };
struct Slot {
    SlotState state = SlotState::Free;
    int8_t free_id = -1;     // the id of its queue's free event it holds, from its FreeTensor to its next AllocTensor
    int8_t enque_id = -1;    // the id of its queue's EnQue event it holds, from EnQue to DeQue
    SrcLoc alloc_loc;
};
struct Queue {
    int pipe = -1;
    bool live = true;
    bool is_buf = false;
    uint8_t src = 0, dst = 0;
    int32_t depth = 0;
    uint32_t len = 0;        // bytes per buffer (rounded up to 32)
    uint32_t base = 0;       // UB offset of buffer 0
    uint32_t next = 0;       // next buffer AllocTensor hands out
    uint16_t event_base = 0; // trace event key of buffer 0
    uint8_t region = 0;      // memory the buffers live in: 0 = UB, else a cube buffer (cube_internal.h, CubeRegion)
    uint8_t producer = 0, consumer = 0;  // trace pipes
    uint8_t free_event = 0xff, enque_event = 0xff;  // AscendC's HardEvents of its free and EnQue flags (0xff: none)
    std::vector<Slot> slots;
    std::vector<int> fifo;
    SrcLoc init_loc;
    uint32_t beyond_ub = 0;  // > 0: InitBuffer placed these buffers past the end of UB (the UB offset it asked at)
    int last_enque = -1;     // the buffer of the latest EnQue (a depth-1 TQueBind keeps it as its one entry), -1: none yet
    uint32_t overdrawn = 0;  // DeQues past the EnQues (run option extra_deque "warning"): the NPU's count is this much lower
};
struct PipeState {
    void* object = nullptr;
    bool live = true;
    uint32_t used = 0;       // UB bytes handed out
    uint32_t cube_used[7] = {};  // bytes handed out in each cube buffer (L1, L0A, L0B, L0C, bias table, Fixpipe buffer), by CubeRegion
    uint32_t buffers = 0;    // buffers handed out (≤ 64)
    bool aic_mte1 = false;   // holds M_MTE1 event ids 0..2, as AscendC's TPipe does on an AIC (pipe_open)
    bool destroyed = false;  // TPipe::Destroy was called: a copy of the TPipe now is inert (pipe_destroy)
    SrcLoc loc;
    // the queues InitBuffer made in this pipe (indices into Core::queues, in the order made): a TPipe's end and Reset
    // visit these, not every queue the block ever made (a kernel that builds a TPipe per call makes thousands)
    std::vector<uint32_t> queues;
};

struct Core {
    explicit Core(int index);
    ~Core();
    Core(const Core&) = delete;
    Core& operator=(const Core&) = delete;

    int idx;
    uint8_t* ub = nullptr;
    // per UB byte: ever written (execute mode), bit i % 64 of written[i / 64]: a tile's copy sets 1/8 of the bytes a
    // byte per byte map did, and the read check looks at whole 64-bit words
    std::vector<uint64_t> written;
    uint32_t written_bytes = 0;
    std::vector<PipeState> pipes;
    std::vector<Queue> queues;
    int current_pipe = -1;
    uint64_t queue_ids[64] = {};    // event ids the queues hold, a bit each, per HardEvent (queue_take_id in emu_queue.cpp)
    uint32_t ub_high = 0;
    uint16_t next_event_key = kQueueEventBase;
    // vector mask register
    bool counter_mode = false;
    uint64_t ctrl_rest = 0;         // the CTRL register's bits other than the mask mode (get_ctrl / set_ctrl)
    uint64_t mask_bits[2] = {~0ull, ~0ull};
    uint64_t counter_value = 0;
    // atomic GM accumulation
    bool atomic_add = false;      // any atomic mode is on (SetAtomicAdd/Max/Min): copies to GM combine, not overwrite
    bool hf32 = false;            // SetHF32Mode(ENABLE) / Matmul::SetHF32(true): fp32 Mmads round their inputs to HF32
    uint16_t nz2nd[3] = {1, 0, 0};  // SetFixpipeNz2ndFlag: ndNum, srcNdStride, dstNdStride (DataCopy L0C -> GM with nz2ndEn)
    uint64_t quant_pre = 0;         // SetFixpipePreQuantFlag: the scalar (de)quantisation parameter
    const uint8_t* fpc_quant = nullptr;   // SetFixPipeConfig: the per-channel quantisation vector in the Fixpipe buffer
    uint32_t fpc_quant_bytes = 0;         // its bytes from there to its buffer's end (uint64_t a channel)
    // the LoadData 3D (img2col) registers: SetFmatrix (l1H, l1W, padList), SetLoadDataPaddingValue (the pad value's
    // bytes), SetLoadDataRepeat (repeatStride, repeatTime, repeatMode) and SetLoadDataBoundary (bytes of L1; 0 = none)
    uint16_t fm_l1h = 0, fm_l1w = 0;
    uint8_t fm_pad[4] = {0, 0, 0, 0};
    uint8_t load3d_pad[4] = {0, 0, 0, 0};
    uint16_t load3d_repeat_stride = 0;
    uint8_t load3d_repeat_time = 1, load3d_repeat_mode = 0;
    uint32_t load3d_boundary = 0;
    Dt atomic_dt = Dt::none;
    AtomicMode atomic_mode = AtomicMode::add;   // how they combine
    // the address registers VA0..VA7 (raw_vector.h): 8 UB addresses each, and which were loaded
    uint64_t va_regs[8][8] = {};
    uint8_t va_loaded = 0;
    uint64_t pad_value_bits = 0;  // SetPadValue: what DataCopyPad GM -> UB pads with when isPad is false
    bool pad_value_set = false;
    // the DEQSCALE register (SetDeqScale): Cast int32_t -> half multiplies by it
    bool deq_set = false;
    float deq_scale = 0.0f;
    // the reserved-count register: the elements the last GatherMask kept (AscendCUtils::GetRsvdCnt reads it)
    uint64_t rsvd_cnt = 0;
    // user flags: set counts and where they were set; allocated event ids
    uint8_t flag_set[64][8] = {};
    SrcLoc flag_loc[64][8];
    uint8_t event_ids[64] = {};
    std::vector<Record> trace;
    std::unique_ptr<RaceChecker> race;  // execute mode with the race check on, else null
    std::vector<uint8_t> cube_mem[7];   // the cube core's L1, L0A, L0B, L0C, bias table, Fixpipe buffer (by CubeRegion), made on first use
    std::vector<uint8_t> sparse_idx;    // the cube's index buffer of LoadDataWithSparse (L0B / 4 bytes), made on first use
    // tiling keys (emu_tiling.cpp): TILING_KEY_IS / TILING_KEY_LIST tests, whether one matched, GM writes
    uint32_t key_tests = 0;
    bool key_hit = false;
    SrcLoc key_loc;
    std::vector<uint64_t> keys_seen;
    uint64_t gm_writes = 0;
    // execute mode: this block's instructions and bytes per pipe, added to Launch::work_count when the block ends (a
    // counter per block: atomics shared by blocks running in parallel bounced one cache line between the cores)
    uint64_t work_count[8] = {};
    uint64_t work_bytes[8] = {};
    // the GM ranges this block reads with GetValue without a check past their bounds: ScalarReads (runtime.h), per thread
    // the special register of the last ReduceMax/Min or WholeReduceMax/Min (GetReduceMaxMinCount, emu_norm.cpp)
    double maxmin_value = 0;
    uint64_t maxmin_index = 0;
    bool maxmin_set = false;
    Dt maxmin_dt = Dt::none;  // the element type of that reduction (the raw get_max_min_cnt packs the value's bits)
    double acc_value = 0;  // the accumulator the raw vcadd(nullptr, ...) sums into (get_acc_val, emu_norm.cpp)
    // a GM poll (emu_core.cpp gm_poll_check): the last read of a GM range other blocks may write, its bytes then, and
    // how many reads in a row found them unchanged
    const void* poll_at = nullptr;
    std::vector<uint8_t> poll_seen;
    uint32_t poll_repeats = 0;
};
// emu_sync_cross.cpp: the launch's cores by kernel type, cross-core flags, and the GM hand-over check
uint32_t cross_prepare(uint32_t block_dim, uint64_t tiling_key);   // the number of cores (slots) to run
void cross_run(uint32_t slots, void (*body)(int));
void cross_begin_core(int slot);
std::string cross_layout_json();
int64_t cross_block_idx(int slot);
void cross_sync_all(SrcLoc loc, bool all_cores);
void cross_gm_read(const void* p, uint64_t bursts, uint64_t burst_bytes, uint64_t stride, Op op, const SrcLoc& loc);
// sync/emu_gm_read_race.cpp, launches whose blocks run one at a time: a GM read of bytes another block wrote since the
// last SyncAll, unordered (`gm-read-race`); the span of `b` around `p` (false: none) that holds no other block's write
// of this phase, which GetValue may then read without the check; a GM hand-over of the kernel's own (the phase's reads
// are taken as ordered by its GM flags); the end of a phase (the barrier opens, the blocks end): the reads left are
// reported.
void block_gm_read(const void* p, uint64_t bursts, uint64_t burst_bytes, uint64_t stride, Op op, const SrcLoc& loc);
bool gm_read_plain_span(const GmBuffer& b, const void* p, uint64_t* lo, uint64_t* hi);
void gm_handover_seen();
void gm_read_races_report();
// SetAtomicMax/Min: dst = max/min(dst, src) elementwise in dt (emu_atomic.cpp)
void atomic_extreme(bool max, Dt dt, uint8_t* dst, const uint8_t* src, uint64_t bytes);
// `src`: the bytes the write brings, when the caller has them (a Matmul's C that leaves GM as it was: emu_sync_cross.cpp)
void cross_gm_write(const void* p, uint64_t bytes, bool atomic, Op op, const SrcLoc& loc, const void* src = nullptr);
bool kernel_mixed_aic();  // this core is the AIC of a mixed launch
bool kernel_on_aic();     // this core is an AIC (of a mixed launch or of a cube-only one)
bool kernel_declared();   // the build declared the kernel type (cores were laid out by it)
struct CoreExit {};       // thrown to end a core early: the AIC of a mixed launch becomes the Matmul server
void check_tiling_key(const Core& c);  // emu_tiling.cpp: at the end of a block
bool key_build_differs(uint64_t key, uint64_t* built);  // emu_tiling.cpp: a per-key binary compiled for another key
// The block running on this thread (nullptr outside a block). Accessors, not an extern
// thread_local: a TLS variable shared across translation units trips UBSan's null checks.
Core* current_core();
void set_current_core(Core* c);
void scalar_writes_forget();   // GlobalTensor::SetValue's fast path: no range kept (emu_core.cpp)
void scalar_read_spans_forget();   // GlobalTensor::GetValue's fast path: no span kept (emu_core.cpp)
// The S-pipe work of GlobalTensor::GetValue's inlined reads (runtime.h) added to the running block's work counts: called
// before anything reads them (a block's end, GetSystemCycle) and when a block starts or ends on the thread.
void scalar_reads_flush();
// The race records of LocalTensor::SetValue's run of appends (ScalarReads::run_*, runtime.h) for that run's checker, made
// now; nothing where the run is another checker's or there is none (emu_core.cpp).
void settle_scalar_run(RaceChecker& race);

// ---- reports: JSON lines the parent turns into Diagnostics -----------------------------------
class Report {
public:
    Report(const char* kind, Op op, const SrcLoc& loc);
    Report& msg(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    Report& hint(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    Report& val(const char* key, int64_t v);
    Report& val(const char* key, const char* v);
    Report& block(int b);       // the block the report is about (default: the running one)
    [[noreturn]] void fail();   // an error: write it and stop the run
    void warn();                // a warning: write it and carry on
    void note();                // a note: write it and carry on
private:
    void write(const char* severity);
    std::string kind_, message_, hint_, values_;
    Op op_;
    SrcLoc loc_;
    int block_ = -2;
};
std::string json_string(const std::string& s);
void write_line(const std::string& line);
[[noreturn]] void die(int code);

// ---- helpers -------------------------------------------------------------------------------------
Core& core();
inline bool tracing_now() { return g_launch->mode == Mode::Trace; }
void enter(Op op, const SrcLoc& loc);   // status page: the API call being made
inline uint32_t ub_offset(const uint8_t* p) { return static_cast<uint32_t>(p - core().ub); }
void record(TPipe_ pipe, TKind kind, Op op, Dt dt, uint8_t flags, const SrcLoc& loc, uint64_t bytes = 0, uint64_t elems = 0,
            uint32_t repeats = 0, uint32_t bursts = 0, uint32_t burst_bytes = 0, uint16_t gm_mod = 0);
// Where a GM access lands: the buffer, the address of its first byte, and the GM distance between bursts.
struct GmPlace {
    const GmBuffer* buffer;
    const void* address;
    uint64_t stride;
};
// A record that moves `bursts` x `burst_bytes` between UB and GM buffer `at` (gm_mod, the unaligned
// flag, tensor, gm_offset and gm_stride are filled from `at`).
void record_gm(TPipe_ pipe, Op op, Dt dt, uint8_t flags, const SrcLoc& loc, uint64_t bytes, uint64_t elems, uint32_t bursts,
               uint32_t burst_bytes, const GmPlace& at);
void record_flag(TKind kind, uint8_t src, uint8_t dst, uint16_t event, Op op, const SrcLoc& loc);
void race_flag(TKind kind, uint8_t src, uint8_t dst, uint16_t event);  // execute mode: the race check's edge
// A flag set or waited for (user flags and the queue protocol's events): its trace record in trace
// mode, its happens-before edge for the race check in execute mode.
inline void sync_flag(TKind kind, uint8_t src, uint8_t dst, uint16_t event, Op op, const SrcLoc& loc) {
    record_flag(kind, src, dst, event, op, loc);  // returns at once in execute mode
    race_flag(kind, src, dst, event);             // no-op without a race checker (trace mode without auto-sync)
}
void check_local(const Local& t, Op op, const SrcLoc& loc, const char* role, uint32_t align);
// Do two UB ranges share a byte? (the advanced APIs forbid some operand overlaps)
inline bool ub_overlap(const Local& x, uint64_t xb, const Local& y, uint64_t yb) {
    return x.addr < y.addr + yb && y.addr < x.addr + xb;
}
// UB bytes that the live TPipe's InitBuffer allocations use: an advanced API called without a sharedTmpBuffer
// takes its temporaries from the rest.
uint32_t ub_in_use();
// The operand rules shared by the elementwise advanced APIs (math.h, activations): dst may not overlap a source;
// a sharedTmpBuffer is 32-byte aligned and overlaps no operand; without one, the API needs free UB when
// `needs_temporaries`. `b` is the second source or null.
bool first_report_at(const char* kind, const SrcLoc& loc);  // true the first time this launch asks for (kind, loc)
void check_adv_elementwise(Op op, const SrcLoc& loc, const Local& d, const Local& a, const Local* b, const Local* tmp,
                           uint64_t bytes, bool needs_temporaries);
void check_extent(const Local& t, uint64_t end, Op op, const SrcLoc& loc, const char* role);
// Run option ub_overrun "warning": an access of `end` bytes from t's start that runs past the buffer t came from but
// stays inside this block's UB is reported once per place (a warning naming the buffer, the bytes and the buffer they
// land in) and true is returned: the caller carries it out on the UB. False (the default "error", or past UB's end):
// the caller reports its error.
bool ub_overrun(const Local& t, uint64_t end, Op op, const SrcLoc& loc, const char* role);
// Run option vector_mask "warning": a mask outside its documented range (`what`) is reported once per place, naming
// the lanes A2's mask registers then select (`selects`), and true is returned: the caller runs the instruction with
// those lanes. False (the default "error"): the caller reports its error.
bool mask_outside_range(Op op, const SrcLoc& loc, const char* what, const char* selects);
// A continuous mask `n` (`form`: "mask", "SetVectorMask<half>") outside a repeat's 1..epr lanes under that option: warned and
// set to the lanes A2 writes (none for 0, all past them); true when in range or so handled, false: the caller's error.
bool continuous_mask_as_a2(uint64_t& n, uint32_t epr, Op op, const SrcLoc& loc, const char* form);
void check_initialised(const Local& t, uint64_t offset, uint64_t len, Op op, const SrcLoc& loc, const char* role);
// Whether check_initialised(t, offset, len, ...) would pass silently (every byte written, or the check is off): a loop
// that checks lane by lane inside a range this clears may skip its per-lane checks, with the same verdicts.
bool initialised(const Local& t, uint64_t offset, uint64_t len);
void mark_written(const Local& t, uint64_t offset, uint64_t len);
const GmBuffer& check_gm(const void* p, uint64_t bytes, bool write, Op op, const SrcLoc& loc);
// `src` (optional): the bytes being written, `period` > 0 if they are one value of that many bytes repeated. With
// them, another block's earlier write of the same bytes with the same values is not a gm-overlap.
void track_gm_write(const void* p, uint64_t bytes, Op op, const SrcLoc& loc, const void* src = nullptr, uint32_t period = 0);
uint8_t trace_pipe_of(uint8_t pipe_t_value);
void event_pipes(uint8_t event, uint8_t* src, uint8_t* dst);

// Resolved lanes of a vector instruction.
struct Geometry {
    bool contiguous = true;
    uint64_t count = 0;      // contiguous: elements
    uint32_t repeats = 0;    // level 0
    uint32_t epr = 0;        // lanes per repeat
    uint64_t bits[2] = {0, 0};
    uint32_t last_lanes = 0; // counter mode: lanes of the last repeat (0 = as the others)
    bool level0 = false;
    uint64_t active() const;          // lanes computed in total
    bool on(uint32_t r, uint32_t lane) const {
        if (last_lanes && r + 1 == repeats) return lane < last_lanes;
        return (bits[lane >> 6] >> (lane & 63)) & 1;
    }
    uint32_t max_lane(uint32_t r) const;  // highest active lane of repeat r (+1), 0 if none
};
// The mask bits of the first n lanes of a repeat (n up to 128): bits[0] lanes 0..63, bits[1] lanes 64..127.
void lanes_to_bits(uint64_t n, uint64_t* bits);
Geometry resolve(const Lanes& lanes, uint32_t epr, Op op, const SrcLoc& loc, bool ignoreMask = false);
void restore_mask_after_level2(const Lanes& lanes);
// Byte offset of lane `lane` of repeat `r` for an operand with element size `esize`.
inline uint64_t lane_offset(const Geometry& g, const Stride& s, uint32_t esize, uint32_t r, uint64_t lane) {
    if (g.contiguous) return lane * esize;
    uint64_t byte = lane * esize;
    return (static_cast<uint64_t>(r) * s.rep + (byte / 32) * s.blk) * 32 + byte % 32;
}
// Level 0: f(repeat, block, lane bits) for every 32-byte block of every repeat that has an active lane, in
// lane order. The lane masks are worked out once per instruction (and once more for a partial last repeat in
// counter mode), so callers check, mark and compute whole blocks instead of testing every lane.
template <typename F> inline void each_block(const Geometry& g, uint32_t esize, F&& f) {
    const uint32_t lpb = esize >= 32 ? 1 : 32 / esize;  // lanes per 32-byte block
    const uint32_t blocks = (g.epr + lpb - 1) / lpb;
    uint32_t regular[32] = {}, last[32] = {};
    auto masks = [&](uint32_t r, uint32_t* m) {
        for (uint32_t lane = 0; lane < g.epr && lane < 128 && lane / lpb < 32; ++lane)
            if (g.on(r, lane)) m[lane / lpb] |= 1u << (lane % lpb);
    };
    const bool partial = g.last_lanes != 0 && g.repeats > 0;
    if (g.repeats > (partial ? 1u : 0u)) masks(0, regular);
    if (partial) masks(g.repeats - 1, last);
    for (uint32_t r = 0; r < g.repeats; ++r) {
        const uint32_t* m = partial && r + 1 == g.repeats ? last : regular;
        for (uint32_t k = 0; k < blocks && k < 32; ++k)
            if (m[k]) f(r, k, m[k]);
    }
}
// Byte offset of block `k` of repeat `r` for an operand with strides `s`.
inline uint64_t block_offset(const Stride& s, uint32_t r, uint32_t k) {
    return (static_cast<uint64_t>(r) * s.rep + static_cast<uint64_t>(k) * s.blk) * 32;
}
// Level 0: whether the active lanes of an operand with strides `s` are one run from its first byte: every lane of
// every repeat on (a partial last repeat in counter mode keeps a prefix), blocks and repeats back to back. Then
// `bytes` is the run's length, and each_run / the race check / spans_of take it in one step instead of per block.
inline bool dense_operand(const Geometry& g, const Stride& s, uint32_t esize, uint64_t* bytes) {
    if (g.contiguous || !g.repeats || esize < 2 || g.epr * esize != 256 || s.blk != 1 || s.rep != 8) return false;
    const bool partial = g.last_lanes != 0;
    if (g.repeats > (partial ? 1u : 0u))
        for (uint32_t lane = 0; lane < g.epr; ++lane)
            if (!g.on(0, lane)) return false;
    const uint64_t last = partial && g.last_lanes < g.epr ? g.last_lanes : g.epr;
    *bytes = (static_cast<uint64_t>(g.repeats - 1) * g.epr + last) * esize;
    return true;
}
// Level 0: f(byte offset, bytes) for each run of adjacent active lanes, in lane order. A run that starts where
// the one before it ended continues it (across blocks and repeats too), so a dense operand is one call.
template <typename F> inline void each_run(const Geometry& g, const Stride& s, uint32_t esize, F&& f) {
    uint64_t lo = 0, hi = 0;  // the run being gathered (empty when lo == hi)
    if (dense_operand(g, s, esize, &hi)) { f(0, hi); return; }
    each_block(g, esize, [&](uint32_t r, uint32_t k, uint32_t mask) {
        const uint64_t base = block_offset(s, r, k);
        uint64_t bits = mask;
        while (bits) {
            const uint32_t j = static_cast<uint32_t>(__builtin_ctzll(bits));
            const uint32_t n = static_cast<uint32_t>(__builtin_ctzll(~(bits >> j)));
            const uint64_t start = base + static_cast<uint64_t>(j) * esize, bytes = static_cast<uint64_t>(n) * esize;
            if (hi > lo && start == hi) hi += bytes;
            else {
                if (hi > lo) f(lo, hi - lo);
                lo = start;
                hi = start + bytes;
            }
            bits &= ~(((1ull << n) - 1) << j);
        }
    });
    if (hi > lo) f(lo, hi - lo);
}
uint64_t operand_extent(const Geometry& g, const Stride& s, uint32_t esize);
void check_operand(const Geometry& g, const Local& t, const Stride& s, uint32_t esize, bool read, Op op, const SrcLoc& loc,
                   const char* role, uint32_t align = 32);
void mark_operand(const Geometry& g, const Local& t, const Stride& s, uint32_t esize);

// Element access in float/int arithmetic.
inline double load_d(Dt dt, const uint8_t* p) {
    switch (dt) {
    case Dt::f16: { half v; std::memcpy(&v, p, 2); return static_cast<float>(v); }
    case Dt::bf16: { uint16_t b; std::memcpy(&b, p, 2); return bfloat16_t::to_float(b); }
    case Dt::f32: { float v; std::memcpy(&v, p, 4); return v; }
    case Dt::f64: { double v; std::memcpy(&v, p, 8); return v; }
    case Dt::i8: return static_cast<int8_t>(*p);
    case Dt::u8: case Dt::b8: return *p;
    case Dt::i16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case Dt::u16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case Dt::i32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case Dt::u32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case Dt::i64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case Dt::u64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    default: return 0;
    }
}
inline bool is_float(Dt dt) { return dt == Dt::f16 || dt == Dt::bf16 || dt == Dt::f32 || dt == Dt::f64; }

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));

}}  // namespace ascendcraft::emu

#include "race.h"

