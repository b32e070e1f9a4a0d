// AscendCraft CPU emulation runtime: AscendQuant, AscendDequant and AscendAntiQuant (quant.h). Each element follows the
// A2 data path of the API reference (the types it converts through and where it rounds); the trace charges the vector
// passes each API makes (casts, multiply, add). Written from the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/quant.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

namespace quant_impl {
double to_half(double x) { return static_cast<float>(static_cast<half>(static_cast<float>(x))); }
double to_float(double x) { return static_cast<float>(x); }
double to_bf16(double x) { return bfloat16_t::to_float(bfloat16_t::from_float(static_cast<float>(x))); }
// An element of a deqScale tensor: uint64_t holds a float in its low 32 bits.
double scale_at(Dt dt, const Local& t, uint64_t i) {
    if (dt == Dt::u64) {
        uint32_t lo; std::memcpy(&lo, t.addr + i * 8, 4);
        float f; std::memcpy(&f, &lo, 4);
        return f;
    }
    return load_d(dt, t.addr + i * dt_size(dt));
}
void store(Dt dt, uint8_t* p, double x) {
    switch (dt) {
    case Dt::f16: { const half h = static_cast<half>(static_cast<float>(x)); std::memcpy(p, &h, 2); break; }
    case Dt::bf16: { const uint16_t b = bfloat16_t::from_float(static_cast<float>(x)); std::memcpy(p, &b, 2); break; }
    case Dt::f32: { const float f = static_cast<float>(x); std::memcpy(p, &f, 4); break; }
    case Dt::i8: {
        const double r = std::isnan(x) ? 0 : std::nearbyint(x);   // round half to even, saturate
        const int8_t v = static_cast<int8_t>(std::max(-128.0, std::min(127.0, r)));
        std::memcpy(p, &v, 1);
        break;
    }
    default: break;
    }
}
[[noreturn]] void shape_error(Op op, SrcLoc loc, const char* hint, const std::string& what) {
    Report("adv-shape", op, loc).msg("%s: %s", op_name(op), what.c_str()).hint("%s", hint).fail();
}
void check_tmp(Op op, SrcLoc loc, const Local* tmp, const std::initializer_list<std::pair<const Local*, uint64_t>>& operands) {
    if (!tmp) {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < 256)
            Report("adv-tmp-space", op, loc)
                .msg("%s without a sharedTmpBuffer needs free UB for its temporaries, but InitBuffer allocations use %u of "
                     "the %u bytes", op_name(op), used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (the host-side Get%sMaxMinTmpSize gives the size)", op_name(op))
                .fail();
        return;
    }
    check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
    for (const auto& o : operands)
        if (o.first && ub_overlap(*tmp, tmp->bytes, *o.first, o.second))
            Report("adv-overlap", op, loc).msg("%s: sharedTmpBuffer overlaps an operand; the API does not allow it", op_name(op))
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
}
void record_passes(Op op, Dt dt, SrcLoc loc, uint32_t passes, uint64_t bytes, uint64_t elems) {
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, passes * bytes, elems,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((bytes + 255) / 256), 0xffffffffu)));
}
}  // namespace quant_impl

