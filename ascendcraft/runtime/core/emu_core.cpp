// AscendCraft CPU emulation runtime: launch state, reports, rule checks, UB/queue management,
// flags and the cooperative block scheduler. Compiled once into libascendcraft_emu.a.
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
}  // namespace
// runtime.h: GlobalTensor::GetValue's and LocalTensor::GetValue's inlined fast paths (no range, no UB before a block)
__thread ScalarReads t_scalar_reads = {{}, {}, {}, nullptr, nullptr, nullptr, &kNoUb[1], &kNoUb[0], kNoRace, kNoRace,
                                       {}, {}, {}, {}, {}, {}, 0, &kNoEpoch, {},
                                       {1, 1}, {&kNoGmEnd, &kNoGmEnd}, {}, {}, {}, {}, &kNoGmVersion, 1, 0, false};
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

// ---- names -------------------------------------------------------------------------------------
const char* op_name(Op op) {
    static const char* const names[] = {
#define ASCENDCRAFT_EMU_NAME(name) #name,
        ASCENDCRAFT_EMU_OPS(ASCENDCRAFT_EMU_NAME)
#undef ASCENDCRAFT_EMU_NAME
    };
    size_t i = static_cast<size_t>(op);
    return i < sizeof(names) / sizeof(names[0]) ? names[i] : "?";
}
const char* dt_name(Dt dt) {
    static const char* const names[] = {"?", "half", "bfloat16_t", "float", "double", "int8_t", "uint8_t", "int16_t",
                                        "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "bool"};
    return names[static_cast<size_t>(dt) < 14 ? static_cast<size_t>(dt) : 0];
}
uint32_t dt_size(Dt dt) {
    static const uint32_t sizes[] = {1, 2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 1};
    return sizes[static_cast<size_t>(dt) < 14 ? static_cast<size_t>(dt) : 0];
}
const char* position_name(uint8_t pos) {
    static const char* const names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC",
                                        "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
    return pos < 16 ? names[pos] : "?";
}
const char* event_name(uint8_t event) {
    static const char* const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V",
        "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3",
        "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3",
        "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
    return event < sizeof(names) / sizeof(names[0]) ? names[event] : "?";
}

std::string fmt(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

// ---- reports -------------------------------------------------------------------------------------
std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') { out += '\\'; out += static_cast<char>(c); }
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); out += b; }
        else out += static_cast<char>(c);
    }
    return out + "\"";
}

void write_line(const std::string& line) {
    if (!g_launch || g_launch->report_fd < 0) { fputs(line.c_str(), stderr); fputc('\n', stderr); return; }
    std::string text = line + "\n";
    const char* p = text.data();
    size_t left = text.size();
    while (left) {
        ssize_t n = ::write(g_launch->report_fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= static_cast<size_t>(n);
    }
}

[[noreturn]] void die(int code) {
    // an out buffer whose poison was deferred holds it wherever nothing was written, as if it had been poisoned up
    // front (not in a parallel launch: the other blocks may still be writing, and its end only asks for a sequential run)
    if (g_launch && code != kSequentialExit && !g_launch->parallel)
        for (const GmBuffer& b : g_launch->gm.buffers())
            if (b.alias) g_launch->api_writes.fill_unwritten(b, b.alias, g_launch->poison);
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

[[noreturn]] void require_sequential(const char* why) {
    static std::atomic<bool> once{false};
    if (!once.exchange(true)) write_line(std::string("{\"type\":\"sequential\",\"why\":") + json_string(why) + "}");
    else for (;;) pause();  // another thread is ending the process
    die(kSequentialExit);
}

Report::Report(const char* kind, Op op, const SrcLoc& loc) : kind_(kind), op_(op), loc_(loc) {}

Report& Report::msg(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    message_ = buf;
    return *this;
}
Report& Report::hint(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    hint_ = buf;
    return *this;
}
Report& Report::val(const char* key, int64_t v) {
    values_ += (values_.empty() ? "" : ",") + json_string(key) + ":" + std::to_string(v);
    return *this;
}
Report& Report::val(const char* key, const char* v) {
    values_ += (values_.empty() ? "" : ",") + json_string(key) + ":" + json_string(v ? v : "");
    return *this;
}
Report& Report::block(int b) {
    block_ = b;
    return *this;
}
void Report::write(const char* severity) {
    // with blocks in parallel, which report comes first (and whether later ones are made at all) depends on timing
    if (g_launch && g_launch->parallel) require_sequential("report");
    int block = block_ != -2 ? block_ : (t_core ? t_core->idx : -1);
    std::string line = "{\"type\":\"diag\",\"kind\":" + json_string(kind_) + ",\"severity\":" + json_string(severity) +
                       ",\"message\":" + json_string(message_) + ",\"hint\":" + json_string(hint_) +
                       ",\"file\":" + json_string(loc_.file ? loc_.file : "") + ",\"line\":" + std::to_string(loc_.line) +
                       ",\"block\":" + std::to_string(block) + ",\"api\":" + json_string(op_name(op_)) +
                       ",\"values\":{" + values_ + "}}";
    write_line(line);
}
void Report::fail() {
    write("error");
    die(3);
}
void Report::warn() { write("warning"); }
void Report::note() { write("note"); }

// ---- per-block state -----------------------------------------------------------------------------
Core::Core(int index) : idx(index) {
    uint32_t bytes = g_launch->ub_bytes;
    void* mem = nullptr;
#if !defined(__SANITIZE_ADDRESS__)  // under ASan every block gets memory of its own (a stale pointer is caught)
    {
        std::lock_guard<std::mutex> lock(g_launch->race_mutex);
        if (!g_launch->ub_pool.free.empty()) {
            mem = g_launch->ub_pool.free.back();
            g_launch->ub_pool.free.pop_back();
        }
    }
#endif
    if (!mem && posix_memalign(&mem, 4096, bytes ? bytes : 32) != 0) {
        fprintf(stderr, "ascendcraft emulator: cannot allocate %u bytes of UB\n", bytes);
        die(4);
    }
    ub = static_cast<uint8_t*>(mem);
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
    free(ub);
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

// ---- trace -----------------------------------------------------------------------------------------
// The trace size cap (file_limit_mb), checked per record before the record's memory is spent.
static void count_record(Op op, const SrcLoc& loc) {
    const uint64_t cap = g_launch->trace_cap_records;
    if (cap && g_launch->trace_records.fetch_add(1, std::memory_order_relaxed) >= cap)
        Report("trace-too-large", op, loc)
            .msg("the trace reached its cap of %llu records (%llu MiB, file_limit_mb) at this call",
                 static_cast<unsigned long long>(cap), static_cast<unsigned long long>(cap * sizeof(Record) >> 20))
            .val("records", static_cast<int64_t>(cap))
            .hint("trace a smaller shape, or raise file_limit_mb in settings.ini if the kernel really issues that many "
                  "instructions")
            .fail();
}

// Execute mode: count what a trace would record (Launch::work_count), nothing more.
static inline void count_work(TPipe_ pipe, uint64_t bytes) {
    const auto p = static_cast<uint8_t>(pipe) & 7u;
    Core& c = core();
    ++c.work_count[p];
    c.work_bytes[p] += bytes;
}

void record(TPipe_ pipe, TKind kind, Op op, Dt dt, uint8_t flags, const SrcLoc& loc, uint64_t bytes, uint64_t elems,
            uint32_t repeats, uint32_t bursts, uint32_t burst_bytes, uint16_t gm_mod) {
    if (!tracing_now()) {
        if (kind == TKind::INSTR) count_work(pipe, bytes);
        return;
    }
    Core& c = core();
    Record r;
    r.core = static_cast<uint16_t>(c.idx);
    r.pipe = static_cast<uint8_t>(pipe);
    r.kind = static_cast<uint8_t>(kind);
    r.op = static_cast<uint16_t>(op);
    r.dtype = static_cast<uint8_t>(dt);
    r.flags = flags;
    r.line = static_cast<uint32_t>(loc.line);
    r.bytes = bytes;
    r.elems = elems;
    r.repeats = repeats;
    r.bursts = bursts;
    r.burst_bytes = burst_bytes;
    r.gm_mod = gm_mod;
    count_record(op, loc);
    c.trace.push_back(r);
}

void record_gm(TPipe_ pipe, Op op, Dt dt, uint8_t flags, const SrcLoc& loc, uint64_t bytes, uint64_t elems, uint32_t bursts,
               uint32_t burst_bytes, const GmPlace& at) {
    if (g_launch->cross && op != Op::Matmul && (pipe == TPipe_::MTE2 || (pipe == TPipe_::S && op == Op::GetValue)))
        cross_gm_read(at.address, bursts, burst_bytes, bursts > 1 ? at.stride : burst_bytes, op, loc);  // emu_sync_cross.cpp
    if (!tracing_now()) {
        count_work(pipe, bytes);
        return;
    }
    const uintptr_t address = reinterpret_cast<uintptr_t>(at.address);
    record(pipe, TKind::INSTR, op, dt, static_cast<uint8_t>(flags | (address % 32 ? kFlagGmUnaligned : 0)), loc, bytes, elems, 0,
           bursts, burst_bytes, static_cast<uint16_t>(address % 512));
    Record& r = core().trace.back();
    r.tensor = at.buffer->tensor >= 0 ? static_cast<uint16_t>(at.buffer->tensor) : kNoTensor;
    r.gm_offset = address - reinterpret_cast<uintptr_t>(at.buffer->base);
    r.gm_stride = static_cast<uint32_t>(std::min<uint64_t>(at.stride, 0xFFFFFFFFull));
}

void record_flag(TKind kind, uint8_t src, uint8_t dst, uint16_t event, Op op, const SrcLoc& loc) {
    if (!tracing_now()) return;
    Core& c = core();
    Record r;
    r.core = static_cast<uint16_t>(c.idx);
    r.kind = static_cast<uint8_t>(kind);
    r.pipe = kind == TKind::SET ? src : dst;  // a SET runs on its source pipe, a WAIT blocks its destination pipe
    r.op = static_cast<uint16_t>(op);
    r.src_pipe = src;
    r.dst_pipe = dst;
    r.event = event;
    r.line = static_cast<uint32_t>(loc.line);
    count_record(op, loc);
    c.trace.push_back(r);
}

void race_flag(TKind kind, uint8_t src, uint8_t dst, uint16_t event) {
    if (RaceChecker* race = core().race.get()) {
        if (kind == TKind::SET) race->set_flag(src, dst, event);
        else race->wait_flag(src, dst, event);
    }
}

bool TraceWriter::open(const std::string& path) {
    file_ = fopen(path.c_str(), "wb");
    if (file_) setvbuf(file_, nullptr, _IOFBF, 1 << 20);
    const std::string folder = path.substr(0, path.find_last_of('/') + 1);
    repeats_file_ = file_ ? fopen((folder + "trace_repeats.bin").c_str(), "wb") : nullptr;
    if (repeats_file_) setvbuf(repeats_file_, nullptr, _IOFBF, 1 << 20);
    return file_ != nullptr && repeats_file_ != nullptr;
}

namespace {
constexpr size_t kTemplates = 4;                       // stored blocks a new block is compared with
constexpr size_t kTemplateBytes = size_t(256) << 20;   // at most this much of them kept
// Whether `b` is `a` on other GM addresses: every field equal but `core`, and `gm_offset` where `tensor` names a buffer.
bool same_stream(const std::vector<Record>& a, const std::vector<Record>& b) {
    if (a.size() != b.size()) return false;
    constexpr size_t from = offsetof(Record, pipe), to = offsetof(Record, gm_offset), after = offsetof(Record, gm_stride);
    static_assert(offsetof(Record, core) == 0 && from == sizeof(Record::core), "core first, then the compared fields");
    for (size_t i = 0; i < a.size(); ++i) {
        const char* x = reinterpret_cast<const char*>(&a[i]);
        const char* y = reinterpret_cast<const char*>(&b[i]);
        if (std::memcmp(x + from, y + from, to - from) != 0 || std::memcmp(x + after, y + after, sizeof(Record) - after) != 0)
            return false;
        if (a[i].tensor == kNoTensor && a[i].gm_offset != b[i].gm_offset) return false;
    }
    return true;
}
}  // namespace

std::vector<Record> TraceWriter::take_buffer() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return {};
    std::vector<Record> r = std::move(free_.back());
    free_.pop_back();
    return r;
}

void TraceWriter::write_block(int block, std::vector<Record>& r) {
    auto fail = [] {
        fprintf(stderr, "ascendcraft emulator: cannot write the trace (disk full?)\n");
        die(4);
    };
    written_ += r.size();
    for (const auto& [tb, t] : templates_) {
        if (!same_stream(t, r)) continue;
        std::vector<uint64_t> offsets;
        for (const Record& x : r)
            if (x.tensor != kNoTensor) offsets.push_back(x.gm_offset);
        const uint32_t head[2] = {static_cast<uint32_t>(block), static_cast<uint32_t>(tb)};
        const uint64_t n = offsets.size();
        if (fwrite(head, sizeof(head), 1, repeats_file_) != 1 || fwrite(&n, sizeof(n), 1, repeats_file_) != 1 ||
            (n && fwrite(offsets.data(), sizeof(uint64_t), n, repeats_file_) != n))
            fail();
        ++repeats_;
        // the cap (file_limit_mb) is on what is written and held: a repeated block's records are neither
        g_launch->trace_records.fetch_sub(std::min<uint64_t>(r.size(), g_launch->trace_records.load()), std::memory_order_relaxed);
        recycle(r);
        return;
    }
    if (!r.empty() && fwrite(r.data(), sizeof(Record), r.size(), file_) != r.size()) fail();
    stored_ += r.size();
    if (r.empty() || r.size() * sizeof(Record) > kTemplateBytes / kTemplates) return recycle(r);
    if (templates_.size() == kTemplates) {
        recycle(templates_.back().second);
        templates_.pop_back();
    }
    templates_.insert(templates_.begin(), {block, std::move(r)});
}

void TraceWriter::recycle(std::vector<Record>& r) {
    if (free_.size() >= kTemplates || r.capacity() == 0) return;
    r.clear();
    free_.push_back(std::move(r));
}

void TraceWriter::finish_block(int block, std::vector<Record>&& records) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!file_) return;
    pending_[block] = std::move(records);
    while (!pending_.empty() && pending_.begin()->first == next_) {
        write_block(next_, pending_.begin()->second);
        pending_.erase(pending_.begin());
        ++next_;
    }
}
void TraceWriter::close() {
    if (file_) fclose(file_);
    if (repeats_file_) fclose(repeats_file_);
    file_ = repeats_file_ = nullptr;
    templates_.clear();
    free_.clear();
}

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

