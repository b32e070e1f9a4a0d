// AscendCraft CPU emulation runtime: the row-wise normalisation advanced APIs of norm.h (SoftMax, SimpleSoftMax,
// SoftmaxFlash, SoftmaxFlashV2, LayerNorm, RmsNorm) and GetReduceMaxMinCount. Rows are computed in double and
// rounded to the operand types when stored; the trace charges each call as the vector passes the API makes.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/norm.h"

namespace ascendcraft { namespace emu {

namespace {

void store_d(Dt dt, uint8_t* p, double v) {
    if (dt == Dt::f16) { half h = static_cast<half>(static_cast<float>(v)); std::memcpy(p, &h, 2); }
    else if (dt == Dt::bf16) { bfloat16_t b(static_cast<float>(v)); std::memcpy(p, &b, 2); }
    else { float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
}

// Vector passes over the data that each API makes on the NPU (reduce, broadcast, sub, exp, div, ...): the
// trace charges them, so that the API is never modelled as free.
uint32_t passes(Op op) {
    switch (op) {
    case Op::SoftMax: return 5;
    case Op::LogSoftMax: return 6;
    case Op::SimpleSoftMax: return 3;
    case Op::SoftmaxFlash: return 6;
    case Op::SoftmaxFlashV2: return 5;
    case Op::LayerNorm: return 7;
    case Op::RmsNorm: return 4;
    default: return 1;
    }
}

// One operand: in this block's UB, 32-byte aligned, holding at least `bytes`.
void operand(const Local* t, uint64_t bytes, Op op, SrcLoc loc, const char* role) {
    if (!t) return;
    check_local(*t, op, loc, role, 32);
    check_extent(*t, bytes, op, loc, role);
}

bool is_softmax(Op op) { return op == Op::SoftMax || op == Op::LogSoftMax || op == Op::SimpleSoftMax || op == Op::SoftmaxFlash || op == Op::SoftmaxFlashV2; }

}  // namespace

void norm_shape_error(Op op, const char* what, const char* hint, SrcLoc loc) {
    enter(op, loc);
    Report("norm-shape", op, loc).msg("%s: %s", op_name(op), what).hint("%s", hint).fail();
}

void vec_norm(const NormCall& call, SrcLoc loc) {
    NormCall c = call;
    // SoftmaxFlash / SoftmaxFlashV2 without the update neither read nor write expMax, inSum and inMax (ops-transformer
    // prompt_flash_attention's first block passes a default-constructed LocalTensor for expMax): not operands then
    if ((c.op == Op::SoftmaxFlash || c.op == Op::SoftmaxFlashV2) && !c.update) c.exp_max = c.in_sum = c.in_max = nullptr;
    const Op op = c.op;
    enter(op, loc);
    const uint32_t es = dt_size(c.dt);
    const uint32_t ss = c.stat_dt == Dt::none ? 0 : dt_size(c.stat_dt);
    const uint32_t as = c.aux_dt == Dt::none ? 0 : dt_size(c.aux_dt);
    const char* shape_hint = is_softmax(op)
        ? "fill the SoftMaxTiling with SoftMaxTilingFunc (or SoftMaxFlashV2TilingFunc) on the host, or pass a SoftMaxShapeInfo "
          "{srcM, srcK, oriSrcM, oriSrcK} with srcK a multiple of 32 bytes"
        : (op == Op::RmsNorm ? "fill the RmsNormTiling with GetRmsNormTilingInfo on the host; hLength is the 32-byte aligned H"
                             : "fill the tiling with GetLayerNormNDTilingInfo on the host (or pass LayerNormPara {aLength, rLength, "
                               "rLengthWithPadding}); the last axis is padded to 32 bytes");
    if (c.rows == 0 || c.row_stride == 0 || c.cols == 0)
        Report("norm-shape", op, loc)
            .msg("%s with an empty shape: %u rows of %u elements (%u valid); the tiling was never filled", op_name(op), c.rows,
                 c.row_stride, c.cols)
            .val("rows", c.rows).val("row_length", c.row_stride).hint("%s", shape_hint).fail();
    if ((static_cast<uint64_t>(c.row_stride) * es) % 32 != 0)
        Report("norm-shape", op, loc)
            .msg("%s: the last axis holds %u elements (%llu bytes), which is not a multiple of 32 bytes", op_name(op), c.row_stride,
                 static_cast<unsigned long long>(c.row_stride) * es)
            .val("row_length", c.row_stride).hint("%s", shape_hint).fail();
    if (c.cols > c.row_stride)
        Report("norm-shape", op, loc)
            .msg("%s: the original last axis (%u) is longer than the padded one (%u)", op_name(op), c.cols, c.row_stride)
            .val("original", c.cols).val("row_length", c.row_stride).hint("%s", shape_hint).fail();

    const uint64_t n = static_cast<uint64_t>(c.rows) * c.row_stride;
    const uint64_t data_bytes = n * es;
    const uint64_t stat_bytes = static_cast<uint64_t>(c.rows) * c.stat_stride * ss;
    const uint32_t em_stride = c.stat_stride == 1 ? 1 : (as ? 32 / as : 1);
    const uint64_t em_bytes = static_cast<uint64_t>(c.rows) * em_stride * as;
    const uint64_t gb_bytes = static_cast<uint64_t>(c.cols) * as;
    operand(c.src, data_bytes, op, loc, "src");
    operand(c.dst, data_bytes, op, loc, "dst");
    operand(c.sum, stat_bytes, op, loc, op == Op::LayerNorm ? (c.rstd ? "outputRstd" : "outputVariance") : "sum");
    operand(c.max, stat_bytes, op, loc, op == Op::LayerNorm ? "outputMean" : "max");
    operand(c.exp_max, em_bytes, op, loc, "expMax");
    operand(c.in_sum, stat_bytes, op, loc, "inSum");
    operand(c.in_max, stat_bytes, op, loc, "inMax");
    operand(c.reduce_max, stat_bytes, op, loc, "outReduceMax");
    operand(c.gamma, gb_bytes, op, loc, "gamma");
    operand(c.beta, gb_bytes, op, loc, "beta");

    // The documented overlaps: the statistics never share bytes with the data; RmsNorm's dst not with gamma.
    struct Named { const Local* t; uint64_t bytes; const char* role; };
    const Named outs[] = {{c.sum, stat_bytes, "sum"}, {c.max, stat_bytes, "max"}, {c.exp_max, em_bytes, "expMax"},
                          {c.reduce_max, stat_bytes, "outReduceMax"}};
    if (op != Op::SimpleSoftMax)
        for (const Named& o : outs)
            if (o.t && (ub_overlap(*o.t, o.bytes, *c.dst, data_bytes) || ub_overlap(*o.t, o.bytes, *c.src, data_bytes)))
                Report("adv-overlap", op, loc).msg("%s: the %s output overlaps src or dst", op_name(op), o.role)
                    .hint("give the row statistics their own buffer (one 32-byte block per row)").fail();
    if (op == Op::RmsNorm && ub_overlap(*c.dst, data_bytes, *c.gamma, gb_bytes))
        Report("adv-overlap", op, loc).msg("RmsNorm: dst and gamma overlap; this API does not allow it")
            .hint("write the result to a buffer of its own").fail();
    // The temporaries: a sharedTmpBuffer of its own, or free UB for the framework's.
    const uint64_t min_tmp = (static_cast<uint64_t>(c.row_stride) * 4 + 64 + 31) / 32 * 32;
    if (c.tmp) {
        check_local(*c.tmp, op, loc, "sharedTmpBuffer", 32);
        const Named all[] = {{c.src, data_bytes, "src"}, {c.dst, data_bytes, "dst"}, {c.sum, stat_bytes, "sum"},
                             {c.max, stat_bytes, "max"}, {c.exp_max, em_bytes, "expMax"}, {c.in_sum, stat_bytes, "inSum"},
                             {c.in_max, stat_bytes, "inMax"}, {c.gamma, gb_bytes, "gamma"}, {c.beta, gb_bytes, "beta"}};
        for (const Named& o : all)
            if (o.t && ub_overlap(*c.tmp, c.tmp->bytes, *o.t, o.bytes))
                Report("adv-overlap", op, loc).msg("%s: sharedTmpBuffer overlaps %s", op_name(op), o.role)
                    .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
        if (c.tmp->bytes < min_tmp)
            Report("adv-tmp-space", op, loc)
                .msg("%s: sharedTmpBuffer holds %u bytes; one row of %u elements needs at least %llu", op_name(op), c.tmp->bytes,
                     c.row_stride, static_cast<unsigned long long>(min_tmp))
                .val("tmp_bytes", c.tmp->bytes).val("needed", static_cast<int64_t>(min_tmp))
                .hint("size the buffer with the host's GetXxxMaxMinTmpSize (the minimum) or larger").fail();
    } else {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < min_tmp)
            Report("adv-tmp-space", op, loc)
                .msg("%s without a sharedTmpBuffer needs free UB for its temporaries (%llu bytes for a row of %u), but "
                     "InitBuffer allocations use %u of the %u bytes", op_name(op), static_cast<unsigned long long>(min_tmp),
                     c.row_stride, used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side GetXxxMaxMinTmpSize gives the size)").fail();
    }
    // Inputs must have been written: the valid part of every row, the first element of each input statistic.
    const bool stats_in = op == Op::SimpleSoftMax || ((op == Op::SoftmaxFlash || op == Op::SoftmaxFlashV2) && c.update);
    for (uint32_t r = 0; r < c.rows; ++r) {
        check_initialised(*c.src, static_cast<uint64_t>(r) * c.row_stride * es, static_cast<uint64_t>(c.cols) * es, op, loc, "src");
        if (stats_in) {
            const Local* s_in = op == Op::SimpleSoftMax ? c.sum : c.in_sum;
            const Local* m_in = op == Op::SimpleSoftMax ? c.max : c.in_max;
            check_initialised(*s_in, static_cast<uint64_t>(r) * c.stat_stride * ss, ss, op, loc, "inSum");
            check_initialised(*m_in, static_cast<uint64_t>(r) * c.stat_stride * ss, ss, op, loc, "inMax");
        }
    }
    if (c.gamma) check_initialised(*c.gamma, 0, gb_bytes, op, loc, "gamma");
    if (c.beta) check_initialised(*c.beta, 0, gb_bytes, op, loc, "beta");

    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(c.src->addr, data_bytes);
        for (const Local* t : {c.in_sum, c.in_max}) if (t) race.read(t->addr, stat_bytes);
        if (op == Op::SimpleSoftMax) { race.read(c.sum->addr, stat_bytes); race.read(c.max->addr, stat_bytes); }
        for (const Local* t : {c.gamma, c.beta}) if (t) race.read(t->addr, gb_bytes);
        race.write(c.dst->addr, data_bytes);
        if (op != Op::SimpleSoftMax)
            for (const Named& o : outs) if (o.t) race.write(o.t->addr, o.bytes);
    }
    const uint32_t repeats = static_cast<uint32_t>(std::min<uint64_t>(passes(op) * ((data_bytes + 255) / 256), 0xffffffffu));
    record(TPipe_::V, TKind::INSTR, op, c.dt, 0, loc, passes(op) * data_bytes + 2 * stat_bytes, n, repeats);
    if (tracing_now()) return;

