// AscendCraft CPU emulation runtime: TopK (topk.h). A stable sort of each row (NaN first, then by value, ties in index
// order); the trace charges A2's passes: index generation, Sort32, the merge-sort rounds over the row (log4 of the
// 32-element blocks) and the GatherMask extraction (plus the negation passes when isLargest is false). Written from the
// public AscendC API reference; no vendor code.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/topk.h"

namespace ascendcraft { namespace emu {

void adv_topk(const TopKCall& c, SrcLoc loc) {
    const Op op = Op::TopK;
    enter(op, loc);
    const uint32_t es = dt_size(c.dt);
    const char* hint = "TopKInfo {outter, inner, n}: inner n rounded up to a multiple of 32 (Small mode: inner = 32; Normal: at "
                       "most 4096, 2048 for half without isInitIndex), 1 <= k <= n; the outputs hold outter rows of k rounded "
                       "up to 32 bytes (Small mode: k)";
    auto bad = [&](const std::string& what) {
        Report("adv-shape", op, loc).msg("TopK: %s", what.c_str()).val("k", c.k).val("n", c.n).hint("%s", hint).fail();
    };
    if (c.outter <= 0 || c.inner <= 0 || c.n <= 0) bad(fmt("TopKInfo {outter %d, inner %d, n %d} has an empty axis", c.outter, c.inner, c.n));
    if (c.inner % 32 != 0 || c.n > c.inner || c.inner - c.n >= 32)
        bad(fmt("inner = %d must be n = %d rounded up to a multiple of 32", c.inner, c.n));
    if (c.small && c.inner != 32) bad(fmt("the Small mode needs inner = 32, not %d", c.inner));
    if (c.small && c.has_finish) bad("isHasfinish = true in the Small mode; the API allows finish flags in the Normal mode only");
    if (!c.small && c.inner > 4096) bad(fmt("inner = %d exceeds the Normal mode's 4096", c.inner));
    if (c.dt == Dt::f16 && !c.src_index && c.inner > 2048) bad(fmt("half without isInitIndex allows inner up to 2048, not %d", c.inner));
    if (c.k < 1 || c.k > c.n) bad(fmt("k = %d must be in [1, n = %d]", c.k, c.n));
    const uint64_t rows = uint64_t(c.outter), inner = uint64_t(c.inner), k = uint64_t(c.k);
    const uint64_t kv = c.small ? k : (k * es + 31) / 32 * 32 / es, ki = c.small ? k : (k + 7) / 8 * 8;
    const uint64_t sbytes = rows * inner * es, vbytes = rows * kv * es, ibytes = rows * ki * 4;
    const uint64_t sib = c.small ? rows * inner * 4 : inner * 4, fbytes = rows;
    const struct { const Local* t; uint64_t bytes; const char* role; } ops[] = {
        {c.dst_value, vbytes, "dstValueLocal"}, {c.dst_index, ibytes, "dstIndexLocal"}, {c.src, sbytes, "srcLocal"},
        {c.src_index, sib, "srcIndexLocal"}, {c.finish, fbytes, "finishLocal"}};
    for (const auto& o : ops) {
        if (!o.t) continue;
        check_local(*o.t, op, loc, o.role, o.t == c.finish ? 1 : 32);
        check_extent(*o.t, o.bytes, op, loc, o.role);
    }
    if (ub_overlap(*c.dst_value, vbytes, *c.src, sbytes) || ub_overlap(*c.dst_index, ibytes, *c.src, sbytes))
        Report("adv-overlap", op, loc).msg("TopK: an output overlaps srcLocal; the API does not allow it")
            .hint("write the results to their own buffers").fail();
    if (c.tmp) {
        check_local(*c.tmp, op, loc, "tmpLocal", 32);
        for (const auto& o : ops)
            if (o.t && ub_overlap(*c.tmp, c.tmp->bytes, *o.t, o.bytes))
                Report("adv-overlap", op, loc).msg("TopK: tmpLocal overlaps %s", o.role)
                    .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    } else {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < 256)
            Report("adv-tmp-space", op, loc)
                .msg("TopK without a tmpLocal needs free UB for its temporaries, but InitBuffer allocations use %u of the %u bytes",
                     used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a tmpLocal, or leave UB free (the host-side GetTopKMaxMinTmpSize gives the size)").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(c.src->addr, sbytes);
        if (c.src_index) race.read(c.src_index->addr, sib);
        if (c.finish) race.read(c.finish->addr, fbytes);
        if (c.tmp) race.write(c.tmp->addr, c.tmp->bytes);
        race.write(c.dst_value->addr, vbytes);
        race.write(c.dst_index->addr, ibytes);
    }
    uint32_t merges = 0;
    for (uint64_t runs = (inner + 31) / 32; runs > 1; runs = (runs + 3) / 4) ++merges;
    const uint32_t passes = 3 + 2 * merges + (c.largest ? 0 : 2);   // index, Sort32, merges (proposals), gather, negate
    const uint64_t work = rows * inner * 8;                          // (value, index) proposals
    record(TPipe_::V, TKind::INSTR, op, c.dt, 0, loc, passes * work, rows * inner,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((work + 255) / 256), 0xffffffffu)));
    if (tracing_now()) return;
    std::vector<uint32_t> order(static_cast<size_t>(c.n));
    std::vector<double> v(static_cast<size_t>(c.n));
    for (uint64_t r = 0; r < rows; ++r) {
        check_initialised(*c.src, r * inner * es, uint64_t(c.n) * es, op, loc, "srcLocal");
        for (int32_t j = 0; j < c.n; ++j) v[j] = load_d(c.dt, c.src->addr + (r * inner + j) * es);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const bool na = std::isnan(v[a]), nb = std::isnan(v[b]);
            if (na || nb) return na && !nb;
            return c.largest ? v[a] > v[b] : v[a] < v[b];
        });
        const bool finished = c.finish && c.finish->addr[r] != 0;
        for (uint64_t j = 0; j < k; ++j) {
            const uint32_t at = order[j];
            std::memcpy(c.dst_value->addr + (r * kv + j) * es, c.src->addr + (r * inner + at) * es, es);
            int32_t idx = static_cast<int32_t>(at);
            if (c.src_index) {
                const uint64_t off = (c.small ? r * inner + at : at) * 4;
                check_initialised(*c.src_index, off, 4, op, loc, "srcIndexLocal");
                std::memcpy(&idx, c.src_index->addr + off, 4);
            }
            if (finished) idx = c.n;
            std::memcpy(c.dst_index->addr + (r * ki + j) * 4, &idx, 4);
        }
        mark_written(*c.dst_value, r * kv * es, k * es);
        mark_written(*c.dst_index, r * ki * 4, k * 4);
    }
    if (c.tmp) mark_written(*c.tmp, 0, c.tmp->bytes);
}

}}  // namespace ascendcraft::emu