// ---- UB checks ---------------------------------------------------------------------------------------
uint32_t ub_in_use() {
    uint32_t used = 0;
    for (const PipeState& p : core().pipes) if (p.live) used = std::max(used, p.used);
    return used;
}

bool first_report_at(const char* kind, const SrcLoc& loc) {
    std::lock_guard<std::mutex> lock(g_launch->race_mutex);
    return g_launch->once_seen.insert(std::string(kind) + "@" + (loc.file ? loc.file : "") + ":" + std::to_string(loc.line)).second;
}

void check_adv_elementwise(Op op, const SrcLoc& loc, const Local& d, const Local& a, const Local* b, const Local* tmp,
                           uint64_t bytes, bool needs_temporaries) {
    // Tanh, Sigmoid, Log, Log2 and Log10 in place (dst is src, same start): the API reference forbids it and
    // AscendC's CPU debug check stops, but on A2 each chunk of the source is read (into the temporaries, or by the
    // first instruction) before dst is written, so kernels that do it run correctly on the NPU. (A2's Log is one Ln
    // instruction; Log2 and Log10 are Ln then Muls on dst, or for half a Cast to float temporaries, Ln, Muls and a
    // Cast back, chunk by chunk: all element-wise.) A warning (once per call site); any other overlap, and any other
    // API, stays an error.
    // Gelu, FasterGelu and FasterGeluV2: the API reference says dst may reuse src's tensor space (the same tensor, not a
    // shifted view of it), so in place is no error and no warning there.
    // Floor, Ceil and Trunc on A2: a float tensor is one Cast with the round mode (CAST_FLOOR / CEIL / TRUNC); a half
    // one is a Cast of the chunk to float temporaries, that Cast, and a Cast back to dst: element-wise too.
    const bool in_place_op = op == Op::Tanh || op == Op::Sigmoid || op == Op::Log || op == Op::Log2 || op == Op::Log10 ||
                             op == Op::Floor || op == Op::Ceil || op == Op::Trunc;
    const bool in_place_ok = in_place_op && !b && d.addr == a.addr;
    const bool reuse_allowed = (op == Op::Gelu || op == Op::FasterGelu || op == Op::FasterGeluV2) && !b && d.addr == a.addr;
    if (reuse_allowed) {
    } else if (in_place_ok) {
        if (first_report_at("adv-in-place", loc))
            Report("adv-in-place", op, loc)
                .msg("%s with dst the same tensor as src: the API reference does not allow it (AscendC's CPU debug "
                     "check stops here); on A2 the NPU computes it correctly, and so does the emulator", op_name(op))
                .hint("write the result to a different buffer to keep to the documented contract").warn();
    } else if (ub_overlap(d, bytes, a, bytes) || (b && ub_overlap(d, bytes, *b, bytes)))
        Report("adv-overlap", op, loc).msg("%s: dst and a source overlap; this API does not allow it", op_name(op))
            .hint("write the result to a different buffer").fail();
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        if (ub_overlap(*tmp, tmp->bytes, d, bytes) || ub_overlap(*tmp, tmp->bytes, a, bytes) ||
            (b && ub_overlap(*tmp, tmp->bytes, *b, bytes)))
            Report("adv-overlap", op, loc).msg("%s: sharedTmpBuffer overlaps dst or a source", op_name(op))
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    } else if (needs_temporaries) {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < 256)
            Report("adv-tmp-space", op, loc)
                .msg("%s without a sharedTmpBuffer needs free UB for its temporaries, but InitBuffer allocations use %u of "
                     "the %u bytes", op_name(op), used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side GetXxxMaxMinTmpSize gives the size)").fail();
    }
}

