// AscendCraft CPU emulation runtime: the Unified Buffer's checks: the room InitBuffer left, a LocalTensor's alignment and extent, initialised reads (the written-byte bitmap).
// Split out of emu_core.cpp; written from the public AscendC documentation, no vendor code.
#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <cstddef>
#include <sys/mman.h>
#include <unistd.h>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/cube_internal.h"

namespace ascendcraft { namespace emu {

// ---- UB memory ---------------------------------------------------------------------------------------
// Where a block's UB lives in the host's address space, and what lies around it.
//
// Kernels keep UB addresses in 32 bits (hicann ops-math arg_max_with_value: `static_cast<uint32_t>(t.GetPhyAddr())` as
// vgather's source address; vsel mode 2's selMask address in the compare-mask register) and also write UB addresses as
// small numbers (`(__ubuf__ T*)TMP_UB_OFFSET`). ub_raw_view and ub_numbered_place (emu_devkit.cpp) read a number below
// ub_bytes as an offset in the UB and another below 2^32 as the low 32 bits of a host address in the UB. The two
// readings must never meet, and the second must not depend on where the host's address-space randomisation put the
// memory, or a kernel's answer changes from run to run. So every block's UB starts at a host address whose low 32 bits
// are kUbLow32: a UB address kept in 32 bits is kUbLow32 + its offset, in every run, and never below ub_bytes. (Before,
// the UB came from posix_memalign in a thread's malloc arena, aligned to 64 MiB: in about one run of 64 its low 32 bits
// were below 2^26, a kept address fell below ub_bytes, was read as an offset, and arg_max_with_value gathered the
// poison instead of its chunk indices.)
//
// Each block's UB is also mapped between two inaccessible pages, so that the kernel's scalar code, which reads and
// writes UB through plain `__ubuf__` pointers (laser_attention's `(diag + shift)[i] = vec[i]`; emu.numbered_ub_casts),
// stops at the first byte before or past this core's UB with a SIGSEGV that the crash handler names (ub_guard_offset)
// instead of reading a neighbour's memory. Every block of a process has the same UB size (the launch's ub_bytes).
namespace {
constexpr uint64_t kUbLow32 = 0x40000000;   // 1 GiB: above any UB size, and a UB of up to 1 GiB ends below 2^32
constexpr uint64_t kUbFirstHigh = 0x2000;   // the first slot at 32 TiB: above the heap and a sanitizer's shadow,
constexpr uint32_t kUbSlots = 0x1000;       // below the device addresses of acl.h (48 TiB); one slot per 4 GiB

size_t page_bytes() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
}  // namespace

static size_t ub_mapped_room(uint32_t bytes) {
    const size_t page = page_bytes();
    return (static_cast<size_t>(bytes ? bytes : 32) + page - 1) / page * page;
}

uint8_t* ub_allocate(uint32_t bytes, uint32_t& next_slot) {
    if (bytes > kUbLow32) {
        fprintf(stderr, "ascendcraft emulator: a UB of %u bytes is larger than the emulator places (%llu bytes)\n", bytes,
                static_cast<unsigned long long>(kUbLow32));
        return nullptr;
    }
    const size_t page = page_bytes(), room = ub_mapped_room(bytes), len = room + 2 * page;
    for (uint32_t tries = 0; tries < kUbSlots; ++tries) {   // a slot in use (something else mapped there): the next one
        const uint64_t slot = next_slot++ % kUbSlots;
        uint8_t* ub = reinterpret_cast<uint8_t*>(((kUbFirstHigh + slot) << 32) | kUbLow32);
        void* want = ub - page;                              // the guard page before it
        void* m = mmap(want, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m == MAP_FAILED) continue;
        if (m != want) {                                     // a kernel older than MAP_FIXED_NOREPLACE took it as a hint
            munmap(m, len);
            continue;
        }
        if (mprotect(want, page, PROT_NONE) != 0 || mprotect(ub + room, page, PROT_NONE) != 0) {
            munmap(m, len);
            return nullptr;
        }
        return ub;
    }
    fprintf(stderr, "ascendcraft emulator: cannot map %u bytes of UB at an address whose low 32 bits are 0x%llx\n", bytes,
            static_cast<unsigned long long>(kUbLow32));
    return nullptr;
}

void ub_release(uint8_t* ub, uint32_t bytes) {
    if (!ub) return;
    const size_t page = page_bytes();
    munmap(ub - page, ub_mapped_room(bytes) + 2 * page);
}

bool ub_guard_offset(const Core* c, uint32_t bytes, uintptr_t addr, int64_t* offset) {
    if (!c || !c->ub) return false;
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE)), lo = reinterpret_cast<uintptr_t>(c->ub);
    if (addr + page < lo || addr >= lo + ub_mapped_room(bytes) + page) return false;
    *offset = static_cast<int64_t>(addr - lo);
    return addr < lo || addr >= lo + bytes;
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
    // Power with dst the base tensor (half / float; vec_math keeps the other in-place forms errors): element-wise too,
    // but A2's float form then returns |x|^y (vec_math says why), which the message names.
    const bool in_place_op = op == Op::Tanh || op == Op::Sigmoid || op == Op::Log || op == Op::Log2 || op == Op::Log10 ||
                             op == Op::Floor || op == Op::Ceil || op == Op::Trunc || op == Op::Power;
    const bool in_place_ok = in_place_op && !b && d.addr == a.addr;
    const bool reuse_allowed = (op == Op::Gelu || op == Op::FasterGelu || op == Op::FasterGeluV2) && !b && d.addr == a.addr;
    if (reuse_allowed) {
    } else if (in_place_ok) {
        if (first_report_at("adv-in-place", loc))
            Report("adv-in-place", op, loc)
                .msg("%s with dst the same tensor as src: the API reference does not allow it (AscendC's CPU debug "
                     "check stops here); %s", op_name(op),
                     op == Op::Power ? "on A2 the float form returns |x|^y there (no sign, no NaN for a negative base), "
                                       "and so does the emulator"
                                     : "on A2 the NPU computes it correctly, and so does the emulator")
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

namespace {
// check_local's reports, out of line: a vector call checks two or three operands, and the reports' frames made each
// check cost more than its two comparisons
[[gnu::noinline, gnu::cold]] void local_refused(const Local& t, Op op, const SrcLoc& loc, const char* role, uint32_t align) {
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
}  // namespace

void check_local(const Local& t, Op op, const SrcLoc& loc, const char* role, uint32_t align) {
    const Core& c = core();
    const bool inside = t.addr && t.addr >= c.ub && t.addr <= c.ub + g_launch->ub_bytes;
    const uint32_t off = inside ? static_cast<uint32_t>(t.addr - c.ub) : 0;
    // align is 32 at nearly every call: a mask then, not a division
    const bool aligned = align <= 1 || ((align & (align - 1)) == 0 ? (off & (align - 1)) == 0 : off % align == 0);
    if (inside && aligned) return;
    local_refused(t, op, loc, role, align);
}

// An operand past its LocalTensor's end but inside the buffer the tensor came from (InitBuffer's length rounded up to
// 32 bytes, as AscendC rounds it): on the NPU an instruction reads and writes UB addresses, not tensors, so this touches
// no other buffer's data and the kernel runs as the NPU runs it (a slice of the same buffer it overwrites is then wrong
// in the emulator as on the NPU). The API reference bounds operands by their tensor, and CANN's CPU-debug build stops
// there: a warning, once per place. NPUKernelBench's Arange answer, which passed on the 910B, casts 8 floats into
// Get<float>(0) of its 32-byte TBuf. Past the buffer it stays an error.
// Past the buffer, inside UB (run option ub_overrun "warning", run_project's default for CANN's kernels): TPipe lays
// UB out as AscendC's does (kernel_tpipe_impl.h's InitBuffer: one cursor per physical memory, starting at UB offset 0
// after TPipe's ResetPool, every buffer of every InitBuffer call in call order, each length rounded up to 32 bytes,
// VECIN, VECOUT and VECCALC queues and TBufs alike from the same cursor; queue_make here), so the bytes past a buffer
// are the next InitBuffer's, as on the chip. The NPU's vector unit and MTE address UB, not tensors: a kernel that
// spills into a neighbour whose bytes it does not need (or rewrites later) passed on the 910B. The access is carried
// out on the emulated UB (a write changes the neighbour, a read gets its bytes; unwritten bytes there are a
// ub-uninitialised note as anywhere), the race checker sees the UB addresses it touches. Past UB's end: an error.
namespace {
// The buffer that holds UB offset `at`: "buffer i of n that InitBuffer at file:line made (UB a..b)", or a phrase for
// UB no live buffer holds. The latest queue first: a later TPipe's or TBufPool's buffer is what lives there now.
std::string ub_owner(uint32_t at) {
    const Core& c = core();
    char text[512];
    for (size_t k = c.queues.size(); k-- > 0;) {
        const Queue& q = c.queues[k];
        const uint64_t n = q.slots.size();
        if (!q.live || q.region || q.beyond_ub || q.len == 0 || at < q.base || at >= q.base + q.len * n) continue;
        const uint32_t i = (at - q.base) / q.len, lo = q.base + i * q.len;
        const char* f = q.init_loc.file ? q.init_loc.file : "?";
        const char* slash = std::strrchr(f, '/');
        snprintf(text, sizeof text, "%s %u of %llu that InitBuffer at %s:%d made (UB %u..%u)", q.is_buf ? "the TBuf, buffer" : "buffer",
                 i, static_cast<unsigned long long>(n), slash ? slash + 1 : f, q.init_loc.line, lo, lo + q.len);
        return text;
    }
    return "UB no live InitBuffer buffer holds";
}
}  // namespace

bool ub_overrun(const Local& t, uint64_t end, Op op, const SrcLoc& loc, const char* role) {
    if (!g_launch->ub_overrun_warn) return false;
    const Core& c = core();
    if (!t.addr || t.addr < c.ub || t.addr > c.ub + g_launch->ub_bytes) return false;
    const uint64_t off = ub_offset(t.addr);
    if (off + end > g_launch->ub_bytes) return false;   // past the end of UB: the caller's error
    if (!first_report_at("ub-overrun", loc)) return true;
    const uint64_t lo = off + t.cap, hi = off + end;    // the bytes past the buffer
    std::string first = ub_owner(static_cast<uint32_t>(lo)), last = ub_owner(static_cast<uint32_t>(hi - 1));
    std::string lands = first == last ? first : first + " through " + last;
    Report("ub-out-of-range", op, loc)
        .msg("%s: the %s operand reaches %llu bytes into its LocalTensor (UB %llu..%llu), past the %u bytes left in the "
             "buffer it came from; UB %llu..%llu is %s. The NPU reads or writes those UB bytes, and so does the emulator "
             "(run option ub_overrun=\"warning\")", op_name(op), role, static_cast<unsigned long long>(end),
             static_cast<unsigned long long>(off), static_cast<unsigned long long>(hi), t.cap,
             static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), lands.c_str())
        .val("operand", role).val("bytes_needed", static_cast<int64_t>(end)).val("tensor_bytes", t.bytes)
        .val("ub_offset", static_cast<int64_t>(off)).val("overrun_lo", static_cast<int64_t>(lo))
        .val("overrun_hi", static_cast<int64_t>(hi)).val("lands_in", lands.c_str())
        .hint("the result is right only if the bytes there are not needed (or are written again later); lower the count "
              "or give the tensor a buffer large enough in InitBuffer")
        .warn();
    return true;
}

namespace {
[[gnu::noinline, gnu::cold]] void extent_beyond(const Local& t, uint64_t end, Op op, const SrcLoc& loc, const char* role) {
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
    if (ub_overrun(t, end, op, loc, role)) return;
    Report("ub-out-of-range", op, loc)
        .msg("%s: the %s operand reaches %llu bytes into its LocalTensor, which holds only %u bytes", op_name(op), role,
             static_cast<unsigned long long>(end), t.bytes)
        .val("operand", role).val("bytes_needed", static_cast<int64_t>(end)).val("tensor_bytes", t.bytes)
        .val("ub_offset", ub_offset(t.addr))
        .hint("lower the count (or repeatTime/strides), or give the tensor a larger buffer in InitBuffer")
        .fail();
}
}  // namespace

void check_extent(const Local& t, uint64_t end, Op op, const SrcLoc& loc, const char* role) {
    if (end > t.bytes) extent_beyond(t, end, op, loc, role);   // the reports out of line, as check_local's
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

// check_initialised's report, out of line as check_local's
namespace {
[[gnu::noinline, gnu::cold]] void uninitialised_read(const Local& t, uint32_t at, Op op, const SrcLoc& loc, const char* role) {
    if (g_launch->uninit_reported.exchange(true)) return;
    Report("ub-uninitialised", op, loc)
        .msg("%s reads UB that nothing has written yet: the %s operand, byte %u of the tensor (UB offset %u)", op_name(op), role,
             at - ub_offset(t.addr), at)
        .val("operand", role).val("ub_offset", at)
        .hint("a hint, not an error: if the output changes with the poison pattern, this read is why")
        .note();
}
}  // namespace

void check_initialised(const Local& t, uint64_t offset, uint64_t len, Op op, const SrcLoc& loc, const char* role) {
    if (tracing_now() || len == 0 || g_launch->uninit_reported.load(std::memory_order_relaxed)) return;
    Core& c = core();
    uint32_t start = ub_offset(t.addr) + static_cast<uint32_t>(offset);
    if (start >= c.written_bytes) return;
    const uint64_t end = start + std::min<uint64_t>(len, c.written_bytes - start);
    uint64_t hole = first_clear_bit(c.written.data(), start, end);
    // bytes no API call wrote whose aligned 4-byte word no longer holds the poison were written by the kernel's scalar
    // code through a plain pointer into this UB (a numbered `__ubuf__` pointer, emu.numbered_ub_casts): written, and
    // recorded as such. By word, not byte: a float the scalar unit wrote may hold the poison's byte in one place.
    const auto scalar_written = [&](uint64_t at) {
        const uint64_t word = at & ~uint64_t{3};
        for (uint64_t b = word; b < word + 4 && b < c.written_bytes; ++b)
            if (c.ub[b] != g_launch->poison) return true;
        return false;
    };
    while (hole != end && scalar_written(hole)) {
        set_bits(c.written.data(), hole, hole + 1);
        hole = first_clear_bit(c.written.data(), hole + 1, end);
    }
    if (hole != end) uninitialised_read(t, static_cast<uint32_t>(hole), op, loc, role);
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

}}  // namespace ascendcraft::emu