// ---- AscendQuant --------------------------------------------------------------------------------------------
void adv_quant(const QuantCall& c, SrcLoc loc) {
    const Op op = Op::AscendQuant;
    enter(op, loc);
    const uint32_t es = dt_size(c.src_dt);
    const uint64_t n = c.count;
    const char* hint = "calCount (and scaleCount / offsetCount) in elements: calCount a multiple of 32 (32 bytes of int8_t) "
                       "within both tensors; per channel, scaleCount a multiple of 32 that divides calCount and equals "
                       "offsetCount";
    if (n == 0 || n % 32 != 0 || n * es > c.src->bytes || n > c.dst->bytes)
        quant_impl::shape_error(op, loc, hint, fmt("calCount %llu: it must be a positive multiple of 32 within srcTensor (%u elements) "
                                       "and dstTensor (%u elements)", static_cast<unsigned long long>(n), c.src->bytes / es,
                                       c.dst->bytes));
    if (c.scale) {
        const uint32_t sc = c.scale_count;
        if (sc == 0 || sc % 32 != 0 || uint64_t(sc) * es > c.scale->bytes || n % sc != 0)
            quant_impl::shape_error(op, loc, hint, fmt("scaleCount %u: it must be a positive multiple of 32 within scaleTensor (%u "
                                           "elements) that divides calCount %llu", sc, c.scale->bytes / es,
                                           static_cast<unsigned long long>(n)));
        if (c.offset && (c.offset_count != sc || uint64_t(c.offset_count) * es > c.offset->bytes))
            quant_impl::shape_error(op, loc, hint, fmt("offsetCount %u must equal scaleCount %u and lie within offsetTensor (%u elements)",
                                           c.offset_count, sc, c.offset->bytes / es));
    }
    check_local(*c.src, op, loc, "srcTensor", 32);
    check_local(*c.dst, op, loc, "dstTensor", 32);
    if (c.scale) check_local(*c.scale, op, loc, "scaleTensor", 32);
    if (c.offset) check_local(*c.offset, op, loc, "offsetTensor", 32);
    const uint64_t pbytes = uint64_t(c.scale_count) * es;
    quant_impl::check_tmp(op, loc, c.tmp, {{c.src, n * es}, {c.dst, n}, {c.scale, pbytes}, {c.offset, pbytes}});
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(c.src->addr, n * es);
        if (c.scale) race.read(c.scale->addr, pbytes);
        if (c.offset) race.read(c.offset->addr, pbytes);
        if (c.tmp) race.write(c.tmp->addr, c.tmp->bytes);
        race.write(c.dst->addr, n);
    }
    quant_impl::record_passes(op, c.src_dt, loc, c.src_dt == Dt::f32 ? 4 : 3, n * es, n);
    if (tracing_now()) return;
    check_initialised(*c.src, 0, n * es, op, loc, "srcTensor");
    if (c.scale) check_initialised(*c.scale, 0, pbytes, op, loc, "scaleTensor");
    if (c.offset) check_initialised(*c.offset, 0, pbytes, op, loc, "offsetTensor");
    // A2: source, scale and offset in half; multiply and add in half; half -> int8_t rounds half to even, saturating.
    const double s0 = quant_impl::to_half(c.scale_s), o0 = quant_impl::to_half(c.offset_s);
    std::vector<uint8_t> out(n);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t ch = c.scale ? i % c.scale_count : 0;
        const double x = quant_impl::to_half(load_d(c.src_dt, c.src->addr + i * es));
        const double s = c.scale ? quant_impl::to_half(load_d(c.src_dt, c.scale->addr + ch * es)) : s0;
        const double o = c.offset ? quant_impl::to_half(load_d(c.src_dt, c.offset->addr + ch * es)) : o0;
        quant_impl::store(Dt::i8, out.data() + i, quant_impl::to_half(quant_impl::to_half(x * s) + o));
    }
    std::memcpy(c.dst->addr, out.data(), n);
    mark_written(*c.dst, 0, n);
    if (c.tmp) mark_written(*c.tmp, 0, c.tmp->bytes);
}