void check_local(const Local& t, Op op, const SrcLoc& loc, const char* role, uint32_t align) {
    Core& c = core();
    if (!t.addr || t.addr < c.ub || t.addr > c.ub + g_launch->ub_bytes) {
        Report("ub-out-of-range", op, loc)
            .msg("%s: the %s LocalTensor does not point into this block's UB (it was never allocated, or it belongs to "
                 "another kernel launch)", op_name(op), role)
            .val("operand", role)
            .hint("get LocalTensors from TQue::AllocTensor, TQue::DeQue or TBuf::Get (a LocalTensor::InitBuffer(offset, size) tensor: after its address_.logicPos write names its memory)")
            .fail();
    }
    uint32_t off = ub_offset(t.addr);
    if (align > 1 && off % align != 0) {
        Report("ub-misaligned", op, loc)
            .msg("%s: the %s operand starts at UB offset %u, which is not %u-byte aligned", op_name(op), role, off, align)
            .val("operand", role).val("ub_offset", off).val("alignment", align)
            .hint("offset LocalTensors (operator[]) by whole %u-byte blocks (for 32 bytes: 8 floats, 16 halves)", align)
            .fail();
    }
}

// An operand past its LocalTensor's end but inside the buffer the tensor came from (InitBuffer's length rounded up to
// 32 bytes, as AscendC rounds it): on the NPU an instruction reads and writes UB addresses, not tensors, so this touches
// no other buffer's data and the kernel runs as the NPU runs it (a slice of the same buffer it overwrites is then wrong
// in the emulator as on the NPU). The API reference bounds operands by their tensor, and CANN's CPU-debug build stops
// there: a warning, once per place. NPUKernelBench's Arange answer, which passed on the 910B, casts 8 floats into
// Get<float>(0) of its 32-byte TBuf. Past the buffer it stays an error.
void check_extent(const Local& t, uint64_t end, Op op, const SrcLoc& loc, const char* role) {
    if (end > t.bytes) {
        if (end <= t.cap) {
            if (first_report_at("ub-out-of-range", loc))
                Report("ub-out-of-range", op, loc)
                    .msg("%s: the %s operand reaches %llu bytes into its LocalTensor, which holds only %u bytes; inside the "
                         "buffer the tensor came from, the NPU reads or writes those bytes (CANN's CPU-debug build stops "
                         "here), and so does the emulator", op_name(op), role, static_cast<unsigned long long>(end), t.bytes)
                    .val("operand", role).val("bytes_needed", static_cast<int64_t>(end)).val("tensor_bytes", t.bytes)
                    .val("ub_offset", ub_offset(t.addr))
                    .hint("lower the count (or repeatTime/strides), or give the tensor its whole length (TBuf::Get<T>(len) "
                          "takes a length in elements, not an offset)")
                    .warn();
            return;
        }
        Report("ub-out-of-range", op, loc)
            .msg("%s: the %s operand reaches %llu bytes into its LocalTensor, which holds only %u bytes", op_name(op), role,
                 static_cast<unsigned long long>(end), t.bytes)
            .val("operand", role).val("bytes_needed", static_cast<int64_t>(end)).val("tensor_bytes", t.bytes)
            .val("ub_offset", ub_offset(t.addr))
            .hint("lower the count (or repeatTime/strides), or give the tensor a larger buffer in InitBuffer")
            .fail();
    }
}

namespace {
// The first clear bit of [lo, hi) in a bitmap, or hi.
uint64_t first_clear_bit(const uint64_t* w, uint64_t lo, uint64_t hi) {
    for (uint64_t at = lo; at < hi;) {
        if (at % 64 == 0) {                                                       // whole words set: skip them
            uint64_t k = at / 64;
            const uint64_t whole_end = hi / 64;
            // eight words at a time first (a 32 KB tile's bitmap is 512 words): one AND chain the compiler vectorises
            while (k + 8 <= whole_end && (w[k] & w[k + 1] & w[k + 2] & w[k + 3] & w[k + 4] & w[k + 5] & w[k + 6] & w[k + 7]) == ~0ull)
                k += 8;
            while (k < whole_end && w[k] == ~0ull) ++k;
            at = k * 64;
            if (at >= hi) break;
        }
        const uint64_t k = at / 64, shift = at % 64;
        const uint64_t top = std::min<uint64_t>(hi - k * 64, 64);                  // bits of this word in range: [shift, top)
        const uint64_t in_range = (top == 64 ? ~0ull : (1ull << top) - 1) & ~((1ull << shift) - 1);
        const uint64_t clear = ~w[k] & in_range;
        if (clear) return k * 64 + static_cast<uint64_t>(__builtin_ctzll(clear));
        at = k * 64 + top;
    }
    return hi;
}
// Set the bits [lo, hi) of a bitmap.
void set_bits(uint64_t* w, uint64_t lo, uint64_t hi) {
    while (lo < hi && lo % 64) {
        const uint64_t top = std::min<uint64_t>(hi - lo / 64 * 64, 64);
        w[lo / 64] |= (top == 64 ? ~0ull : (1ull << top) - 1) & ~((1ull << (lo % 64)) - 1);
        lo = lo / 64 * 64 + top;
    }
    if (hi - lo >= 64) {
        std::memset(w + lo / 64, 0xFF, (hi - lo) / 64 * 8);
        lo += (hi - lo) / 64 * 64;
    }
    if (lo < hi) w[lo / 64] |= (1ull << (hi - lo)) - 1;
}
}  // namespace

void check_initialised(const Local& t, uint64_t offset, uint64_t len, Op op, const SrcLoc& loc, const char* role) {
    if (tracing_now() || len == 0 || g_launch->uninit_reported.load(std::memory_order_relaxed)) return;
    Core& c = core();
    uint32_t start = ub_offset(t.addr) + static_cast<uint32_t>(offset);
    if (start >= c.written_bytes) return;
    const uint64_t end = start + std::min<uint64_t>(len, c.written_bytes - start);
    const uint64_t hole = first_clear_bit(c.written.data(), start, end);
    if (hole == end) return;
    uint32_t at = static_cast<uint32_t>(hole);
    if (g_launch->uninit_reported.exchange(true)) return;
    Report("ub-uninitialised", op, loc)
        .msg("%s reads UB that nothing has written yet: the %s operand, byte %u of the tensor (UB offset %u)", op_name(op), role,
             at - ub_offset(t.addr), at)
        .val("operand", role).val("ub_offset", at)
        .hint("a hint, not an error: if the output changes with the poison pattern, this read is why")
        .note();
}

bool initialised(const Local& t, uint64_t offset, uint64_t len) {
    if (tracing_now() || len == 0 || g_launch->uninit_reported.load(std::memory_order_relaxed)) return true;
    Core& c = core();
    uint32_t start = ub_offset(t.addr) + static_cast<uint32_t>(offset);
    if (start >= c.written_bytes) return true;
    const uint64_t end = start + std::min<uint64_t>(len, c.written_bytes - start);
    return first_clear_bit(c.written.data(), start, end) == end;
}

void mark_written(const Local& t, uint64_t offset, uint64_t len) {
    if (tracing_now() || len == 0) return;
    Core& c = core();
    uint32_t start = ub_offset(t.addr) + static_cast<uint32_t>(offset);
    if (start >= c.written_bytes) return;
    set_bits(c.written.data(), start, start + std::min<uint64_t>(len, c.written_bytes - start));
}

// ---- vector geometry -----------------------------------------------------------------------------------
uint64_t Geometry::active() const {
    if (contiguous) return count;
    uint64_t full = static_cast<uint64_t>(__builtin_popcountll(bits[0])) + static_cast<uint64_t>(__builtin_popcountll(bits[1]));
    if (last_lanes && repeats) return full * (repeats - 1) + last_lanes;
    return full * repeats;
}
uint32_t Geometry::max_lane(uint32_t r) const {
    if (last_lanes && r + 1 == repeats) return last_lanes;
    if (bits[1]) return 128 - static_cast<uint32_t>(__builtin_clzll(bits[1]));
    if (bits[0]) return 64 - static_cast<uint32_t>(__builtin_clzll(bits[0]));
    return 0;
}

static void full_mask(Core& c) {
    c.counter_mode = false;
    c.mask_bits[0] = c.mask_bits[1] = ~0ull;
}

void restore_mask_after_level2(const Lanes& lanes) {
    if (!lanes.level0) full_mask(core());
}

static void lanes_to_bits(uint64_t n, uint64_t* bits) {
    bits[0] = n >= 64 ? ~0ull : (n ? (~0ull >> (64 - n)) : 0);
    bits[1] = n >= 128 ? ~0ull : (n > 64 ? (~0ull >> (128 - n)) : 0);
}

