// AscendCraft CPU emulation: the data-rearranging vector APIs public kernels use beyond the element-wise set:
// GatherMask (keep the elements a bit pattern selects, packed) and the BroadCast advanced API (a [m, 1] or
// [1, k] tensor stretched to [m, k]). Written from the public AscendC documentation; no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/rearrange.h"

namespace ascendcraft { namespace emu {

namespace {
// Built-in GatherMask patterns 1..7: is element i of a repeat kept?
bool builtin_keeps(uint8_t pattern, uint64_t i) {
    switch (pattern) {
    case 1: return i % 2 == 0;  // even elements
    case 2: return i % 2 == 1;  // odd elements
    case 3: case 4: case 5: case 6: return i % 4 == static_cast<uint64_t>(pattern - 3);  // one of every four
    default: return true;       // 7: every element
    }
}
}  // namespace

void vec_gather_mask(Dt dt, const Local& d, const Local& src0, const Local* pattern, uint8_t builtin, bool counter,
                     uint32_t mask, const GatherMaskGeometry& p, uint64_t* kept, SrcLoc loc) {
    const Op op = Op::GatherMask;
    enter(op, loc);
    const uint32_t es = dt_size(dt), epb = 32 / es, per_repeat = 256 / es;
    check_local(src0, op, loc, "src0", 32);
    check_local(d, op, loc, "dst", 32);
    if (pattern) check_local(*pattern, op, loc, "src1Pattern", 32);
    else if (builtin < 1 || builtin > 7)
        Report("bad-argument", op, loc)
            .msg("GatherMask: built-in pattern %u does not exist; Ascend 910B (A2) has patterns 1 to 7", builtin)
            .val("pattern", builtin)
            .hint("1/2: even/odd elements, 3..6: one of every four elements (first..fourth), 7: all; or pass a "
                  "pattern tensor (uint16_t bits for 2-byte elements, uint32_t for 4-byte)").fail();
    if (counter && mask == 0)
        Report("bad-argument", op, loc)
            .msg("GatherMask in counter mode (reduceMode = true) with mask 0: mask is the number of elements each "
                 "repeat handles, from 1 to 2^32 - 1")
            .hint("pass the element count as mask, or reduceMode = false (then each repeat handles 256 bytes)").fail();
    const uint32_t repeats = p.repeatTimes;
    const uint64_t n = counter ? mask : per_repeat;  // elements one repeat handles
    const uint32_t blk = p.src0BlockStride;
    auto src_offset = [&](uint32_t r, uint64_t i) {
        return static_cast<uint64_t>(r) * p.src0RepeatStride * 32 + (i / epb) * blk * 32 + (i % epb) * es;
    };
    auto pattern_bit_byte = [&](uint32_t r, uint64_t i) { return static_cast<uint64_t>(r) * p.src1RepeatStride * 32 + i / 8; };
    uint64_t src_end = 0, pat_end = 0;
    if (repeats && n) {
        src_end = src_offset(repeats - 1, n - 1) + es;
        for (uint32_t r = 0; r < repeats; ++r) src_end = std::max(src_end, src_offset(r, n - 1) + es);
        if (pattern)
            for (uint32_t r = 0; r < repeats; ++r) pat_end = std::max(pat_end, pattern_bit_byte(r, n - 1) + 1);
    }
    check_extent(src0, src_end, op, loc, "src0");
    if (pattern) check_extent(*pattern, pat_end, op, loc, "src1Pattern");
    // Which elements are kept: known from a built-in pattern; a pattern tensor's bits are data the trace lacks, so
    // a trace counts every element as kept (the most dst can receive).
    uint64_t count = 0;
    std::vector<uint64_t> picks;  // src0 byte offsets, in dst order
    const bool know = !pattern || !tracing_now();
    if (pattern && !tracing_now()) check_initialised(*pattern, 0, pat_end, op, loc, "src1Pattern");
    for (uint32_t r = 0; r < repeats; ++r)
        for (uint64_t i = 0; i < n; ++i) {
            bool keep = true;
            if (pattern && know) keep = (pattern->addr[pattern_bit_byte(r, i)] >> (i % 8)) & 1u;
            else if (!pattern) keep = builtin_keeps(builtin, i);
            if (keep) { picks.push_back(src_offset(r, i)); ++count; }
        }
    check_extent(d, count * es, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        for (uint32_t r = 0; r < repeats; ++r)
            for (uint64_t i = 0; i < n; i += epb) race.read(src0.addr + src_offset(r, i), std::min<uint64_t>(epb, n - i) * es);
        if (pattern) race.read(pattern->addr, pat_end);
        race.write(d.addr, count * es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, counter ? 0 : kFlagLevel0, loc, static_cast<uint64_t>(repeats) * n * es + count * es,
           static_cast<uint64_t>(repeats) * n, static_cast<uint32_t>(std::max<uint64_t>(1, (static_cast<uint64_t>(repeats) * n * es + 255) / 256)));
    core().counter_mode = false;  // the instruction leaves the mask in normal mode (the API reference says so)
    *kept = count;
    core().rsvd_cnt = count;
    if (tracing_now()) return;
    std::vector<uint8_t> out(count * es);  // gathered first: dst may overlap src0
    for (uint64_t k = 0; k < count; ++k) {
        check_initialised(src0, picks[k], es, op, loc, "src0");
        std::memcpy(out.data() + k * es, src0.addr + picks[k], es);
    }
    if (count) std::memcpy(d.addr, out.data(), out.size());
    mark_written(d, 0, count * es);
}

void vec_broadcast(Dt dt, const Local& d, const Local& a, const Local* tmp, int dim, int axis, const uint32_t* dstShape,
                   const uint32_t* srcShape, SrcLoc loc) {
    const Op op = Op::BroadCast;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    check_local(a, op, loc, "src", 32);
    check_local(d, op, loc, "dst", 32);
    const uint32_t m = dim == 2 ? dstShape[0] : 1, k = dim == 2 ? dstShape[1] : dstShape[0];
    const uint32_t sm = dim == 2 ? srcShape[0] : 1, sk = dim == 2 ? srcShape[1] : srcShape[0];
    // dim 1: [1] -> [k]; dim 2, axis 0: [1, k] -> [m, k]; dim 2, axis 1: [m, 1] -> [m, k]
    const bool shapes_ok = dim == 1 ? (sk == 1 || sk == k)
                         : axis == 0 ? (sm == 1 || sm == m) && sk == k
                                     : (sk == 1 || sk == k) && sm == m;
    if (!shapes_ok)
        Report("bad-argument", op, loc)
            .msg("BroadCast<dim=%d, axis=%d>: srcShape {%u%s%u} does not broadcast to dstShape {%u%s%u} along axis %d",
                 dim, axis, dim == 2 ? sm : sk, dim == 2 ? ", " : "", dim == 2 ? sk : 0u, dim == 2 ? m : k,
                 dim == 2 ? ", " : "", dim == 2 ? k : 0u, axis)
            .hint("the source has 1 on the broadcast axis and the destination's size on the other axis").fail();
    if (dim == 2 && axis == 0 && (static_cast<uint64_t>(k) * es) % 32 != 0)
        Report("bad-argument", op, loc)
            .msg("BroadCast<dim=2, axis=0>: srcShape[1] = %u elements is %llu bytes, not a multiple of 32", k,
                 static_cast<unsigned long long>(static_cast<uint64_t>(k) * es))
            .hint("on Ascend 910B (A2) the row being copied must be 32-byte aligned: pad the last axis").fail();
    const uint64_t src_bytes = static_cast<uint64_t>(sm) * sk * es, dst_bytes = static_cast<uint64_t>(m) * k * es;
    check_extent(a, src_bytes, op, loc, "src");
    check_extent(d, dst_bytes, op, loc, "dst");
    if (ub_overlap(d, dst_bytes, a, src_bytes)) {
        // In place with the same start, broadcasting rows ([1, k] -> [m, k]): row 0 of dst is the source row, so the
        // copies are right whatever the order. The API reference forbids any overlap: a warning for that case.
        if (d.addr == a.addr && (dim == 1 || axis == 0)) {
            if (first_report_at("adv-in-place", loc))
                Report("adv-in-place", op, loc)
                    .msg("BroadCast with dst the same tensor as src: the API reference does not allow it; here the source "
                         "is the first row of dst, so its copies are the same whatever the order, and the emulator "
                         "computes it")
                    .hint("broadcast into a different buffer to keep to the documented contract").warn();
        } else
            Report("adv-overlap", op, loc).msg("BroadCast: dst and src overlap; this API does not allow it")
                .hint("broadcast into a different buffer").fail();
    }
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        if (ub_overlap(*tmp, tmp->bytes, d, dst_bytes) || ub_overlap(*tmp, tmp->bytes, a, src_bytes))
            Report("adv-overlap", op, loc).msg("BroadCast: sharedTmpBuffer overlaps dst or src")
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(a.addr, src_bytes);
        race.write(d.addr, dst_bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, src_bytes + dst_bytes, static_cast<uint64_t>(m) * k,
           static_cast<uint32_t>((dst_bytes + 255) / 256));
    if (tracing_now()) return;
    check_initialised(a, 0, src_bytes, op, loc, "src");
    std::vector<uint8_t> s(a.addr, a.addr + src_bytes);  // copied first: in place, dst's first row is the source
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < k; ++j) {
            const uint32_t si = sm == 1 ? 0 : i, sj = sk == 1 ? 0 : j;
            std::memcpy(d.addr + (static_cast<uint64_t>(i) * k + j) * es, s.data() + (static_cast<uint64_t>(si) * sk + sj) * es, es);
        }
    mark_written(d, 0, dst_bytes);
}

void vec_trans_5hd(Dt dt, const uint64_t* dst, const uint64_t* src, bool dstHighHalf, bool srcHighHalf, uint32_t repeats,
                   uint32_t dstRepStride, uint32_t srcRepStride, SrcLoc loc) {
    const Op op = Op::TransDataTo5HD;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    Core& c = core();
    const uint32_t ub = g_launch->ub_bytes;
    // A block address: inside this core's UB, 32-byte aligned, the whole block in UB.
    auto block = [&](const uint64_t* list, int i, uint32_t r, uint32_t stride, const char* role) -> uint8_t* {
        const uint64_t moves = repeats == 1 ? 1 : r;  // repeatTimes 1 moves the addresses by the stride once
        uint8_t* p = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(list[i])) + moves * stride * 32;
        if (p < c.ub || p + 32 > c.ub + ub)
            Report("ub-out-of-range", op, loc)
                .msg("TransDataTo5HD: %s address %d (repeat %u) is not a block of this core's Unified Buffer", role, i, r)
                .val("index", i).val("repeat", r)
                .hint("the lists hold UB addresses: LocalTensor::GetPhyAddr() of 32-byte aligned tensors").fail();
        if (ub_offset(p) % 32)
            Report("ub-misaligned", op, loc)
                .msg("TransDataTo5HD: %s address %d is UB offset %u, not a multiple of 32", role, i, ub_offset(p))
                .val("index", i).val("ub_offset", ub_offset(p))
                .hint("each address starts a 32-byte block").fail();
        return p;
    };
    auto local = [](uint8_t* p) { Local l; l.addr = p; l.bytes = l.cap = 32; return l; };
    for (uint32_t r = 0; r < repeats; ++r) {
        uint8_t* s[16];
        uint8_t* d[16];
        for (int i = 0; i < 16; ++i) { s[i] = block(src, i, r, srcRepStride, "source"); d[i] = block(dst, i, r, dstRepStride, "destination"); }
        if (RaceScope race{TPipe_::V, op, loc}) {
            for (int i = 0; i < 16; ++i) race.read(s[i] + (es == 1 && srcHighHalf ? 16 : 0), es == 1 ? 16 : 32);
            for (int i = 0; i < 16; ++i) race.write(d[i] + (es == 1 && dstHighHalf ? 16 : 0), es == 1 ? 16 : 32);
        }
        record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, 2 * 512, 512 / es, 1);
        if (tracing_now()) continue;
        uint8_t in[16][32];
        for (int i = 0; i < 16; ++i) {
            check_initialised(local(s[i]), es == 1 && srcHighHalf ? 16 : 0, es == 1 ? 16 : 32, op, loc, "source");
            std::memcpy(in[i], s[i], 32);  // all read first: sources and destinations may be the same blocks
        }
        for (int i = 0; i < 16; ++i)
            if (es == 2)
                for (int k = 0; k < 16; ++k) std::memcpy(d[k] + i * 2, in[i] + k * 2, 2);
            else if (es == 4)
                for (int k = 0; k < 8; ++k) std::memcpy(d[2 * k + i / 8] + (i % 8) * 4, in[i] + k * 4, 4);
            else
                for (int k = 0; k < 16; ++k) d[k][(dstHighHalf ? 16 : 0) + i] = in[i][(srcHighHalf ? 16 : 0) + k];
        for (int k = 0; k < 16; ++k) mark_written(local(d[k]), es == 1 && dstHighHalf ? 16 : 0, es == 1 ? 16 : 32);
    }
}

int64_t gather_mask_rsvd_cnt() { return static_cast<int64_t>(core().rsvd_cnt); }

}}  // namespace ascendcraft::emu