// ---- AscendDequant ------------------------------------------------------------------------------------------
void adv_dequant(const QuantCall& c, SrcLoc loc) {
    const Op op = Op::AscendDequant;
    enter(op, loc);
    const uint32_t ds = dt_size(c.dst_dt);
    uint32_t m = c.m, n = c.n;
    const uint32_t cc = c.row_count;
    const char* hint = "DequantParams {m, n, calCount}: n int32_t elements per row (a multiple of 8: 32 bytes), 0 < calCount "
                       "<= n, m * n within srcTensor, calCount within a deqScale tensor, and dstTensor m rows of n rounded "
                       "up to 32 bytes";
    if (m == 0 || n == 0 || cc == 0 || cc > n)
        quant_impl::shape_error(op, loc, hint, fmt("DequantParams {m %u, n %u, calCount %u}: every field must be positive and calCount "
                                       "at most n", m, n, cc));
    if (n % 8 != 0)
        quant_impl::shape_error(op, loc, hint, fmt("a row of n = %u int32_t elements is %u bytes, not a multiple of 32", n, n * 4));
    if (uint64_t(m) * n * 4 > c.src->bytes)
        quant_impl::shape_error(op, loc, hint, fmt("m * n = %llu elements exceed srcTensor (%u elements)",
                                       static_cast<unsigned long long>(uint64_t(m) * n), c.src->bytes / 4));
    if (c.total == 0 || c.total * 4 > c.src->bytes)
        quant_impl::shape_error(op, loc, hint, fmt("calCount %llu must be positive and within srcTensor (%u elements)",
                                       static_cast<unsigned long long>(c.total), c.src->bytes / 4));
    const uint32_t ss = c.scale ? dt_size(c.scale_dt) : 0;
    if (c.scale && uint64_t(cc) * ss > c.scale->bytes)
        quant_impl::shape_error(op, loc, hint, fmt("calCount %u exceeds the deqScale tensor (%u elements)", cc, c.scale->bytes / ss));
    uint32_t rc = cc;
    // DEQUANT_WITH_SINGLE_ROW: {1, n, calCount} with calCount whole 32-byte blocks of dstT dividing n is {n / calCount,
    // calCount, calCount}.
    if (c.single_row && m == 1 && cc % (32 / ds) == 0 && n % cc == 0) { m = n / cc; n = cc; rc = cc; }
    const uint32_t nd = (n * ds + 31) / 32 * 32 / ds;   // dst row: n rounded up to 32 bytes
    if (uint64_t(m) * nd * ds > c.dst->bytes)
        quant_impl::shape_error(op, loc, hint, fmt("dstTensor holds %u elements; %u rows of %u (n rounded up to 32 bytes) do not fit",
                                       c.dst->bytes / ds, m, nd));
    check_local(*c.src, op, loc, "srcTensor", 32);
    check_local(*c.dst, op, loc, "dstTensor", 32);
    if (c.scale) check_local(*c.scale, op, loc, "deqScale", 32);
    const uint64_t sbytes = uint64_t(m) * n * 4, dbytes = uint64_t(m) * nd * ds, pbytes = uint64_t(rc) * ss;
    if (ub_overlap(*c.dst, dbytes, *c.src, sbytes))
        Report("adv-overlap", op, loc).msg("AscendDequant: dstTensor overlaps srcTensor; the API does not allow it")
            .hint("write the result to a different buffer").fail();
    quant_impl::check_tmp(op, loc, c.tmp, {{c.src, sbytes}, {c.dst, dbytes}, {c.scale, pbytes}});
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(c.src->addr, sbytes);
        if (c.scale) race.read(c.scale->addr, pbytes);
        if (c.tmp) race.write(c.tmp->addr, c.tmp->bytes);
        race.write(c.dst->addr, dbytes);
    }
    quant_impl::record_passes(op, c.dst_dt, loc, 3, sbytes, uint64_t(m) * n);
    if (tracing_now()) return;
    if (c.scale) check_initialised(*c.scale, 0, pbytes, op, loc, "deqScale");
    const double s0 = quant_impl::to_float(c.scale_s);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t j = 0; j < rc; ++j) {
            if (uint64_t(r) * n + j >= c.total) break;
            const uint64_t si = uint64_t(r) * n + j;
            check_initialised(*c.src, si * 4, 4, op, loc, "srcTensor");
            const double x = quant_impl::to_float(load_d(Dt::i32, c.src->addr + si * 4));       // int32 -> float, nearest
            const double s = c.scale ? quant_impl::to_float(quant_impl::scale_at(c.scale_dt, *c.scale, j)) : s0;
            quant_impl::store(c.dst_dt, c.dst->addr + (uint64_t(r) * nd + j) * ds, quant_impl::to_float(x * s));
            mark_written(*c.dst, (uint64_t(r) * nd + j) * ds, ds);
        }
    if (c.tmp) mark_written(*c.tmp, 0, c.tmp->bytes);
}