Geometry resolve(const Lanes& lanes, uint32_t epr, Op op, const SrcLoc& loc, bool ignoreMask) {
    Geometry g;
    g.epr = epr;
    if (!lanes.level0) {
        if (lanes.negative)
            Report("vector-count", op, loc).msg("%s was called with a negative element count", op_name(op))
                .hint("check the tail arithmetic that computes the count").fail();
        g.contiguous = true;
        g.count = lanes.count;
        return g;
    }
    Core& c = core();
    g.contiguous = false;
    g.level0 = true;
    if (c.counter_mode && !ignoreMask) {
        uint64_t total = lanes.setMask ? lanes.mask[0] : c.counter_value;
        if (lanes.setMask) c.counter_value = total;
        g.repeats = static_cast<uint32_t>((total + epr - 1) / epr);
        g.last_lanes = static_cast<uint32_t>(total - static_cast<uint64_t>(g.repeats ? g.repeats - 1 : 0) * epr);
        if (g.last_lanes == epr) g.last_lanes = 0;
        lanes_to_bits(epr, g.bits);
        return g;
    }
    g.repeats = lanes.repeats;
    if (ignoreMask) { lanes_to_bits(epr, g.bits); return g; }
    if (!lanes.setMask) {
        g.bits[0] = c.mask_bits[0];
        g.bits[1] = c.mask_bits[1];
    } else if (lanes.bitMask) {
        g.bits[0] = lanes.mask[0];
        g.bits[1] = epr > 64 && lanes.maskHigh ? *lanes.maskHigh : 0;  // a 32- or 64-bit mask[] has one word
        if (epr <= 32) g.bits[0] &= 0xffffffffull;
        if (!g.bits[0] && !g.bits[1])
            Report("vector-mask", op, loc).msg("%s: the bit mask selects no lane (mask[0] and mask[1] are both 0)", op_name(op))
                .hint("set at least one bit of the mask").fail();
    } else {
        uint64_t n = lanes.mask[0];
        if (n < 1 || n > epr)
            Report("vector-mask", op, loc)
                .msg("%s: mask = %llu lanes, but a repeat of this type has %u lanes (the continuous mask must be 1..%u)",
                     op_name(op), static_cast<unsigned long long>(n), epr, epr)
                .val("mask", static_cast<int64_t>(n)).val("lanes_per_repeat", epr)
                .hint("use mask = min(remaining, %u) for each repeat", epr).fail();
        lanes_to_bits(n, g.bits);
    }
    if (lanes.setMask) { c.mask_bits[0] = g.bits[0]; c.mask_bits[1] = g.bits[1]; }
    uint64_t valid[2];
    lanes_to_bits(epr, valid);
    g.bits[0] &= valid[0];
    g.bits[1] &= valid[1];
    return g;
}

uint64_t operand_extent(const Geometry& g, const Stride& s, uint32_t esize) {
    if (g.contiguous) return g.count * esize;
    if (!g.repeats) return 0;
    uint64_t end = 0;
    for (uint32_t r = (g.repeats > 1 ? g.repeats - 2 : 0); r < g.repeats; ++r) {
        uint32_t top = g.max_lane(r);
        if (!top) continue;
        // The last active lane is the furthest one unless a block stride of 0 folds blocks together.
        uint64_t last = lane_offset(g, s, esize, r, top - 1) + esize;
        if (s.blk == 0) last = lane_offset(g, s, esize, r, 0) + std::min<uint64_t>(32, static_cast<uint64_t>(top) * esize);
        end = std::max(end, last);
    }
    // With repeat stride 0 every repeat overlaps the first one; the last two repeats bound the rest.
    return end;
}

void check_operand(const Geometry& g, const Local& t, const Stride& s, uint32_t esize, bool read, Op op, const SrcLoc& loc,
                   const char* role, uint32_t align) {
    check_local(t, op, loc, role, align);
    uint64_t end = operand_extent(g, s, esize);
    check_extent(t, end, op, loc, role);
    if (!read || tracing_now() || g_launch->uninit_reported.load(std::memory_order_relaxed)) return;
    if (g.contiguous) { check_initialised(t, 0, end, op, loc, role); return; }
    each_run(g, s, esize, [&](uint64_t offset, uint64_t bytes) { check_initialised(t, offset, bytes, op, loc, role); });
}

void mark_operand(const Geometry& g, const Local& t, const Stride& s, uint32_t esize) {
    if (tracing_now()) return;
    if (g.contiguous) { mark_written(t, 0, g.count * esize); return; }
    each_run(g, s, esize, [&](uint64_t offset, uint64_t bytes) { mark_written(t, offset, bytes); });
}

// ---- pipes, queues, buffers ------------------------------------------------------------------------------
static Queue& queue_of(int q, Op op, const SrcLoc& loc) {
    Core& c = core();
    if (q < 0 || q >= static_cast<int>(c.queues.size()))
        Report("queue-protocol", op, loc).msg("%s on a queue or buffer that TPipe::InitBuffer never set up", op_name(op))
            .hint("call pipe.InitBuffer(queue, num, bytes) in Init() before using the queue").fail();
    Queue& queue = c.queues[q];
    if (!queue.live)
        Report("queue-protocol", op, loc).msg("%s on a queue whose TPipe was reset or destroyed", op_name(op))
            .hint("InitBuffer the queue again after TPipe::Reset()").fail();
    return queue;
}

static uint8_t producer_pipe(uint8_t src) {
    if (cube_region_of(src)) return cube_producer_pipe(src);
    return src == static_cast<uint8_t>(AscendC::TPosition::VECIN) ? static_cast<uint8_t>(TPipe_::MTE2) : static_cast<uint8_t>(TPipe_::V);
}
static uint8_t consumer_pipe(uint8_t dst) {
    if (cube_region_of(dst)) return cube_consumer_pipe(dst);
    return dst == static_cast<uint8_t>(AscendC::TPosition::VECOUT) ? static_cast<uint8_t>(TPipe_::MTE3) : static_cast<uint8_t>(TPipe_::V);
}

// ---- the event ids a queue holds (AscendC's TQueBind on arch 2201) ----------------------------------------------
// As asc-devkit's TQueBind and TPipe do it (facts read there, not code): a queue's flags are hardware events named by
// the memories its data moves between (TQue<pos> moves GM -> VECIN, VECOUT -> GM, GM -> A1/B1/C1, A1 -> A2, B1 -> B2,
// C1 -> C2, CO1 -> CO2, and any other position, VECCALC among them, UB -> UB); each TPipe keeps the ids in use per
// HardEvent, and hands out the lowest free one. A queue of depth >= 1 takes an id of its free event at each FreeTensor
// and gives it back at that buffer's next AllocTensor (or when the TPipe ends or is Reset): a freed buffer keeps its id
// until it is allocated again. It takes an id of its EnQue event at EnQue and gives it back at DeQue. A depth-0 queue
// holds one of each per buffer from InitBuffer on. AllocTensor takes none, nor does a TBuf. The API reference gives
// ids 0..7 on Ascend 910B; past that, CANN's CPU-debug build stops, while its NPU build hands out id 8, 9, ...: three
// LLM4AscendC kernels that passed on their 910B free 10 VECCALC buffers and hold ids 0..9 of MTE3_MTE2 until the
// TPipe's end waits on every one (a flag is one bit, so had ids 8 and 9 been 0 and 1 again, that wait would hang). So
// an id past 7 is a warning, as AscendC's CPU-debug checks that the NPU does not share are (adv-in-place).
namespace {
enum class Mem : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF };
Mem mem_of(uint8_t pos) {
    using P = AscendC::TPosition;
    switch (static_cast<P>(pos)) {
        case P::GM: case P::CO2: return Mem::GM;
        case P::A1: case P::B1: case P::C1: case P::TSCM: return Mem::L1;
        case P::A2: return Mem::L0A;
        case P::B2: return Mem::L0B;
        case P::C2: return Mem::BIAS;
        case P::CO1: return Mem::L0C;
        case P::C2PIPE2GM: return Mem::FIXBUF;
        default: return Mem::UB;
    }
}
// the (source, destination) memories of a TQue<pos> (our TQue<pos> is TQueBind<pos, pos>); any other pair as given
void queue_memories(uint8_t src, uint8_t dst, Mem* from, Mem* to) {
    using P = AscendC::TPosition;
    *from = mem_of(src);
    *to = mem_of(dst);
    if (src != dst) return;
    switch (static_cast<P>(src)) {
        case P::A1: case P::B1: case P::C1: case P::VECIN: *from = Mem::GM; break;
        case P::A2: case P::B2: case P::C2: case P::C2PIPE2GM: *from = Mem::L1; break;
        case P::CO1: *to = Mem::GM; break;
        case P::VECOUT: case P::SPM: *from = Mem::UB; *to = Mem::GM; break;
        case P::CO2: break;
        default: *from = *to = Mem::UB; break;  // VECCALC and the rest: no logical source, so UB -> UB
    }
}
constexpr uint8_t kNoEvent = 0xff;
void queue_events(uint8_t src, uint8_t dst, uint8_t* free_event, uint8_t* enque_event) {
    using E = AscendC::HardEvent;
    Mem from, to;
    queue_memories(src, dst, &from, &to);
    E f = E::MAX, e = E::MAX;
    if (from == Mem::GM && to == Mem::UB) { f = E::V_MTE2; e = E::MTE2_V; }
    else if (from == Mem::GM && to == Mem::L1) { f = E::MTE1_MTE2; e = E::MTE2_MTE1; }
    else if (from == Mem::GM && (to == Mem::L0A || to == Mem::L0B)) { f = E::M_MTE2; e = E::MTE2_M; }
    else if (from == Mem::UB && to == Mem::GM) { f = E::MTE3_V; e = E::V_MTE3; }
    else if (from == Mem::UB && to == Mem::L1) { f = E::MTE1_MTE3; e = E::MTE3_MTE1; }
    else if (from == Mem::UB && to == Mem::L0C) { e = E::V_V; }
    else if (from == Mem::UB && to == Mem::UB) { f = E::MTE3_MTE2; e = E::MTE2_MTE3; }
    else if (from == Mem::L1 && to == Mem::UB) { f = E::V_MTE1; e = E::MTE1_V; }
    else if (from == Mem::L1 && (to == Mem::L0A || to == Mem::L0B || to == Mem::BIAS)) { f = E::M_MTE1; e = E::MTE1_M; }
    else if (from == Mem::L1 && to == Mem::FIXBUF) { f = E::FIX_MTE1; e = E::MTE1_FIX; }
    else if (from == Mem::L0A || from == Mem::L0B) { f = E::V_M; e = E::M_V; }
    else if (from == Mem::L0C) { f = E::FIX_M; e = E::M_FIX; }
    *free_event = f == E::MAX ? kNoEvent : static_cast<uint8_t>(f);
    *enque_event = e == E::MAX ? kNoEvent : static_cast<uint8_t>(e);
}
}  // namespace

