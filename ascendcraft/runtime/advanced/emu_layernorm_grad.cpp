// AscendCraft CPU emulation runtime: LayerNormGrad and LayerNormGradBeta (layernorm_grad.h). Each row is computed in
// double from the API reference's formulas and rounded to T when stored; the trace charges the vector passes of the
// A2 method (LayerNormGrad: the products, broadcasts, reductions and the final sum, about a dozen passes; GradBeta: the
// product and two column sums). Written from the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/layernorm_grad.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

namespace lngrad_impl {
void store(Dt dt, uint8_t* p, double v) {
    if (dt == Dt::f16) { const half h = static_cast<half>(static_cast<float>(v)); std::memcpy(p, &h, 2); }
    else { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
}
void check_shape(Op op, SrcLoc loc, Dt dt, uint32_t rows, uint32_t hPad, uint32_t h, const char* host) {
    const uint32_t es = dt_size(dt);
    if (rows == 0 || hPad == 0 || h == 0 || h > hPad || uint64_t(hPad) * es % 32 != 0)
        Report("norm-shape", op, loc)
            .msg("%s: %u rows of %u elements (%u valid): the shape is empty, or H is not whole 32-byte blocks or shorter than "
                 "the valid length", op_name(op), rows, hPad, h)
            .val("rows", rows).val("row_length", hPad)
            .hint("fill the tiling with %s on the host ([B, S, H], H padded to 32 bytes)", host).fail();
}
void check_tmp(Op op, SrcLoc loc, const Local* tmp, const std::initializer_list<std::pair<const Local*, uint64_t>>& ops, const char* host) {
    if (!tmp) {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < 256)
            Report("adv-tmp-space", op, loc)
                .msg("%s without a sharedTmpBuffer needs free UB for its temporaries, but InitBuffer allocations use %u of "
                     "the %u bytes", op_name(op), used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side %s gives the size)", host).fail();
        return;
    }
    check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
    for (const auto& o : ops)
        if (ub_overlap(*tmp, tmp->bytes, *o.first, o.second))
            Report("adv-overlap", op, loc).msg("%s: sharedTmpBuffer overlaps an operand", op_name(op))
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
}
}  // namespace lngrad_impl

void adv_layernorm_grad(Dt dt, const Local& pdX, const Local& resForGamma, const Local& dy, const Local& x, const Local& var,
                        const Local& mean, const Local& gamma, const Local* tmp, double eps, uint32_t rows, uint32_t hPad,
                        uint32_t h, SrcLoc loc) {
    const Op op = Op::LayerNormGrad;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    lngrad_impl::check_shape(op, loc, dt, rows, hPad, h, "GetLayerNormGradNDTilingInfo");
    const uint64_t xb = uint64_t(rows) * hPad * es, sb = uint64_t(rows) * es, gb = uint64_t(hPad) * es;
    const struct { const Local* t; uint64_t bytes; const char* role; } ops[] = {
        {&pdX, xb, "outputPdX"}, {&resForGamma, xb, "resForGamma"}, {&dy, xb, "inputDy"}, {&x, xb, "inputX"},
        {&var, sb, "inputVariance"}, {&mean, sb, "inputMean"}, {&gamma, gb, "inputGamma"}};
    for (const auto& o : ops) {
        check_local(*o.t, op, loc, o.role, 32);
        check_extent(*o.t, o.bytes, op, loc, o.role);
    }
    lngrad_impl::check_tmp(op, loc, tmp, {{&pdX, xb}, {&resForGamma, xb}, {&dy, xb}, {&x, xb}, {&var, sb}, {&mean, sb}, {&gamma, gb}},
                           "GetLayerNormGradMaxMinTmpSize");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(dy.addr, xb);
        race.read(x.addr, xb);
        race.read(var.addr, sb);
        race.read(mean.addr, sb);
        race.read(gamma.addr, gb);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(pdX.addr, xb);
        race.write(resForGamma.addr, xb);
    }
    const uint32_t passes = 12 + (dt == Dt::f16 ? 6 : 0);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, passes * xb, uint64_t(rows) * hPad,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((xb + 255) / 256), 0xffffffffu)));
    if (tracing_now()) return;
    check_initialised(var, 0, sb, op, loc, "inputVariance");
    check_initialised(mean, 0, sb, op, loc, "inputMean");
    check_initialised(gamma, 0, uint64_t(h) * es, op, loc, "inputGamma");
    // the API allows the outputs to share the inputs' memory: every row is read before its outputs are stored
    std::vector<double> xl(h), d(h);
    std::vector<uint8_t> outX(xb), outR(xb);
    std::memcpy(outX.data(), pdX.addr, xb);
    std::memcpy(outR.data(), resForGamma.addr, xb);
    for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t base = uint64_t(r) * hPad;
        check_initialised(dy, base * es, uint64_t(h) * es, op, loc, "inputDy");
        check_initialised(x, base * es, uint64_t(h) * es, op, loc, "inputX");
        const double m = load_d(dt, mean.addr + uint64_t(r) * es), v = load_d(dt, var.addr + uint64_t(r) * es);
        const double rstd = 1.0 / std::sqrt(v + eps);
        double sVar = 0, sMean = 0, sD = 0;
        for (uint32_t j = 0; j < h; ++j) {
            xl[j] = load_d(dt, dy.addr + (base + j) * es) * load_d(dt, gamma.addr + uint64_t(j) * es);
            d[j] = load_d(dt, x.addr + (base + j) * es) - m;
            sVar += -0.5 * xl[j] * d[j];
            sMean += -xl[j];
            sD += -2.0 * d[j];
        }
        const double pdVar = sVar * rstd * rstd * rstd;
        const double pdMean = sMean * rstd + pdVar / h * sD;
        for (uint32_t j = 0; j < h; ++j) {
            lngrad_impl::store(dt, outX.data() + (base + j) * es, xl[j] * rstd + pdVar * 2.0 / h * d[j] + pdMean / h);
            lngrad_impl::store(dt, outR.data() + (base + j) * es, d[j] * rstd);
        }
    }
    std::memcpy(pdX.addr, outX.data(), xb);
    std::memcpy(resForGamma.addr, outR.data(), xb);
    for (uint32_t r = 0; r < rows; ++r) {
        mark_written(pdX, uint64_t(r) * hPad * es, uint64_t(h) * es);
        mark_written(resForGamma, uint64_t(r) * hPad * es, uint64_t(h) * es);
    }
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

