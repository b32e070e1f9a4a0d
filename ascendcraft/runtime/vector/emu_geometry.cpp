// AscendCraft CPU emulation runtime: the geometry of a vector instruction: the mask, repeats and strides it covers, and the bytes it reads and writes.
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

void lanes_to_bits(uint64_t n, uint64_t* bits) {
    bits[0] = n >= 64 ? ~0ull : (n ? (~0ull >> (64 - n)) : 0);
    bits[1] = n >= 128 ? ~0ull : (n > 64 ? (~0ull >> (128 - n)) : 0);
}


// Run option vector_mask "warning" (run_project's default, for CANN's kernels; `run`'s and the judge's is "error"): a
// mask outside its documented range is what A2 runs as its mask registers then hold. The API turns a continuous mask
// into the two mask registers (AscendCUtils::SetMask): 0 sets no bit, so the instruction writes no lane; a count past
// the lanes of a repeat (up to INT32_MAX) sets every lane's bit; a bit mask of zeros selects no lane. A kernel whose
// empty tail calls an instruction with mask 0 passed on the 910B (ops-transformer's rotary_position_embedding_grad).
// A warning once per place, naming the mask; true: the caller runs the instruction with those lanes.
bool mask_outside_range(Op op, const SrcLoc& loc, const char* what, const char* selects) {
    if (!g_launch->vector_mask_warn) return false;
    if (first_report_at("vector-mask", loc))
        Report("vector-mask", op, loc)
            .msg("%s: %s; A2's mask registers then select %s, and the emulator runs it so (run option "
                 "vector_mask=\"warning\")", op_name(op), what, selects)
            .val("lanes", selects)
            .hint("keep the mask inside its documented range; skip the call when no element is left")
            .warn();
    return true;
}

// A mask-side element type the API reference does not list for A2, which AscendC checks only in its CPU-debug build: the
// NPU build hands the tensor's address to the instruction whatever its type (runtime.h: mask_type_as_a2). Under run
// option vector_mask "warning" a `vector-mask` warning once per place, `a2` saying what the chip then does; otherwise
// the `unsupported` error as before.
void mask_type_as_a2(Op op, Dt dt, const char* supported, const char* a2, SrcLoc loc) {
    if (!g_launch->vector_mask_warn) unsupported_type(op, dt, supported, loc);
    if (first_report_at("vector-mask", loc))
        Report("vector-mask", op, loc)
            .msg("%s on %s, a type the API reference does not list for A2 (it takes %s); AscendC's NPU build %s, and the "
                 "emulator runs it so (run option vector_mask=\"warning\")", op_name(op), dt_name(dt), supported, a2)
            .val("dtype", dt_name(dt))
            .hint("use the documented type: ReinterpretCast the tensor to it")
            .warn();
}

// And / Or's count form on a type A2 does not list (runtime.h): the devkit's A2 code (read for behaviour) sets counter
// mode with `count` and runs the int16_t instruction on the reinterpreted addresses, whatever the element type; the API
// reference documents that for int32_t / uint32_t ("count twice the elements"). Callers then run it on int16_t lanes.
void bitwise_count_as_int16(Op op, Dt dt, int64_t count, const char* supported, SrcLoc loc) {
    if (dt == Dt::i32 || dt == Dt::u32) return;
    char a2[160];
    snprintf(a2, sizeof a2, "runs the int16_t instruction with count = %lld as its counter-mode mask: %lld int16_t lanes "
             "(%lld bytes)", static_cast<long long>(count), static_cast<long long>(count), static_cast<long long>(2 * count));
    mask_type_as_a2(op, dt, supported, a2, loc);
}

// A continuous mask `n` outside 1..epr under vector_mask "warning": warned (mask_outside_range) and `n` set to the lanes
// A2 then writes (0 stays 0: none; past the lanes: all of them); true when in range or so handled, false for the
// caller's error. `form` names the call's mask ("mask", "SetVectorMask<half>").
bool continuous_mask_as_a2(uint64_t& n, uint32_t epr, Op op, const SrcLoc& loc, const char* form) {
    if (n >= 1 && n <= epr) return true;
    if (n > INT32_MAX) return false;   // the API's int32 length is then negative: no rule to follow
    char what[160];
    snprintf(what, sizeof what, "%s = %llu lanes, outside a repeat's 1..%u", form, static_cast<unsigned long long>(n), epr);
    if (!mask_outside_range(op, loc, what, n ? "every lane of a repeat" : "no lane")) return false;
    n = std::min<uint64_t>(n, epr);
    return true;
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
        if (!g.bits[0] && !g.bits[1] && !mask_outside_range(op, loc, "the bit mask selects no lane (mask[0] and mask[1] are both 0)", "no lane"))
            Report("vector-mask", op, loc).msg("%s: the bit mask selects no lane (mask[0] and mask[1] are both 0)", op_name(op))
                .hint("set at least one bit of the mask").fail();
    } else {
        uint64_t n = lanes.mask[0];
        if (!continuous_mask_as_a2(n, epr, op, loc, "mask"))
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

}}  // namespace ascendcraft::emu