// ---- AscendAntiQuant ----------------------------------------------------------------------------------------
void adv_antiquant(const QuantCall& c, SrcLoc loc) {
    const Op op = Op::AscendAntiQuant;
    enter(op, loc);
    const uint32_t ds = dt_size(c.dst_dt);
    const uint64_t total = c.src->bytes;   // int8_t: one byte an element
    const uint32_t k = c.k;
    const char* hint = "src is [K, N] ([N, K] with isTranspose) with k = K; per channel, offset and scale are [h, N] with h "
                       "dividing K ([N, w] with w dividing K when transposed): give their shape with AntiQuantShapeInfo or "
                       "SetShapeInfo";
    if (k == 0 || total % k != 0)
        quant_impl::shape_error(op, loc, hint, fmt("k = %u does not divide the source's %llu elements", k, static_cast<unsigned long long>(total)));
    const uint64_t other = total / k;      // N
    const uint64_t rows = c.transpose ? other : k, cols = c.transpose ? k : other;
    if (c.transpose && k % 32 != 0)
        quant_impl::shape_error(op, loc, hint, fmt("with isTranspose, k = %u int8_t elements must be whole 32-byte blocks", k));
    if (total * ds > c.dst->bytes)
        quant_impl::shape_error(op, loc, hint, fmt("dst holds %u elements, fewer than the source's %llu", c.dst->bytes / ds,
                                       static_cast<unsigned long long>(total)));
    struct Param { const Local* t; uint32_t h, w; const char* role; };
    const Param params[] = {{c.offset, c.off_h, c.off_w, "offset"}, {c.scale, c.scale_h, c.scale_w, "scale"}};
    for (const Param& p : params) {
        if (!p.t) continue;
        const bool ok = c.transpose ? (p.h == rows && p.w && k % p.w == 0) : (p.w == cols && p.h && k % p.h == 0);
        if (!ok || uint64_t(p.h) * p.w * ds > p.t->bytes)
            quant_impl::shape_error(op, loc, hint, fmt("the %s tensor's shape [%u, %u] does not fit the source [%llu, %llu] (or exceeds "
                                           "its %u elements)", p.role, p.h, p.w, static_cast<unsigned long long>(rows),
                                           static_cast<unsigned long long>(cols), p.t->bytes / ds));
        check_local(*p.t, op, loc, p.role, 32);
    }
    check_local(*c.src, op, loc, "src", 32);
    check_local(*c.dst, op, loc, "dst", 32);
    if (ub_overlap(*c.dst, total * ds, *c.src, total))
        Report("adv-overlap", op, loc).msg("AscendAntiQuant: dst overlaps src; the API does not allow it")
            .hint("write the result to a different buffer").fail();
    const uint64_t obytes = c.offset ? uint64_t(c.off_h) * c.off_w * ds : 0, sbytes = c.scale ? uint64_t(c.scale_h) * c.scale_w * ds : 0;
    if (c.dst_dt == Dt::bf16 || c.tmp) quant_impl::check_tmp(op, loc, c.tmp, {{c.src, total}, {c.dst, total * ds}, {c.offset, obytes}, {c.scale, sbytes}});
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(c.src->addr, total);
        if (c.offset) race.read(c.offset->addr, obytes);
        if (c.scale) race.read(c.scale->addr, sbytes);
        if (c.tmp) race.write(c.tmp->addr, c.tmp->bytes);
        race.write(c.dst->addr, total * ds);
    }
    quant_impl::record_passes(op, c.dst_dt, loc, c.dst_dt == Dt::bf16 ? 5 : 3, total * ds, total);
    if (tracing_now()) return;
    check_initialised(*c.src, 0, total, op, loc, "src");
    if (c.offset) check_initialised(*c.offset, 0, obytes, op, loc, "offset");
    if (c.scale) check_initialised(*c.scale, 0, sbytes, op, loc, "scale");
    // half: int8 -> half (exact), add and multiply in half; bfloat16_t: in float, rounded to bfloat16_t at the end.
    const bool in_half = c.dst_dt == Dt::f16;
    auto rnd = [&](double x) { return in_half ? quant_impl::to_half(x) : quant_impl::to_float(x); };
    auto param = [&](const Local* t, uint32_t h, uint32_t w, uint64_t i, uint64_t j, double scalar) -> double {
        if (!t) return rnd(scalar);
        const uint64_t pi = c.transpose ? i : i / (k / h), pj = c.transpose ? j / (k / w) : j;
        return load_d(c.dst_dt, t->addr + (pi * w + pj) * ds);
    };
    std::vector<uint8_t> out(total * ds);
    for (uint64_t i = 0; i < rows; ++i)
        for (uint64_t j = 0; j < cols; ++j) {
            const double x = static_cast<int8_t>(c.src->addr[i * cols + j]);
            const double o = c.has_offset ? param(c.offset, c.off_h, c.off_w, i, j, c.offset_s) : 0;
            const double s = param(c.scale, c.scale_h, c.scale_w, i, j, c.scale_s);
            quant_impl::store(c.dst_dt, out.data() + (i * cols + j) * ds, rnd(rnd(x + o) * s));
        }
    std::memcpy(c.dst->addr, out.data(), total * ds);
    mark_written(*c.dst, 0, total * ds);
    if (c.tmp) mark_written(*c.tmp, 0, c.tmp->bytes);
}

}}  // namespace ascendcraft::emu
