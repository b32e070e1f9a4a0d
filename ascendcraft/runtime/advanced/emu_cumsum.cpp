// AscendCraft CPU emulation runtime: CumSum (cumsum.h). The trace charges the passes of the A2 line-by-line method:
// along the rows one add per row (plus the casts for half); along a row two transposes and one add per column.
// Written from the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/cumsum.h"
#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

namespace cumsum_impl {
double round_to(Dt dt, double x) {
    return dt == Dt::f16 ? static_cast<double>(static_cast<float>(static_cast<half>(static_cast<float>(x))))
                         : static_cast<double>(static_cast<float>(x));
}
// The host's GetCumSumMaxMinTmpSize minimum.
uint32_t min_tmp(Dt dt, uint32_t outter, uint32_t inner, bool lastAxis) {
    const uint32_t ts = dt_size(dt);
    if (!lastAxis) return dt == Dt::f16 ? outter * inner * 4 : 0;
    return (dt == Dt::f16 ? inner * 16 * 2 : 0) + 16 * inner * ts * 2;
}
}  // namespace cumsum_impl

void adv_cumsum(Dt dt, const Local& dst, const Local* lastRow, const Local& src, const Local* tmp, uint32_t outter,
                uint32_t inner, bool lastAxis, SrcLoc loc) {
    const Op op = Op::CumSum;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const uint64_t n = uint64_t(outter) * inner, bytes = n * es;
    const char* hint = "CumSumInfo {outter, inner}: both positive, inner a whole number of 32-byte blocks, outter * inner "
                       "within srcTensor and dstTensor, and lastRowTensor at least inner elements (outputLastRow)";
    auto bad = [&](const std::string& what) {
        Report("adv-shape", op, loc).msg("CumSum: %s", what.c_str()).val("outter", outter).val("inner", inner).hint("%s", hint).fail();
    };
    if (outter == 0 || inner == 0) bad(fmt("CumSumInfo {outter %u, inner %u} has an empty axis", outter, inner));
    if (uint64_t(inner) * es % 32 != 0) bad(fmt("inner = %u elements is %llu bytes, not a multiple of 32", inner,
                                                static_cast<unsigned long long>(uint64_t(inner) * es)));
    if (bytes > src.bytes || bytes > dst.bytes)
        bad(fmt("outter * inner = %llu elements exceed srcTensor (%u) or dstTensor (%u)", static_cast<unsigned long long>(n),
                src.bytes / es, dst.bytes / es));
    if (lastRow && uint64_t(inner) * es > lastRow->bytes)
        bad(fmt("lastRowTensor holds %u elements, fewer than inner = %u", lastRow->bytes / es, inner));
    check_local(src, op, loc, "srcTensor", 32);
    check_local(dst, op, loc, "dstTensor", 32);
    if (lastRow) check_local(*lastRow, op, loc, "lastRowTensor", 32);
    const uint32_t need = cumsum_impl::min_tmp(dt, outter, inner, lastAxis);
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        if (tmp->bytes < need)
            Report("adv-tmp-space", op, loc)
                .msg("CumSum on %s [%u, %u]%s: sharedTmpBuffer holds %u bytes, less than the %u bytes the API needs at least",
                     dt_name(dt), outter, inner, lastAxis ? " along the last axis" : " along the first axis", tmp->bytes, need)
                .val("tmp_bytes", tmp->bytes).val("min_bytes", need)
                .hint("size the buffer with the host's GetCumSumMaxMinTmpSize (its minValue)").fail();
        if (ub_overlap(*tmp, tmp->bytes, src, bytes) || ub_overlap(*tmp, tmp->bytes, dst, bytes))
            Report("adv-overlap", op, loc).msg("CumSum: sharedTmpBuffer overlaps srcTensor or dstTensor")
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    } else if (need) {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < need)
            Report("adv-tmp-space", op, loc)
                .msg("CumSum without a sharedTmpBuffer needs %u bytes of free UB for its temporaries, but InitBuffer "
                     "allocations use %u of the %u bytes", need, used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side GetCumSumMaxMinTmpSize gives the size)").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, bytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(dst.addr, bytes);
        if (lastRow) race.write(lastRow->addr, uint64_t(inner) * es);
    }
    const uint32_t passes = lastAxis ? 4 : (dt == Dt::f16 ? 4 : 2);   // transposes / casts, the adds, the copy out
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, passes * bytes, n,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((bytes + 255) / 256) + (lastAxis ? inner : outter), 0xffffffffu)));
    if (tracing_now()) return;
    check_initialised(src, 0, bytes, op, loc, "srcTensor");
    std::vector<double> out(n);
    const Dt acc = (!lastAxis && dt == Dt::f16) ? Dt::f32 : dt;   // first axis, half: summed in float
    for (uint32_t r = 0; r < outter; ++r)
        for (uint32_t j = 0; j < inner; ++j) {
            const uint64_t i = uint64_t(r) * inner + j;
            const double x = load_d(dt, src.addr + i * es);
            const bool first = lastAxis ? j == 0 : r == 0;
            const double prev = first ? 0 : out[lastAxis ? i - 1 : i - inner];
            out[i] = first ? x : cumsum_impl::round_to(acc, prev + x);
        }
    for (uint64_t i = 0; i < n; ++i) {
        const double v = cumsum_impl::round_to(dt, out[i]);
        if (dt == Dt::f16) { const half h = static_cast<half>(static_cast<float>(v)); std::memcpy(dst.addr + i * es, &h, 2); }
        else { const float f = static_cast<float>(v); std::memcpy(dst.addr + i * es, &f, 4); }
    }
    mark_written(dst, 0, bytes);
    if (lastRow) {
        std::memmove(lastRow->addr, dst.addr + uint64_t(outter - 1) * inner * es, uint64_t(inner) * es);
        mark_written(*lastRow, 0, uint64_t(inner) * es);
    }
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

}}  // namespace ascendcraft::emu
