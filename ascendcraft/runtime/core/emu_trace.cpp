// AscendCraft CPU emulation runtime: trace mode's records: the record cap, the per-pipe work counts, the trace files and the repeated-block templates.
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
    if (pipe == TPipe_::MTE2 || (pipe == TPipe_::S && op == Op::GetValue)) {   // a GM read: another core's writes?
        const uint64_t stride = bursts > 1 ? at.stride : burst_bytes;
        if (!g_launch->cross) block_gm_read(at.address, bursts, burst_bytes, stride, op, loc);   // emu_gm_read_race.cpp
        else if (op != Op::Matmul) cross_gm_read(at.address, bursts, burst_bytes, stride, op, loc);  // emu_sync_cross.cpp
    }
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

}}  // namespace ascendcraft::emu