constexpr uint64_t kAicMte1Ids = 0x7;   // the M_MTE1 ids a TPipe holds on an AIC (pipe_open)
bool kernel_on_aic();

// The lowest id of the event that neither a queue nor AllocEventID holds (TPipe::AllocEventID's choice); the queue's
// buffer keeps it. Past 7: the warning above.
static int8_t queue_take_id(const Queue& q, uint8_t event, Op op, const SrcLoc& loc) {
    if (event >= 64) return -1;
    Core& c = core();
    const uint64_t held = c.queue_ids[event] | c.event_ids[event];
    if (held == ~0ull) return -1;   // all 64 of the TPipe's bitmap: AscendC's lookup finds none either
    const unsigned id = static_cast<unsigned>(__builtin_ctzll(~held));
    if (id >= 8 && first_report_at("queue-too-many", loc))
        Report("queue-too-many", op, loc)
            .msg("%s takes HardEvent::%s event id %u (ids 0..%u are held: each %s buffer freed and not allocated again "
                 "keeps one, as does each tensor in a queue%s), past the 0..7 the API reference gives for Ascend 910B; "
                 "CANN's CPU-debug build stops here, its NPU build uses the id, kernels holding ids up to 9 have run "
                 "correctly on the 910B, and so does the emulator", op_name(op), event_name(event), id, id - 1,
                 position_name(q.src),
                 (c.queue_ids[event] & kAicMte1Ids) == kAicMte1Ids && event == static_cast<uint8_t>(AscendC::HardEvent::M_MTE1)
                     && std::any_of(c.pipes.begin(), c.pipes.end(), [](const PipeState& p) { return p.live && p.aic_mte1; })
                     ? "; on an AIC the TPipe itself holds ids 0..2 of M_MTE1" : "")
            .val("event", event_name(event)).val("event_id", static_cast<int64_t>(id))
            .hint("to stay within ids 0..7, keep at most 8 buffers of queues that use this event (for temporaries, one TBuf "
                  "sliced with operator[] takes no event id)")
            .warn();
    c.queue_ids[event] |= 1ull << id;
    return static_cast<int8_t>(id);
}
static void queue_give_id(uint8_t event, int8_t& id) {
    if (event < 64 && id >= 0) core().queue_ids[event] &= ~(1ull << id);
    id = -1;
}
// the TPipe ends or is Reset, or the queue's TBufPool is Reset: every id its buffers hold goes back
static void queue_give_all(Queue& q) {
    for (Slot& s : q.slots) {
        queue_give_id(q.free_event, s.free_id);
        queue_give_id(q.enque_event, s.enque_id);
    }
}

// AscendC's TPipe on an AIC (arch 2201) takes M_MTE1 event ids 0, 1 and 2 when it is made (TPipe::Init: the Matmul
// API's two L0 buffers and its bias) and gives them back when it ends; a Reset empties its event pool, those ids with
// it (ResetPool). An A2 / B2 queue's FreeTensor (L1 -> L0A / L0B: event M_MTE1) takes the lowest id after them.
static void pipe_give_aic_ids(PipeState& p) {
    if (!p.aic_mte1) return;
    core().queue_ids[static_cast<uint8_t>(AscendC::HardEvent::M_MTE1)] &= ~kAicMte1Ids;
    p.aic_mte1 = false;
}

int pipe_open(void* object, SrcLoc loc) {
    Core& c = core();
    PipeState p;
    p.object = object;
    p.loc = loc;
    if (kernel_on_aic()) {
        c.queue_ids[static_cast<uint8_t>(AscendC::HardEvent::M_MTE1)] |= kAicMte1Ids;
        p.aic_mte1 = true;
    }
    c.pipes.push_back(p);
    c.current_pipe = static_cast<int>(c.pipes.size()) - 1;
    return c.current_pipe;
}

// Tensors of the pipe's queues still allocated when it ends (at_end: the TPipe is destroyed) or is Reset. At the end,
// a tensor allocated and never freed is a warning: AscendC's TPipe end waits only on the free buffers' flags, and the
// API reference asks for no FreeTensor before it, so on the NPU such a kernel runs correctly (NPUKernelBench's
// GroupNormSwish answer allocates its mean / rstd tensors again after the last group). A tensor still in its queue
// (EnQue without DeQue) leaves its flag set, and at a Reset the pipe hands the tensor's bytes out again: errors.
static void check_leaks(int pipe, bool at_end) {
    Core& c = core();
    for (Queue& q : c.queues) {
        if (q.pipe != pipe || !q.live || q.is_buf) continue;
        for (size_t i = 0; i < q.slots.size(); ++i) {
            if (q.slots[i].state == SlotState::Free) continue;
            if (at_end && q.slots[i].state == SlotState::Allocated) {
                if (first_report_at("queue-leak", q.slots[i].alloc_loc))
                    Report("queue-leak", Op::AllocTensor, q.slots[i].alloc_loc)
                        .msg("a tensor allocated here (buffer %zu of a %s queue) was never freed; the NPU does not mind at "
                             "the kernel's end, and neither does the emulator", i, position_name(q.src))
                        .val("buffer", static_cast<int64_t>(i)).val("position", position_name(q.src))
                        .hint("FreeTensor it after its last use: a kernel that allocates it again stops there")
                        .warn();
                continue;
            }
            Report("queue-leak", Op::AllocTensor, q.slots[i].alloc_loc)
                .msg("a tensor allocated here (buffer %zu of a %s queue) was never freed%s", i, position_name(q.src),
                     q.slots[i].state == SlotState::Queued ? "; it is still in the queue (EnQue without DeQue)" : "")
                .val("buffer", static_cast<int64_t>(i)).val("position", position_name(q.src))
                .hint("every AllocTensor needs a FreeTensor (after DeQue) before the kernel ends")
                .fail();
        }
    }
}

void pipe_close(int pipe) {
    if (!t_core || pipe < 0 || pipe >= static_cast<int>(t_core->pipes.size())) return;
    Core& c = *t_core;
    if (!c.pipes[pipe].live) return;
    check_leaks(pipe, true);
    for (Queue& q : c.queues)
        if (q.pipe == pipe) { queue_give_all(q); q.live = false; }
    pipe_give_aic_ids(c.pipes[pipe]);
    c.pipes[pipe].live = false;
    if (c.current_pipe == pipe) c.current_pipe = -1;
}

void pipe_reset(int pipe, SrcLoc loc) {
    Core& c = core();
    enter(Op::InitBuffer, loc);
    check_leaks(pipe, false);
    for (Queue& q : c.queues)
        if (q.pipe == pipe) { queue_give_all(q); q.live = false; }
    pipe_give_aic_ids(c.pipes[pipe]);
    c.pipes[pipe].used = 0;
    std::memset(c.pipes[pipe].cube_used, 0, sizeof c.pipes[pipe].cube_used);
    c.pipes[pipe].buffers = 0;
}

// TPipe::Destroy: a Reset, and the pipe is marked destroyed. AscendC's TPipe records that in its state (isDestroy), and
// its destructor does nothing once it is set; a copy of a destroyed TPipe carries the mark, so the copy is inert (its
// end does nothing): catlass's Arch::Resource destroys its pipe in its constructor, and its PrologueTraits<void> takes
// the Resource by value.
void pipe_destroy(int pipe, SrcLoc loc) {
    pipe_reset(pipe, loc);
    core().pipes[pipe].destroyed = true;
}

bool pipe_destroyed(int pipe) {
    Core& c = core();
    return pipe >= 0 && pipe < static_cast<int>(c.pipes.size()) && c.pipes[pipe].destroyed;
}

// `a = b` of two TPipes: a's allocation state becomes b's (the UB and cube bytes handed out, the buffer count); the
// queues each one set up stay with the pipe that set them up.
void pipe_assign(int pipe, int from) {
    Core& c = core();
    const int n = static_cast<int>(c.pipes.size());
    if (pipe == from || pipe < 0 || pipe >= n || from < 0 || from >= n) return;
    PipeState& to = c.pipes[pipe];
    const PipeState& src = c.pipes[from];
    to.used = src.used;
    std::memcpy(to.cube_used, src.cube_used, sizeof to.cube_used);
    to.buffers = src.buffers;
}

void* current_pipe_object() {
    Core& c = core();
    return c.current_pipe >= 0 ? c.pipes[c.current_pipe].object : nullptr;
}

// The ub-overflow report of an InitBuffer past the end of UB; `used` = where the kernel first uses such a buffer.
static Report ub_overflow_report(const SrcLoc& loc, int num, uint64_t len32, uint64_t total, uint32_t offset, uint32_t cap,
                                 const SrcLoc* used) {
    Report r("ub-overflow", Op::InitBuffer, loc);
    if (used)
        r.msg("InitBuffer asks for %d x %llu = %llu bytes of UB at offset %u, but only %u of the %u bytes are left; "
              "the kernel uses this buffer at line %d", num, static_cast<unsigned long long>(len32),
              static_cast<unsigned long long>(total), offset, offset < cap ? cap - offset : 0, cap, used->line);
    else
        r.msg("InitBuffer asks for %d x %llu = %llu bytes of UB at offset %u, but only %u of the %u bytes are left",
              num, static_cast<unsigned long long>(len32), static_cast<unsigned long long>(total), offset,
              offset < cap ? cap - offset : 0, cap);
    r.val("requested", static_cast<int64_t>(total)).val("available", offset < cap ? cap - offset : 0).val("ub_bytes", cap)
        .val("offset", offset);
    return r;
}