    std::vector<double> x(c.cols), y(c.cols);
    auto stat_at = [&](const Local* t, uint32_t r) { return load_d(c.stat_dt, t->addr + static_cast<uint64_t>(r) * c.stat_stride * ss); };
    auto put_stat = [&](const Local* t, Dt dt, uint32_t stride, uint32_t r, double v) {
        if (!t) return;
        const uint32_t e = dt_size(dt);
        for (uint32_t k = 0; k < stride; ++k) store_d(dt, t->addr + (static_cast<uint64_t>(r) * stride + k) * e, v);
    };
    for (uint32_t r = 0; r < c.rows; ++r) {
        const uint64_t base = static_cast<uint64_t>(r) * c.row_stride;
        for (uint32_t j = 0; j < c.cols; ++j) x[j] = load_d(c.dt, c.src->addr + (base + j) * es);
        double row_max = -INFINITY;
        for (double v : x) row_max = std::max(row_max, v);
        if (is_softmax(op)) {
            double m = row_max, s = 0, em = 0;
            if (op == Op::SimpleSoftMax) { m = stat_at(c.max, r); s = stat_at(c.sum, r); }
            else if (c.update) { const double in_m = stat_at(c.in_max, r); m = std::max(in_m, row_max); em = std::exp(in_m - m); }
            for (uint32_t j = 0; j < c.cols; ++j) y[j] = std::exp(x[j] - m);
            if (op != Op::SimpleSoftMax) { for (double v : y) s += v; }
            double denom = s;
            if (c.update) {
                const double in_s = stat_at(c.in_sum, r);
                s = em * in_s + s;
                denom = s;
                if (op == Op::SoftmaxFlash) em = em * in_s / s;
            }
            const bool normalise = op != Op::SoftmaxFlashV2;  // FlashV2 leaves exp(x - max) unnormalised
            for (uint32_t j = 0; j < c.cols; ++j) y[j] = normalise ? y[j] / denom : y[j];
            // LogSoftMax's logarithm is base 10 (the API reference's formula and Python model: np.log10 of the row's
            // softmax; asc-devkit's logsoftmax example, whose golden was checked on the NPU, agrees)
            if (op == Op::LogSoftMax) for (uint32_t j = 0; j < c.cols; ++j) y[j] = std::log10(y[j]);
            if (op != Op::SimpleSoftMax) {
                put_stat(c.sum, c.stat_dt, c.stat_stride, r, s);
                put_stat(c.max, c.stat_dt, c.stat_stride, r, m);
                if (c.update) put_stat(c.exp_max, c.aux_dt, em_stride, r, em);
                put_stat(c.reduce_max, c.stat_dt, c.stat_stride, r, row_max);
            }
        } else {
            double mean = 0, var = 0;
            const double inv = 1.0 / c.cols;
            if (op == Op::RmsNorm) {
                for (double v : x) var += v * v;
                var *= inv;
            } else {
                for (double v : x) mean += v;
                mean *= inv;
                for (double v : x) var += (v - mean) * (v - mean);
                var *= inv;
            }
            const double rstd = 1.0 / std::sqrt(var + c.eps);
            for (uint32_t j = 0; j < c.cols; ++j) {
                const double g = c.gamma ? load_d(c.aux_dt, c.gamma->addr + static_cast<uint64_t>(j) * as) : 1.0;
                const double b = c.beta ? load_d(c.aux_dt, c.beta->addr + static_cast<uint64_t>(j) * as) : 0.0;
                y[j] = (x[j] - mean) * rstd * g + b;
            }
            if (op == Op::LayerNorm && !c.only_output) {
                put_stat(c.max, c.stat_dt, 1, r, mean);
                put_stat(c.sum, c.stat_dt, 1, r, c.rstd ? rstd : var);
            }
        }
        for (uint32_t j = 0; j < c.row_stride; ++j) store_d(c.dt, c.dst->addr + (base + j) * es, j < c.cols ? y[j] : 0.0);
    }
    mark_written(*c.dst, 0, data_bytes);
    for (const Named& o : outs)
        if (o.t && op != Op::SimpleSoftMax && (o.t != c.exp_max || c.update)) mark_written(*o.t, 0, o.bytes);
}

// A raw UB pointer (LocalTensor::GetPhyAddr()) as a Local reaching to the end of the block's UB.
static Local raw_ub(const void* p, Op op, SrcLoc loc, const char* role = "src", uint32_t align = 32) {
    Core& c = core();
    const uint8_t* a = static_cast<const uint8_t*>(p);
    // a UB address written as a number (laser_attention's `(__ubuf__ float*)offset`): that offset of this core's UB, as
    // ub_raw_view reads it
    if (reinterpret_cast<uintptr_t>(a) < g_launch->ub_bytes) a = c.ub + reinterpret_cast<uintptr_t>(a);
    Local t;
    t.addr = const_cast<uint8_t*>(a);
    if (a >= c.ub && a < c.ub + g_launch->ub_bytes) t.bytes = t.cap = static_cast<uint32_t>(c.ub + g_launch->ub_bytes - a);
    check_local(t, op, loc, role, align);
    return t;
}

void vcadd_raw(Dt dt, void* dst, const void* src, uint32_t repeats, uint32_t dstRepStride, uint32_t srcBlkStride,
               uint32_t srcRepStride, SrcLoc loc) {
    const Lanes lanes = mask_lanes(static_cast<uint64_t>(0), repeats, false);  // the lanes of the mask register
    if (dst) {  // one sum per repeat: WholeReduceSum with the mask register
        // the sums go to consecutive elements: dst needs the element's alignment only, as WholeReduceSum's
        reduce_whole(Op::WholeReduceSum, dt, raw_ub(dst, Op::WholeReduceSum, loc, "dst", dt_size(dt)), raw_ub(src, Op::WholeReduceSum, loc), lanes,
                     dstRepStride, srcBlkStride, srcRepStride, 0, loc);
        return;
    }
    const Op op = Op::WholeReduceSum;  // the accumulating form: every repeat's lanes summed into the accumulator
    enter(op, loc);
    const Local a = raw_ub(src, op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es;
    Geometry g = resolve(lanes, epr, op, loc);
    Stride s{srcBlkStride, srcRepStride};
    check_operand(g, a, s, es, true, op, loc, "src");
    if (RaceScope race{TPipe_::V, op, loc}) race.read(g, a, s, es);
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, g.active() * es, g.active(), g.repeats);
    if (tracing_now()) return;
    double total = 0;
    for (uint32_t r = 0; r < g.repeats; ++r)
        for (uint32_t l = 0; l < epr; ++l)
            if (g.on(r, l)) total += load_d(dt, a.addr + lane_offset(g, s, es, r, l));
    core().acc_value = total;
}

uint64_t acc_value_bits(Dt dt) {
    const double v = core().acc_value;
    uint64_t bits = 0;
    if (dt == Dt::f16) { half h = static_cast<half>(static_cast<float>(v)); std::memcpy(&bits, &h, 2); }
    else { float f = static_cast<float>(v); std::memcpy(&bits, &f, 4); }
    return bits;
}

void reduce_maxmin_result(Dt dt, uint8_t* value, uint8_t* index, uint32_t index_bytes, SrcLoc loc) {
    enter(Op::GetReduceMaxMinCount, loc);
    record(TPipe_::S, TKind::INSTR, Op::GetReduceMaxMinCount, dt, 0, loc);
    Core& c = core();
    if (!tracing_now() && !c.maxmin_set)
        Report("reduce-register", Op::GetReduceMaxMinCount, loc)
            .msg("GetReduceMaxMinCount reads the result of the last ReduceMax / ReduceMin / WholeReduceMax / WholeReduceMin, "
                 "but this block has made none")
            .hint("call it after a max or min reduction (and a V_S flag, so the scalar unit sees the result)").fail();
    const double v = tracing_now() ? 0.0 : c.maxmin_value;
    store_d(dt, value, v);
    const uint64_t i = tracing_now() ? 0 : c.maxmin_index;
    if (index_bytes == 2) { const uint16_t k = static_cast<uint16_t>(i); std::memcpy(index, &k, 2); }
    else { const uint32_t k = static_cast<uint32_t>(i); std::memcpy(index, &k, 4); }
}

}}  // namespace ascendcraft::emu
