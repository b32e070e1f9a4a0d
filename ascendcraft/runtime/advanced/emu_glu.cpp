// AscendCraft CPU emulation runtime: SwiGLU, GeGLU and ReGlu (glu.h). Each element is computed in double and rounded to T
// once; the trace charges the vector passes the API makes over the data (SwiGLU: scale, exp, add, divide, multiply;
// GeGLU: the cubic, scale, exp, add, divide, multiply; ReGlu: max with 0, multiply), plus the casts to and from float
// for half and bfloat16_t. Written from the public
// AscendC API reference; no vendor code.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ascendcraft_emu/glu.h"
#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

namespace glu_impl {
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
// GELU, tanh form: x * glu_impl::sigmoid(2 * sqrt(2/pi) * (x + 0.044715 x^3)).
double gelu(double x) { return x * glu_impl::sigmoid(1.5957691216057308 * (x + 0.044715 * x * x * x)); }
// The smallest sharedTmpBuffer the host's Get<Api>MaxMinTmpSize gives: float needs none, half a few 256-byte
// repeats of float intermediates (SwiGLU 6, GeGLU 4).
// ReGlu: no minimum is checked (the emulator has no host GetReGluMaxMinTmpSize to agree with).
uint32_t glu_min_tmp(Op op, Dt dt) { return dt == Dt::f32 || op == Op::ReGlu ? 0 : (op == Op::SwiGLU ? 6u : 4u) * 256u; }
}  // namespace glu_impl

void adv_glu(Op op, Dt dt, const Local& dst, const Local& src0, const Local& src1, const Local* tmp, double beta,
             uint64_t count, SrcLoc loc, bool same_size) {
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const uint64_t bytes = count * es;
    const char* name = op_name(op);
    const char* host = op == Op::SwiGLU ? "GetSwiGLUMaxMinTmpSize" : op == Op::ReGlu ? "GetReGluMaxMinTmpSize" : "GetGeGLUMaxMinTmpSize";
    if (same_size && src0.bytes != src1.bytes)
        Report("adv-size", op, loc)
            .msg("%s: srcTensor0 holds %u elements and srcTensor1 %u; the API needs the two sources the same size", name,
                 src0.bytes / es, src1.bytes / es)
            .val("src0_elements", src0.bytes / es).val("src1_elements", src1.bytes / es)
            .hint("give both sources the same length (the gate and the value halves of the GLU)").fail();
    Geometry g;
    g.count = count;
    Stride s;
    check_operand(g, src0, s, es, true, op, loc, "srcTensor0");
    check_operand(g, src1, s, es, true, op, loc, "srcTensor1");
    check_operand(g, dst, s, es, false, op, loc, "dstTensor");
    check_adv_elementwise(op, loc, dst, src0, &src1, tmp, bytes, dt != Dt::f32);
    const uint32_t need = glu_impl::glu_min_tmp(op, dt);
    if (tmp && tmp->bytes < need)
        Report("adv-tmp-space", op, loc)
            .msg("%s on %s: sharedTmpBuffer holds %u bytes, less than the %u bytes the API needs at least", name,
                 dt_name(dt), tmp->bytes, need)
            .val("tmp_bytes", tmp->bytes).val("min_bytes", need)
            .hint("size the buffer with the host's %s (its minValue)", host).fail();
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src0.addr, bytes);
        race.read(src1.addr, bytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(dst.addr, bytes);
    }
    const uint32_t passes = (op == Op::SwiGLU ? 5 : op == Op::ReGlu ? 2 : 7) + (dt == Dt::f32 ? 0 : 3);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, passes * bytes, count,
           static_cast<uint32_t>(std::min<uint64_t>(passes * ((bytes + 255) / 256), 0xffffffffu)));
    if (tracing_now()) return;
    check_initialised(src0, 0, bytes, op, loc, "srcTensor0");
    check_initialised(src1, 0, bytes, op, loc, "srcTensor1");
    for (uint64_t i = 0; i < count; ++i) {
        const double a = load_d(dt, src0.addr + i * es), b = load_d(dt, src1.addr + i * es);
        const double r = op == Op::SwiGLU ? a * b * glu_impl::sigmoid(beta * b)
                         : op == Op::ReGlu ? a * std::max(0.0, b) : a * glu_impl::gelu(b);
        uint8_t* p = dst.addr + i * es;
        if (dt == Dt::f16) { const half h = static_cast<half>(static_cast<float>(r)); std::memcpy(p, &h, 2); }
        else if (dt == Dt::bf16) { const uint16_t h = bfloat16_t::from_float(static_cast<float>(r)); std::memcpy(p, &h, 2); }
        else { const float f = static_cast<float>(r); std::memcpy(p, &f, 4); }
    }
    mark_written(dst, 0, bytes);
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

}}  // namespace ascendcraft::emu