static void check_within_ub(const Queue& q, const SrcLoc& loc) {
    if (!q.beyond_ub) return;
    const uint32_t offset = q.base, n = static_cast<uint32_t>(q.slots.size());
    ub_overflow_report(q.init_loc, static_cast<int>(n), q.len, static_cast<uint64_t>(q.len) * n, offset,
                       g_launch->ub_bytes, &loc)
        .hint("shrink the tile (elements per buffer) or the number of buffers; all InitBuffer calls together must fit in "
              "%u bytes", g_launch->ub_bytes)
        .fail();
}

static int queue_make(int pipe, uint8_t srcPos, uint8_t dstPos, int32_t depth, int32_t num, uint64_t len, bool isBuf,
                      int64_t at, uint32_t poolEnd, SrcLoc loc);

int queue_init(int pipe, uint8_t srcPos, uint8_t dstPos, int32_t depth, int32_t num, uint64_t len, bool isBuf, SrcLoc loc) {
    return queue_make(pipe, srcPos, dstPos, depth, num, len, isBuf, -1, 0, loc);
}

// A queue or buffer inside a TBufPool: at a given UB offset, inside the pool's bytes [.., poolEnd), without taking UB
// from the pipe (the pool took it when TPipe::InitBufPool made it).
int queue_init_at(int pipe, uint8_t srcPos, uint8_t dstPos, int32_t depth, int32_t num, uint64_t len, bool isBuf,
                  uint32_t at, uint32_t poolEnd, SrcLoc loc) {
    return queue_make(pipe, srcPos, dstPos, depth, num, len, isBuf, at, poolEnd, loc);
}

uint32_t queue_base(int queue) {
    Core& c = core();
    return queue >= 0 && queue < static_cast<int>(c.queues.size()) ? c.queues[queue].base : 0;
}

// TBufPool::Reset: the pool's queues end (a tensor still allocated in one is a queue-leak), so their bytes can be
// handed out again.
void queue_release(int queue, SrcLoc loc) {
    Core& c = core();
    if (queue < 0 || queue >= static_cast<int>(c.queues.size()) || !c.queues[queue].live) return;
    enter(Op::InitBuffer, loc);
    Queue& q = c.queues[queue];
    if (!q.is_buf)
        for (size_t i = 0; i < q.slots.size(); ++i)
            if (q.slots[i].state != SlotState::Free)
                Report("queue-leak", Op::AllocTensor, q.slots[i].alloc_loc)
                    .msg("a tensor allocated here (buffer %zu of a %s queue) was not freed before its TBufPool's Reset",
                         i, position_name(q.src))
                    .hint("FreeTensor every tensor of the pool's queues before TBufPool::Reset()").fail();
    queue_give_all(q);
    q.live = false;
    if (q.pipe >= 0 && q.pipe < static_cast<int>(c.pipes.size()) && c.pipes[q.pipe].buffers >= q.slots.size())
        c.pipes[q.pipe].buffers -= static_cast<uint32_t>(q.slots.size());
}

static int queue_make(int pipe, uint8_t srcPos, uint8_t dstPos, int32_t depth, int32_t num, uint64_t len, bool isBuf,
                      int64_t at, uint32_t poolEnd, SrcLoc loc) {
    Core& c = core();
    enter(Op::InitBuffer, loc);
    if (pipe < 0 || pipe >= static_cast<int>(c.pipes.size()) || !c.pipes[pipe].live)
        Report("queue-protocol", Op::InitBuffer, loc).msg("InitBuffer on a TPipe that was destroyed").fail();
    PipeState& p = c.pipes[pipe];
    // a TSCM queue (TQueBind<src, TSCM>) holds its tensors in L1, positioned TSCM: GM -> L1 on MTE2, read by MTE1
    if (dstPos == static_cast<uint8_t>(AscendC::TPosition::TSCM)) srcPos = dstPos;
    if (num <= 0)
        Report("queue-protocol", Op::InitBuffer, loc).msg("InitBuffer with num = %d buffers", num)
            .hint("use num = 1 (single buffer) or 2 (double buffer)").fail();
    // A length of 0: CANN checks len > 0 only in its CPU-debug build; on the NPU the buffer is simply empty (public
    // kernels do this for a branch their tiling turned off). A warning here; any access through it is out of range.
    if (len == 0 && first_report_at("ub-empty-buffer", loc))
        Report("ub-empty-buffer", Op::InitBuffer, loc).msg("InitBuffer with a length of 0 bytes: the buffer is empty")
            .hint("the run stops if the kernel reads or writes through it; pass the buffer size in bytes (elements * "
                  "sizeof(T)) if it is used").warn();
    uint64_t len32 = (len + 31) / 32 * 32;
    uint64_t total = len32 * static_cast<uint64_t>(num);
    const uint8_t region = cube_region_of(srcPos);
    if (region) len32 = cube_round_len(region, len);  // L0 buffers start on 512-byte fractals, L0C on 64 bytes
    if (region) total = len32 * static_cast<uint64_t>(num);
    if (region) cube_check_capacity(region, p.cube_used[region], total, num, len32, loc);
    uint32_t cap = g_launch->ub_bytes;
    // Past the end of UB: on the NPU, InitBuffer only hands out addresses, and a kernel that never uses such a buffer
    // (a branch for another dtype) runs correctly. So this is a warning here, and the error when the buffer is used.
    if (at >= 0 && (region || static_cast<uint64_t>(at) + total > poolEnd))
        Report(region ? "unsupported" : "ub-overflow", Op::InitBuffer, loc)
            .msg(region ? "a TBufPool in L1 (A1/B1/C1) is not emulated yet; pools of VECIN/VECOUT/VECCALC are"
                        : "InitBuffer in a TBufPool asks for %d x %llu = %llu bytes at UB offset %u, past the pool's end "
                          "at offset %u", num, static_cast<unsigned long long>(len32), static_cast<unsigned long long>(total),
                 static_cast<uint32_t>(at), poolEnd)
            .hint("the buffers made in a TBufPool must fit in the length its InitBufPool gave it").fail();
    const bool beyond = at < 0 && !region && p.used + total > cap;
    if (beyond && p.used + total > (1ull << 30))   // no NPU has a GB of UB: a size gone wrong, stop at once
        ub_overflow_report(loc, num, len32, total, p.used, cap, nullptr)
            .hint("all InitBuffer calls together must fit in %u bytes", cap).fail();
    if (beyond)
        ub_overflow_report(loc, num, len32, total, p.used, cap, nullptr)
            .hint("the run stops if the kernel uses this buffer (AllocTensor / Get); shrink the tile or the number of "
                  "buffers so that all InitBuffer calls together fit in %u bytes", cap)
            .warn();
    if (p.buffers + static_cast<uint32_t>(num) > 64)
        Report("pipe-buffers", Op::InitBuffer, loc)
            .msg("InitBuffer would make %u buffers in this TPipe; a TPipe manages at most 64", p.buffers + num)
            .val("buffers", p.buffers + num).hint("merge small buffers into one TBuf and slice it with operator[]").fail();
    Queue q;
    q.pipe = pipe;
    q.is_buf = isBuf;
    q.src = srcPos;
    q.dst = dstPos;
    q.depth = depth;
    q.len = static_cast<uint32_t>(len32);
    q.base = at >= 0 ? static_cast<uint32_t>(at) : region ? p.cube_used[region] : p.used;
    q.region = region;
    q.slots.resize(static_cast<size_t>(num));
    q.init_loc = loc;
    if (beyond) q.beyond_ub = p.used > 0 ? p.used : 1;
    q.producer = producer_pipe(srcPos);
    q.consumer = consumer_pipe(dstPos);
    q.event_base = c.next_event_key;
    if (!isBuf) c.next_event_key = static_cast<uint16_t>(c.next_event_key + num);
    if (at >= 0) {}   // a pool's bytes: taken from the pipe already
    else if (region) p.cube_used[region] += static_cast<uint32_t>(total);
    else p.used += static_cast<uint32_t>(total);
    p.buffers += static_cast<uint32_t>(num);
    c.ub_high = std::max(c.ub_high, p.used);
    // a TSCM queue's ids depend on the core (AIV takes none): not counted
    if (!isBuf && srcPos != static_cast<uint8_t>(AscendC::TPosition::TSCM)) queue_events(srcPos, dstPos, &q.free_event, &q.enque_event);
    if (!isBuf && depth == 0)  // a depth-0 queue holds one id of each event per buffer from InitBuffer on
        for (Slot& s : q.slots) {
            s.enque_id = queue_take_id(q, q.enque_event, Op::InitBuffer, loc);
            s.free_id = queue_take_id(q, q.free_event, Op::InitBuffer, loc);
        }
    c.queues.push_back(q);
    if (!isBuf)
        for (int i = 0; i < num; ++i)  // every buffer starts free: its "free" flag is set
            sync_flag(TKind::SET, q.consumer, q.producer, static_cast<uint16_t>(q.event_base + i), Op::InitBuffer, loc);
    return static_cast<int>(c.queues.size()) - 1;
}

static Local slot_tensor(const Queue& q, int queue, int slot) {
    Local t;
    t.addr = (q.region ? cube_base(q.region) : core().ub) + q.base + static_cast<uint64_t>(slot) * q.len;
    t.bytes = q.len;
    t.cap = q.len;
    t.queue = queue;
    t.slot = static_cast<int16_t>(slot);
    t.pos = q.src;
    return t;
}