void adv_layernorm_grad_beta(Dt dt, const Local& pdGamma, const Local& pdBeta, const Local& resForGamma, const Local& dy,
                             const Local* tmp, uint32_t rows, uint32_t hPad, uint32_t h, SrcLoc loc) {
    const Op op = Op::LayerNormGradBeta;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    lngrad_impl::check_shape(op, loc, dt, rows, hPad, h, "GetLayerNormGradBetaNDTilingInfo");
    const uint64_t xb = uint64_t(rows) * hPad * es, gb = uint64_t(hPad) * es;
    const struct { const Local* t; uint64_t bytes; const char* role; } ops[] = {
        {&pdGamma, gb, "outputPdGamma"}, {&pdBeta, gb, "outputPdBeta"}, {&resForGamma, xb, "resForGamma"}, {&dy, xb, "inputDy"}};
    for (const auto& o : ops) {
        check_local(*o.t, op, loc, o.role, 32);
        check_extent(*o.t, o.bytes, op, loc, o.role);
    }
    lngrad_impl::check_tmp(op, loc, tmp, {{&pdGamma, gb}, {&pdBeta, gb}, {&resForGamma, xb}, {&dy, xb}},
                           "GetLayerNormGradBetaMaxMinTmpSize");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(resForGamma.addr, xb);
        race.read(dy.addr, xb);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(pdGamma.addr, gb);
        race.write(pdBeta.addr, gb);
    }
    const uint32_t passes = 3 + (dt == Dt::f16 ? 2 : 0);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, passes * xb, uint64_t(rows) * hPad,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((xb + 255) / 256), 0xffffffffu)));
    if (tracing_now()) return;
    std::vector<double> g(h, 0.0), b(h, 0.0);
    for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t base = uint64_t(r) * hPad;
        check_initialised(dy, base * es, uint64_t(h) * es, op, loc, "inputDy");
        check_initialised(resForGamma, base * es, uint64_t(h) * es, op, loc, "resForGamma");
        for (uint32_t j = 0; j < h; ++j) {
            const double dv = load_d(dt, dy.addr + (base + j) * es);
            g[j] += dv * load_d(dt, resForGamma.addr + (base + j) * es);
            b[j] += dv;
        }
    }
    for (uint32_t j = 0; j < h; ++j) {
        lngrad_impl::store(dt, pdGamma.addr + uint64_t(j) * es, g[j]);
        lngrad_impl::store(dt, pdBeta.addr + uint64_t(j) * es, b[j]);
    }
    mark_written(pdGamma, 0, uint64_t(h) * es);
    mark_written(pdBeta, 0, uint64_t(h) * es);
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

}}  // namespace ascendcraft::emu
