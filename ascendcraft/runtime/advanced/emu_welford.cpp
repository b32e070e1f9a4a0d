// AscendCraft CPU emulation runtime: WelfordUpdate and WelfordFinalize (welford.h). WelfordUpdate rounds each vector
// step to float (the subtraction, the scaled add, the product, the add); WelfordFinalize sums in double and rounds the
// two results to float. The trace charges the passes of the A2 method (update: cast, sub, muls, add, sub, mul, add;
// finalize: the weighted mean and variance terms and their reductions). Written from the public AscendC API reference;
// no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/welford.h"

namespace ascendcraft { namespace emu {

namespace welford_impl {
float f(double x) { return static_cast<float>(x); }
[[noreturn]] void shape_error(Op op, SrcLoc loc, const char* hint, const std::string& what) {
    Report("adv-shape", op, loc).msg("%s: %s", op_name(op), what.c_str()).hint("%s", hint).fail();
}
void check_tmp(Op op, SrcLoc loc, const Local* tmp, uint32_t need, const char* host) {
    if (!tmp) {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < need)
            Report("adv-tmp-space", op, loc)
                .msg("%s without a sharedTmpBuffer needs %u bytes of free UB for its temporaries, but InitBuffer "
                     "allocations use %u of the %u bytes", op_name(op), need, used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side %s gives the size)", host).fail();
        return;
    }
    check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
    if (tmp->bytes < need)
        Report("adv-tmp-space", op, loc)
            .msg("%s: sharedTmpBuffer holds %u bytes, less than the %u bytes the API needs at least", op_name(op), tmp->bytes, need)
            .val("tmp_bytes", tmp->bytes).val("min_bytes", need).hint("size the buffer with the host's %s (its minValue)", host)
            .fail();
}
}  // namespace welford_impl

void adv_welford_update(Dt dt, const Local& outMean, const Local& outVar, const Local& inMean, const Local& inVar,
                        const Local& x, const Local* tmp, uint32_t rn, uint32_t ab, uint32_t abCompute, float nRec,
                        bool inplace, bool reuseSource, SrcLoc loc) {
    const Op op = Op::WelfordUpdate;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const char* hint = "WelfordUpdateParam {rnLength 1, abLength a multiple of 32 / sizeof(T), 0 < abComputeLength <= "
                       "abLength, nRec = 1 / i for the i-th block}; every tensor holds rnLength * abLength elements";
    if (rn != 1) welford_impl::shape_error(op, loc, hint, fmt("rnLength is %u; A2 supports 1 only", rn));
    if (ab == 0 || ab % (32 / es) != 0)
        welford_impl::shape_error(op, loc, hint, fmt("abLength %u is not a positive multiple of %u (32 bytes of %s)", ab, 32 / es,
                                                     dt_name(dt)));
    if (abCompute == 0 || abCompute > ab)
        welford_impl::shape_error(op, loc, hint, fmt("abComputeLength %u must be in (0, abLength %u]", abCompute, ab));
    const uint64_t sbytes = uint64_t(ab) * 4, xbytes = uint64_t(ab) * es;
    const struct { const Local* t; uint64_t bytes; const char* role; } ops[] = {
        {&outMean, sbytes, "outputMean"}, {&outVar, sbytes, "outputVariance"}, {&inMean, sbytes, "inputMean"},
        {&inVar, sbytes, "inputVariance"}, {&x, xbytes, "inputX"}};
    for (const auto& o : ops) {
        check_local(*o.t, op, loc, o.role, 32);
        check_extent(*o.t, o.bytes, op, loc, o.role);
    }
    welford_impl::check_tmp(op, loc, tmp, dt == Dt::f16 ? 768 : (reuseSource ? 256 : 512), "GetWelfordUpdateMaxMinTmpSize");
    if (tmp)
        for (const auto& o : ops)
            if (ub_overlap(*tmp, tmp->bytes, *o.t, o.bytes))
                Report("adv-overlap", op, loc).msg("WelfordUpdate: sharedTmpBuffer overlaps %s", o.role)
                    .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    const uint64_t wbytes = uint64_t(inplace ? ab : abCompute) * 4;
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(x.addr, uint64_t(abCompute) * es);
        race.read(inMean.addr, wbytes);
        race.read(inVar.addr, wbytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(outMean.addr, wbytes);
        race.write(outVar.addr, wbytes);
    }
    const uint64_t cbytes = uint64_t(abCompute) * 4;
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, 7 * cbytes, abCompute, static_cast<uint32_t>(7 * ((cbytes + 255) / 256)));
    if (tracing_now()) return;
    check_initialised(x, 0, uint64_t(abCompute) * es, op, loc, "inputX");
    check_initialised(inMean, 0, wbytes, op, loc, "inputMean");
    check_initialised(inVar, 0, wbytes, op, loc, "inputVariance");
    std::vector<float> mean(inplace ? ab : abCompute), var(mean.size());
    for (uint32_t j = 0; j < mean.size(); ++j) {
        float mi, vi;
        std::memcpy(&mi, inMean.addr + j * 4, 4);
        std::memcpy(&vi, inVar.addr + j * 4, 4);
        if (j >= abCompute) { mean[j] = mi; var[j] = vi; continue; }    // isInplace: outside the computed range
        const float xv = static_cast<float>(load_d(dt, x.addr + uint64_t(j) * es));
        const float d = welford_impl::f(double(xv) - mi);
        const float mo = welford_impl::f(double(mi) + welford_impl::f(double(d) * nRec));
        mean[j] = mo;
        var[j] = welford_impl::f(double(vi) + welford_impl::f(double(d) * welford_impl::f(double(xv) - mo)));
    }
    std::memcpy(outMean.addr, mean.data(), mean.size() * 4);
    std::memcpy(outVar.addr, var.data(), var.size() * 4);
    mark_written(outMean, 0, mean.size() * 4);
    mark_written(outVar, 0, var.size() * 4);
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

void adv_welford_finalize(const Local& outMean, const Local& outVar, const Local& inMean, const Local& inVar,
                          const Local* counts, const Local* tmp, const WelfordFinalizeArgs& p, SrcLoc loc) {
    const Op op = Op::WelfordFinalize;
    enter(op, loc);
    const uint32_t ab = p.abLength;
    const char* hint = "WelfordFinalizePara: abLength a positive multiple of 8 (32 bytes of float), headCountLength + "
                       "tailCountLength = abLength, tailCount non-zero when tailCountLength is, abRec = 1 / abLength and "
                       "rRec = 1 / R (R the whole reduce length)";
    if (ab == 0 || ab % 8 != 0) welford_impl::shape_error(op, loc, hint, fmt("abLength %u is not a positive multiple of 8", ab));
    if (!counts && p.headCountLength + p.tailCountLength != ab)
        welford_impl::shape_error(op, loc, hint, fmt("headCountLength %u + tailCountLength %u must equal abLength %u",
                                                     p.headCountLength, p.tailCountLength, ab));
    if (!counts && p.tailCount == 0 && p.tailCountLength != 0)
        welford_impl::shape_error(op, loc, hint, fmt("tailCount is 0 but tailCountLength is %u; A2 does not allow it",
                                                     p.tailCountLength));
    const uint64_t sbytes = uint64_t(ab) * 4;
    const struct { const Local* t; uint64_t bytes; const char* role; } ops[] = {
        {&outMean, 4, "outputMean"}, {&outVar, 4, "outputVariance"}, {&inMean, sbytes, "inputMean"},
        {&inVar, sbytes, "inputVariance"}, {counts, sbytes, "counts"}};
    for (const auto& o : ops) {
        if (!o.t) continue;
        check_local(*o.t, op, loc, o.role, 32);
        check_extent(*o.t, o.bytes, op, loc, o.role);
    }
    welford_impl::check_tmp(op, loc, tmp, 64 * 4 * 4, "GetWelfordFinalizeMaxMinTmpSize");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(inMean.addr, sbytes);
        race.read(inVar.addr, sbytes);
        if (counts) race.read(counts->addr, sbytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(outMean.addr, 4);
        race.write(outVar.addr, 4);
    }
    record(TPipe_::V, TKind::INSTR, op, Dt::f32, 0, loc, 8 * sbytes, ab, static_cast<uint32_t>(8 * ((sbytes + 255) / 256)));
    if (tracing_now()) return;
    check_initialised(inMean, 0, sbytes, op, loc, "inputMean");
    check_initialised(inVar, 0, sbytes, op, loc, "inputVariance");
    if (counts) check_initialised(*counts, 0, sbytes, op, loc, "counts");
    const bool noTail = !counts && (p.tailCountLength == 0 || p.tailCount == 0);
    auto count = [&](uint32_t j) -> double {
        if (counts) return load_d(Dt::i32, counts->addr + j * 4);
        if (noTail) return p.rnLength;
        return j < p.headCountLength ? p.headCount : p.tailCount;
    };
    auto at = [](const Local& t, uint32_t j) { float v; std::memcpy(&v, t.addr + j * 4, 4); return double(v); };
    double m = 0;
    for (uint32_t j = 0; j < ab; ++j) m += noTail ? at(inMean, j) * p.abRec : count(j) * at(inMean, j) * p.rRec;
    const float mean = welford_impl::f(m);
    double v = 0;
    for (uint32_t j = 0; j < ab; ++j) {
        const double d = at(inMean, j) - mean;
        v += (at(inVar, j) + count(j) * d * d) * p.rRec;
    }
    const float var = welford_impl::f(v);
    std::memcpy(outMean.addr, &mean, 4);
    std::memcpy(outVar.addr, &var, 4);
    mark_written(outMean, 0, 4);
    mark_written(outVar, 0, 4);
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

}}  // namespace ascendcraft::emu