Local queue_alloc(int queue, SrcLoc loc) {
    enter(Op::AllocTensor, loc);
    Core& c = core();
    Queue& q = queue_of(queue, Op::AllocTensor, loc);
    check_within_ub(q, loc);
    int n = static_cast<int>(q.slots.size());
    int slot = -1;
    for (int k = 0; k < n; ++k) {
        int i = (static_cast<int>(q.next) + k) % n;
        if (q.slots[i].state == SlotState::Free) { slot = i; break; }
    }
    if (slot < 0)
        Report("queue-alloc", Op::AllocTensor, loc)
            .msg("AllocTensor on a %s queue whose %d buffers are all in use; on the NPU this waits forever",
                 position_name(q.src), n)
            .val("buffers", n).hint("FreeTensor a tensor of this queue before allocating the next one, or InitBuffer more buffers")
            .fail();
    if (q.depth != 0) queue_give_id(q.free_event, q.slots[slot].free_id);  // the id its FreeTensor took goes back
    q.slots[slot].state = SlotState::Allocated;
    q.slots[slot].alloc_loc = loc;
    q.next = static_cast<uint32_t>((slot + 1) % n);
    sync_flag(TKind::WAIT, q.consumer, q.producer, static_cast<uint16_t>(q.event_base + slot), Op::AllocTensor, loc);
    return slot_tensor(q, queue, slot);
}

static int slot_of(const Queue& q, int queue, const Local& t, Op op, const SrcLoc& loc) {
    if (t.queue != queue || t.slot < 0 || t.slot >= static_cast<int>(q.slots.size()))
        Report("queue-protocol", op, loc)
            .msg("%s with a tensor that was not allocated from this queue", op_name(op))
            .hint("EnQue/FreeTensor a tensor on the queue whose AllocTensor (or DeQue) returned it").fail();
    return t.slot;
}

bool queue_enque(int queue, const Local& t, SrcLoc loc) {
    enter(Op::EnQue, loc);
    Queue& q = queue_of(queue, Op::EnQue, loc);
    int slot = slot_of(q, queue, t, Op::EnQue, loc);
    if (q.slots[slot].state != SlotState::Allocated)
        Report("queue-protocol", Op::EnQue, loc)
            .msg("EnQue of a tensor that is %s", q.slots[slot].state == SlotState::Queued ? "already in the queue" : "not allocated (it was freed)")
            .hint("EnQue each allocated tensor once, then DeQue it").fail();
    if (q.depth > 0 && static_cast<int32_t>(q.fifo.size()) >= q.depth)
        Report("queue-depth", Op::EnQue, loc)
            .msg("EnQue into a queue of depth %d that already holds %zu tensor(s)", q.depth, q.fifo.size())
            .val("depth", q.depth).hint("DeQue before the next EnQue, or declare the queue with a larger depth").fail();
    q.fifo.push_back(slot);
    q.slots[slot].state = SlotState::Queued;
    if (q.depth != 0) q.slots[slot].enque_id = queue_take_id(q, q.enque_event, Op::EnQue, loc);
    sync_flag(TKind::SET, q.producer, q.consumer, static_cast<uint16_t>(q.event_base + slot), Op::EnQue, loc);
    return true;
}

Local queue_deque(int queue, SrcLoc loc) {
    enter(Op::DeQue, loc);
    Queue& q = queue_of(queue, Op::DeQue, loc);
    if (q.fifo.empty())
        Report("queue-empty", Op::DeQue, loc)
            .msg("DeQue on an empty %s queue; on the NPU this waits forever", position_name(q.src))
            .hint("every DeQue needs an earlier EnQue on the same queue (check that CopyIn and Compute loop the same number of "
                  "times)")
            .fail();
    int slot = q.fifo.front();
    q.fifo.erase(q.fifo.begin());
    q.slots[slot].state = SlotState::Allocated;
    if (q.depth != 0) queue_give_id(q.enque_event, q.slots[slot].enque_id);
    sync_flag(TKind::WAIT, q.producer, q.consumer, static_cast<uint16_t>(q.event_base + slot), Op::DeQue, loc);
    return slot_tensor(q, queue, slot);
}

void queue_free(int queue, const Local& t, SrcLoc loc) {
    enter(Op::FreeTensor, loc);
    Core& c = core();
    Queue& q = queue_of(queue, Op::FreeTensor, loc);
    int slot = slot_of(q, queue, t, Op::FreeTensor, loc);
    if (q.slots[slot].state == SlotState::Free)
        Report("queue-double-free", Op::FreeTensor, loc)
            .msg("FreeTensor of a %s buffer that is already free", position_name(q.src))
            .hint("free each tensor exactly once").fail();
    if (q.slots[slot].state == SlotState::Queued)
        Report("queue-protocol", Op::FreeTensor, loc)
            .msg("FreeTensor of a tensor that is still in the queue").hint("DeQue it first").fail();
    q.slots[slot].state = SlotState::Free;
    if (q.depth != 0) q.slots[slot].free_id = queue_take_id(q, q.free_event, Op::FreeTensor, loc);
    sync_flag(TKind::SET, q.consumer, q.producer, static_cast<uint16_t>(q.event_base + slot), Op::FreeTensor, loc);
}

int32_t queue_count(int queue) {
    Core& c = core();
    return queue >= 0 && queue < static_cast<int>(c.queues.size()) ? static_cast<int32_t>(c.queues[queue].fifo.size()) : 0;
}
bool queue_has_idle(int queue) {
    Core& c = core();
    if (queue < 0 || queue >= static_cast<int>(c.queues.size())) return false;
    for (const Slot& s : c.queues[queue].slots)
        if (s.state == SlotState::Free) return true;
    return false;
}

Local tbuf_get(int queue, uint64_t bytes, uint64_t offsetBytes, bool whole, SrcLoc loc) {
    enter(Op::TBufGet, loc);
    Queue& q = queue_of(queue, Op::TBufGet, loc);
    check_within_ub(q, loc);
    Local t = slot_tensor(q, queue, 0);
    t.queue = -1;
    t.slot = -1;
    if (whole) return t;
    if (offsetBytes % 32 != 0)
        Report("ub-misaligned", Op::TBufGet, loc).msg("TBuf::GetWithOffset with an offset of %llu bytes, not a multiple of 32",
                                                       static_cast<unsigned long long>(offsetBytes))
            .val("offset", static_cast<int64_t>(offsetBytes)).hint("use an offset that is a multiple of 32 bytes").fail();
    if (offsetBytes + bytes > q.len)
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("TBuf::Get of %llu bytes at offset %llu from a buffer of %u bytes", static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(offsetBytes), q.len)
            .val("bytes_needed", static_cast<int64_t>(offsetBytes + bytes)).val("tensor_bytes", q.len)
            .hint("InitBuffer the TBuf with enough bytes for everything you Get from it").fail();
    t.addr += offsetBytes;
    t.bytes = static_cast<uint32_t>(bytes);
    t.cap = static_cast<uint32_t>(q.len - offsetBytes);
    return t;
}

void local_set_size(Local& t, uint64_t bytes, SrcLoc loc) {
    enter(Op::SetSize, loc);
    if (t.addr && bytes > t.cap)
        Report("ub-out-of-range", Op::SetSize, loc)
            .msg("SetSize to %llu bytes, but the buffer behind this LocalTensor has only %u bytes from its start",
                 static_cast<unsigned long long>(bytes), t.cap)
            .val("bytes_needed", static_cast<int64_t>(bytes)).val("tensor_bytes", t.cap)
            .hint("a LocalTensor cannot grow beyond the buffer InitBuffer gave it").fail();
    t.bytes = static_cast<uint32_t>(bytes);
}

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

void flag_set(uint8_t event, int32_t id, SrcLoc loc) {
    enter(Op::SetFlag, loc);
    check_event(event, id, Op::SetFlag, loc);
    Core& c = core();
    if (c.flag_set[event][id])
        Report("event-unmatched", Op::SetFlag, loc)
            .msg("SetFlag<HardEvent::%s>(%d) while the same flag is still set (line %d set it and no WaitFlag came between)",
                 event_name(event), id, c.flag_loc[event][id].line)
            .val("event", event_name(event)).val("event_id", id)
            .hint("pair every SetFlag with a WaitFlag of the same event and id before setting it again").fail();
    c.flag_set[event][id] = 1;
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
    c.flag_set[event][id] = 0;
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
    record(static_cast<TPipe_>(trace_pipe_of(pipe)), TKind::BARRIER, Op::PipeBarrier, Dt::none, 0, loc);
    if (pipe == PIPE_ALL)
        if (RaceChecker* race = core().race.get()) race->barrier_all();
}

void sync_all(SrcLoc loc) {
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
    if (g_launch->cross) return cross_sync_all(loc);                 // among the cores of one type (emu_sync_cross.cpp)
    g_launch->scheduler->arrive(core().idx, loc);
}

