// AscendCraft CPU emulation runtime: the pattern reductions (reduce_pattern.h). The trace charges a pass over the
// source for each halving of the reduced axis (log2 of its length) plus the last block or column fold. Written from
// the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/reduce_pattern.h"
#include "ascendcraft_emu/reduce_pattern_tmp.h"

namespace ascendcraft { namespace emu {

namespace {
AscendC::reduce_tmp_detail::Family family(Op op, Dt dt) {
    if (op == Op::ReduceSum || op == Op::ReduceMean) return AscendC::reduce_tmp_detail::SUM_MEAN;
    if (op == Op::ReduceProd) return AscendC::reduce_tmp_detail::PROD;
    if ((op == Op::ReduceAny || op == Op::ReduceAll) && dt == Dt::u8) return AscendC::reduce_tmp_detail::ANY_ALL_U8;
    return AscendC::reduce_tmp_detail::COMMON;
}
void store(Dt dt, uint8_t* p, double v) {
    if (dt == Dt::f16) { const half h = static_cast<half>(static_cast<float>(v)); std::memcpy(p, &h, 2); }
    else if (dt == Dt::f32) { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
    else *p = static_cast<uint8_t>(v);
}
}  // namespace

void adv_pattern_reduce(Op op, Dt dt, const Local& dst, const Local& src, const Local* tmp, uint32_t first, uint32_t last,
                        bool ra, bool srcInnerPad, bool reuse, SrcLoc loc) {
    enter(op, loc);
    const char* name = op_name(op);
    const uint32_t es = dt_size(dt), perBlock = 32 / es;
    const char* pat = ra ? "RA" : "AR";
    const char* hint = "srcShape = {first, last}: both positive; srcTensor holds first rows of last rounded up to a 32-byte "
                       "block (srcInnerPad = true); dstTensor holds first results (AR) or last results (RA)";
    auto bad = [&](const char* kind, const std::string& what) {
        Report(kind, op, loc).msg("%s<%s>: %s", name, pat, what.c_str()).val("first", first).val("last", last)
            .hint("%s", hint).fail();
    };
    if (first == 0 || last == 0) bad("adv-shape", fmt("srcShape {%u, %u} has an empty axis", first, last));
    if (!srcInnerPad) bad("adv-shape", "srcInnerPad must be true on A2 (each row of the source padded to a 32-byte block)");
    const uint32_t padLast = (last + perBlock - 1) / perBlock * perBlock;
    const uint64_t srcBytes = uint64_t(first) * padLast * es, dstCount = ra ? last : first, dstBytes = dstCount * es;
    if (srcBytes > src.bytes)
        bad("adv-size", fmt("srcTensor holds %u elements, fewer than first * padded last = %u * %u", src.bytes / es, first, padLast));
    if (dstBytes > dst.bytes)
        bad("adv-size", fmt("dstTensor holds %u elements, fewer than the %llu results", dst.bytes / es,
                            static_cast<unsigned long long>(dstCount)));
    check_local(src, op, loc, "srcTensor", 32);
    check_local(dst, op, loc, "dstTensor", 32);
    if (ub_overlap(dst, dstBytes, src, srcBytes))
        Report("adv-overlap", op, loc).msg("%s: dstTensor and srcTensor overlap; this API does not allow it", name)
            .hint("write the result to a different buffer").fail();
    const uint32_t need = AscendC::reduce_tmp_detail::min_bytes(family(op, dt), ra, first, last, es, reuse);
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        if (tmp->bytes < need)
            Report("adv-tmp-space", op, loc)
                .msg("%s<%s> on %s {%u, %u}: sharedTmpBuffer holds %u bytes, less than the %u bytes the API needs", name, pat,
                     dt_name(dt), first, last, tmp->bytes, need)
                .val("tmp_bytes", tmp->bytes).val("min_bytes", need)
                .hint("size the buffer with the host's Get%sMaxMinTmpSize", name).fail();
        if (ub_overlap(*tmp, tmp->bytes, src, srcBytes) || ub_overlap(*tmp, tmp->bytes, dst, dstBytes))
            Report("adv-overlap", op, loc).msg("%s: sharedTmpBuffer overlaps srcTensor or dstTensor", name)
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    } else if (need) {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < need)
            Report("adv-tmp-space", op, loc)
                .msg("%s without a sharedTmpBuffer needs %u bytes of free UB for its temporaries, but InitBuffer "
                     "allocations use %u of the %u bytes", name, need, used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side Get%sMaxMinTmpSize gives the size)", name).fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, srcBytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(dst.addr, dstBytes);
    }
    const uint32_t reduced = ra ? first : last, halvings = static_cast<uint32_t>(std::ceil(std::log2(std::max(reduced, 2u))));
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, srcBytes + dstBytes, uint64_t(first) * last,
           static_cast<uint32_t>(std::min<uint64_t>((halvings + 1) * ((srcBytes + 255) / 256), 0xffffffffu)));
    if (tracing_now()) return;
    for (uint32_t r = 0; r < first; ++r) check_initialised(src, uint64_t(r) * padLast * es, uint64_t(last) * es, op, loc, "srcTensor");
    const uint32_t outer = ra ? last : first, inner = ra ? first : last;
    for (uint32_t o = 0; o < outer; ++o) {
        auto at = [&](uint32_t i) {   // the i-th reduced element of output o
            const uint64_t idx = ra ? uint64_t(i) * padLast + o : uint64_t(o) * padLast + i;
            return src.addr + idx * es;
        };
        double acc = load_d(dt, at(0));
        uint32_t bits = *at(0);
        for (uint32_t i = 1; i < inner; ++i) {
            const double x = load_d(dt, at(i));
            switch (op) {
            case Op::ReduceSum: case Op::ReduceMean: acc += x; break;
            case Op::ReduceProd: acc *= x; break;
            case Op::ReduceMax: case Op::ReduceAny: acc = std::max(acc, x); break;
            default: acc = std::min(acc, x); break;      // ReduceMin, ReduceAll
            }
            if (dt == Dt::u8) bits = op == Op::ReduceAny ? (bits | *at(i)) : (bits & *at(i));
        }
        if (op == Op::ReduceMean) acc *= static_cast<double>(1.0f / static_cast<float>(inner));
        if (dt == Dt::u8 && ra) acc = bits;      // uint8_t down the columns: bitwise or / and
        store(dt, dst.addr + uint64_t(o) * es, acc);
    }
    mark_written(dst, 0, dstBytes);
    if (tmp) mark_written(*tmp, 0, std::min<uint64_t>(tmp->bytes, need));
}

}}  // namespace ascendcraft::emu