// The emulated GM has no data cache: a clean-and-invalidate changes no byte. What it is for, seeing another block's GM
// writes (a block that spins on GetValue until the other blocks have set their flags: the asc-devkit gm_by_dcache
// example), needs those blocks to run: one block at a time, this block hands over to them (parallel blocks already
// run at once; cross-core launches have their own scheduler).
void gm_cache_clean_invalid() {
    if (!g_launch || g_launch->parallel || g_launch->cross || !g_launch->scheduler || g_launch->block_dim < 2) return;
    g_launch->scheduler->yield(core().idx);
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

// The scheduler hands a baton between its own thread (turn_ = -1) and the blocks (turn_ = block):
// exactly one of them runs at a time. A block thread that finishes takes the next new block itself,
// so a kernel without SyncAll runs every block on one thread, in order.
void Scheduler::start(int block) {
    state_[block] = kRunning;
    turn_ = block;
    threads_.emplace_back([this, block] {
        int b = block;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                cv_.wait(lock, [&] { return turn_ == b; });
            }
            body_(b);
            std::unique_lock<std::mutex> lock(mutex_);
            state_[b] = kDone;
            int next = -1;
            bool ready = false;
            for (int k = 0; k < blocks_; ++k) ready = ready || state_[k] == kReady;
            if (!ready)
                for (int k = next_new_; k < blocks_ && next < 0; ++k)
                    if (state_[k] == kNew) next = k;
            if (next < 0) {
                turn_ = -1;
                cv_.notify_all();
                return;
            }
            next_new_ = next + 1;
            state_[next] = kRunning;
            turn_ = next;
            b = next;
        }
    });
}

void Scheduler::arrive(int block, const SrcLoc& loc) {
    if (g_launch->parallel) require_sequential("SyncAll");  // the cooperative hand-over runs one block at a time
    std::unique_lock<std::mutex> lock(mutex_);
    cooperative_ = true;
    if (wait_loc_.empty()) wait_loc_.resize(blocks_);
    wait_loc_[block] = loc;
    ++epoch_[block];
    state_[block] = kWaiting;
    turn_ = -1;
    cv_.notify_all();
    cv_.wait(lock, [&] { return turn_ == block; });
}

void Scheduler::yield(int block) {
    std::unique_lock<std::mutex> lock(mutex_);
    bool others = false;
    for (int k = 0; k < blocks_; ++k) others = others || (k != block && state_[k] != kDone);
    if (!others) return;
    cooperative_ = true;
    state_[block] = kYielded;
    turn_ = -1;
    cv_.notify_all();
    cv_.wait(lock, [&] { return turn_ == block; });
}

void Scheduler::run_parallel(int threads) {
    std::atomic<int> next{0};
    auto work = [&] {
        for (int b; (b = next.fetch_add(1)) < blocks_;) body_(b);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::min(threads, blocks_); ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
}

void Scheduler::run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        int next = -1;
        for (int b = 0; b < blocks_ && next < 0; ++b)
            if (state_[b] == kReady) next = b;
        if (next >= 0) {
            state_[next] = kRunning;
            turn_ = next;
            cv_.notify_all();
        } else {
            for (int b = next_new_; b < blocks_ && next < 0; ++b)
                if (state_[b] == kNew) next = b;
            if (next >= 0) {
                next_new_ = next + 1;
                start(next);
                cv_.notify_all();
            } else {
                // blocks that handed over in DataCacheCleanAndInvalid go on once no new block is left to start
                bool yielded = false;
                for (int b = 0; b < blocks_; ++b)
                    if (state_[b] == kYielded) { state_[b] = kReady; yielded = true; }
                if (yielded) continue;
                int waiting = -1, done = -1;
                for (int b = 0; b < blocks_; ++b) {
                    if (state_[b] == kWaiting && waiting < 0) waiting = b;
                    if (state_[b] == kDone && done < 0) done = b;
                }
                if (waiting < 0) break;  // every block finished
                if (done >= 0) {
                    Report("syncall-mismatch", Op::SyncAll, wait_loc_[waiting])
                        .block(waiting)
                        .msg("block %d waits in SyncAll #%u, but block %d finished after only %u SyncAll calls: on the NPU "
                             "the waiting blocks hang",
                             waiting, epoch_[waiting], done, epoch_[done])
                        .val("waiting_block", waiting).val("finished_block", done)
                        .val("syncall_count", static_cast<int64_t>(epoch_[waiting]))
                        .hint("every block must call SyncAll the same number of times; keep SyncAll out of branches that "
                              "depend on GetBlockIdx()")
                        .fail();
                }
                for (int b = 0; b < blocks_; ++b)
                    if (state_[b] == kWaiting) state_[b] = kReady;
                g_launch->overlap.clear();
                ++g_launch->sync_epoch;
                continue;
            }
        }
        cv_.wait(lock, [&] { return turn_ == -1; });
    }
    lock.unlock();
    for (std::thread& t : threads_) if (t.joinable()) t.join();
    threads_.clear();
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
    if ((index + 1) * size > t.bytes)
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
    ++c.work_count[static_cast<uint8_t>(TPipe_::S)];   // count_work: record's execute-mode part
    c.work_bytes[static_cast<uint8_t>(TPipe_::S)] += size;
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
static void keep_set_range(const Core& c, const uint8_t* at, uint32_t size, const SrcLoc& loc) {
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
    }
    r.set_lo[0] = at;
    r.set_hi[0] = at + size;
    r.set_step[0] = size - 1;
    r.set_size[0] = size;
    r.set_file[0] = loc.file;
    r.set_line[0] = loc.line;
}
void local_write(const Local& t, uint64_t index, uint32_t size, const void* in, SrcLoc loc) {
    enter_inline(Op::SetValue, loc);
    Core& c = core();
    check_index_fast(c, t, index, size, Op::SetValue, loc);
    // the race check: a write with nothing to check is only recorded (RaceChecker::scalar_write_settled), as a RaceScope
    // would record it; otherwise the RaceScope (which does nothing where the check is off)
    RaceChecker* race = c.race.get();
    uint8_t* at = t.addr + index * size;
    const bool settled = race && (g_launch->mode != Mode::Trace || g_launch->auto_sync) && at >= race->ub() &&
                         race->scalar_write_settled(static_cast<uint64_t>(at - race->ub()), size, Op::SetValue, loc);
    if (!settled) RaceScope(TPipe_::S, Op::SetValue, loc).write(t.addr + index * size, size);
    if (tracing_now()) {
        record(TPipe_::S, TKind::INSTR, Op::SetValue, Dt::none, 0, loc, size, 1);
        return;
    }
    ++c.work_count[static_cast<uint8_t>(TPipe_::S)];   // count_work: record's execute-mode part
    c.work_bytes[static_cast<uint8_t>(TPipe_::S)] += size;
    copy_scalar(t.addr + index * size, in, size);
    mark_written_scalar(c, t, index, size);
    if (settled || !race) keep_set_range(c, at, size, loc);
}
void* local_ref(const Local& t, uint64_t index, uint32_t size, SrcLoc loc) {
    enter_inline(Op::GetValue, loc);
    check_index(t, index, size, Op::GetValue, loc);
    // operator() hands out a reference: checked as a scalar read (write through SetValue to have it checked as one)
    const RaceChecker* race = core().race.get();
    if (race && !race->scalar_read_settled()) RaceScope(TPipe_::S, Op::GetValue, loc).read(t.addr + index * size, size);
    record(TPipe_::S, TKind::INSTR, Op::GetValue, Dt::none, 0, loc, size, 1);
    mark_written(t, index * size, size);
    return t.addr + index * size;
}

// A scalar GM read is the hot call of kernels that loop over GM element by element (convolutions written with
// GetValue: 10^10 calls at a task's own shape, a GEMM 10^11). check_gm's only checks for a read inside an input buffer
// are the bounds; an output's read is tracked only when blocks run in parallel (another block may be writing it), and
// a buffer with deferred poison must see the poison. So the ranges with none of those (`plain`) are remembered per
// block (t_scalar_reads, reset by set_current_core), and a read inside one costs the bounds test, the work count and
// the copy: the same checks, made once. GlobalTensor::GetValue makes that test inline (gm_get, runtime.h); the loop
// below is the same test for the other callers.
static bool plain_read(const GmBuffer& b, const void* p, uint32_t size) {
    const uint8_t* a = static_cast<const uint8_t*>(p);
    const bool tracked = (b.role == Role::Out || b.role == Role::InOut || b.role == Role::Workspace) && g_launch->parallel;
    return !tracing_now() && !g_launch->cross && b.real && !b.alias && !tracked && a >= b.base && a + size <= b.base + b.bytes;
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
            ++c.work_count[static_cast<uint8_t>(TPipe_::S)];   // count_work, as record_gm does in execute mode
            c.work_bytes[static_cast<uint8_t>(TPipe_::S)] += size;
            copy_scalar(out, a, size);
            return;
        }
    }
    const GmBuffer& b = check_gm(p, size, false, Op::GetValue, loc);
    record_gm(TPipe_::S, Op::GetValue, Dt::none, 0, loc, size, 1, 1, size, GmPlace{&b, p, size});
    if (b.real) std::memcpy(out, gm_source(b, p), size);
    else std::memset(out, 0, size);
    if (plain_read(b, p, size) && b.bytes >= 8) {   // the latest found first; the oldest of four drops out
        std::memmove(r.lo + 1, r.lo, sizeof(r.lo[0]) * (ScalarReads::kSpans - 1));
        std::memmove(r.room + 1, r.room, sizeof(r.room[0]) * (ScalarReads::kSpans - 1));
        r.lo[0] = b.base;
        r.room[0] = b.bytes - 7;
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
    ++c.work_count[static_cast<uint8_t>(TPipe_::S)];   // record_gm in execute mode
    c.work_bytes[static_cast<uint8_t>(TPipe_::S)] += size;
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
        if (lo < 1 || lo > epr)
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
