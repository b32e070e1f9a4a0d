// AscendCraft CPU emulation runtime: the advanced math / activation APIs of math.h and kernel assertions.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/math.h"

namespace ascendcraft { namespace emu {

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One element, in double (rounded to T by the caller).
double math_value(Op op, double x, double y) {
    switch (op) {
    case Op::Tan: return std::tan(x);
    case Op::Asin: return std::asin(x);
    case Op::Acos: return std::acos(x);
    case Op::Atan: return std::atan(x);
    case Op::Sinh: return std::sinh(x);
    case Op::Cosh: return std::cosh(x);
    case Op::Erfc: return std::erfc(x);
    case Op::Asinh: return std::asinh(x);
    case Op::Acosh: return std::acosh(x);
    case Op::Atanh: return std::atanh(x);
    case Op::ClampMax: return x > y ? y : x;
    case Op::ClampMin: return x < y ? y : x;
    case Op::Sign: return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
    case Op::Frac: return x - std::trunc(x);
    case Op::Silu: return x * sigmoid(x);
    case Op::Swish: return x * sigmoid(y * x);
    // GELU, tanh form: x * sigmoid(1.5957691 * (x + 0.044715 x^3)) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    case Op::Gelu: return x * sigmoid(1.5957691216057308 * (x + 0.044715 * x * x * x));
    case Op::FasterGelu: return x * sigmoid(1.702 * x);
    case Op::FasterGeluV2: {
        const double c = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
        const double sgn = (x + 1e-7) / std::fabs(x + 1e-7);
        return x * (sgn * (-0.1444 * c * c + 0.5) + 0.5);
    }
    case Op::Power: return std::pow(x, y);
    case Op::Log: return std::log(x);
    case Op::Log2: return std::log2(x);
    case Op::Log10: return std::log10(x);
    default: return x;
    }
}

}  // namespace

void vec_math(Op op, Dt dt, const Local& d, const Local& a, const Local* b, Scalar v, int scalar_first, const Local* tmp,
              uint64_t count, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const uint64_t bytes = count * es;
    Geometry g;
    g.count = count;
    Stride s;
    check_operand(g, a, s, es, true, op, loc, "src");
    if (b) check_operand(g, *b, s, es, true, op, loc, "src1");
    check_operand(g, d, s, es, false, op, loc, "dst");
    // Silu, Swish, Sign, ClampMax / ClampMin and the logarithms need no temporaries (Log2 only for half).
    const bool needs_temporaries = op != Op::Silu && op != Op::Swish && op != Op::Sign && op != Op::Log &&
                                   op != Op::ClampMax && op != Op::ClampMin &&
                                   op != Op::Log10 && !(op == Op::Log2 && dt == Dt::f32);
    // Power with dst the same tensor as the base, Power(x, x, y): A2's float implementation (its CommonPowerF, chunk by
    // chunk) first writes exp(y * ln|x|) into dst, then reads the base again for the sign mask (a negative base to an
    // odd integer power) and the NaN mask (a negative base to a non-integer power). In place those read |x|^y, which
    // is never negative, so the result is |x|^y: no sign and no NaN. (A contest Pdist kernel relies on it: Sub, then
    // Power in place for |x_i - x_j|^p; its NPU outputs match torch's pdist.) Half goes through float temporaries
    // (Cast in, the float computation, Cast back to dst), so in place it is the ordinary result. The exponent tensor as
    // dst (Power(x, s, x): the first step reads it after the write) and int32 in place stay adv-overlap errors, as do
    // other overlaps (check_adv_elementwise).
    const bool power_in_place = op == Op::Power && !b && d.addr == a.addr;
    if (power_in_place && (scalar_first || (dt != Dt::f16 && dt != Dt::f32)))
        Report("adv-overlap", op, loc).msg("Power: dst and a source overlap; this API does not allow it")
            .hint("write the result to a different buffer").fail();
    check_adv_elementwise(op, loc, d, a, b, tmp, bytes, needs_temporaries);
    if (RaceScope race{TPipe_::V, op, loc}) {  // the temporaries in sharedTmpBuffer are not tracked
        race.read(a.addr, bytes);
        if (b) race.read(b->addr, bytes);
        race.write(d.addr, bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, (b ? 3 : 2) * bytes, count, static_cast<uint32_t>((bytes + 255) / 256));
    if (tracing_now()) return;
    if (op == Op::Xor) {   // 16-bit integers, bit by bit
        for (uint64_t i = 0; i < count; ++i) {
            uint16_t x, y;
            std::memcpy(&x, a.addr + i * 2, 2);
            std::memcpy(&y, b->addr + i * 2, 2);
            const uint16_t r = static_cast<uint16_t>(x ^ y);
            std::memcpy(d.addr + i * 2, &r, 2);
        }
        mark_written(d, 0, bytes);
        return;
    }
    if (op == Op::Fmod) {  // Div, Trunc, Mul, Sub, each rounded to float
        for (uint64_t i = 0; i < count; ++i) {
            const float x = static_cast<float>(load_d(dt, a.addr + i * es)), y = static_cast<float>(load_d(dt, b->addr + i * es));
            const float q = std::trunc(x / y);
            const float m = q * y;
            const float r = x - m;
            uint8_t* p = d.addr + i * es;
            if (dt == Dt::f16) { half h = static_cast<half>(r); std::memcpy(p, &h, 2); }
            else std::memcpy(p, &r, 4);
        }
        mark_written(d, 0, bytes);
        return;
    }
    const double scalar = (dt == Dt::i32 || dt == Dt::i16) ? static_cast<double>(v.i) : v.f;
    for (uint64_t i = 0; i < count; ++i) {
        const double x = load_d(dt, a.addr + i * es);
        const double y = b ? load_d(dt, b->addr + i * es) : scalar;
        double r = scalar_first ? math_value(op, y, x) : math_value(op, x, y);
        if (power_in_place && dt == Dt::f32) r = std::pow(std::fabs(x), y);   // A2's float Power in place (above)
        uint8_t* p = d.addr + i * es;
        if (dt == Dt::f16) { half h = static_cast<half>(static_cast<float>(r)); std::memcpy(p, &h, 2); }
        else if (dt == Dt::f32) { float f = static_cast<float>(r); std::memcpy(p, &f, 4); }
        else if (op == Op::ClampMax || op == Op::ClampMin) {   // int16 / int32: r is one of the two exact inputs
            if (dt == Dt::i16) { int16_t o = static_cast<int16_t>(r); std::memcpy(p, &o, 2); }
            else { int32_t o = static_cast<int32_t>(r); std::memcpy(p, &o, 4); }
        } else {  // int32 Power: an exact integer power, 0 for negative exponents of |base| > 1 (as integer division would)
            const int64_t base = static_cast<int64_t>(scalar_first ? y : x), e = static_cast<int64_t>(scalar_first ? x : y);
            int64_t acc = 1;
            if (e < 0) acc = (base == 1) ? 1 : (base == -1 ? ((-e) % 2 ? -1 : 1) : 0);
            else for (int64_t k = 0; k < e && k < 64; ++k) acc *= base;
            int32_t out = static_cast<int32_t>(acc);
            std::memcpy(p, &out, 4);
        }
    }
    mark_written(d, 0, bytes);
}

void vec_dropout(Dt dt, const Local& d, const Local& a, const Local& mask, const Local* tmp, float keepProb, uint32_t rows,
                 uint32_t srcLastAxis, uint32_t maskLastAxis, uint32_t mode, SrcLoc loc) {
    const Op op = Op::DropOut;
    enter(op, loc);
    if (!(keepProb > 0.0f && keepProb < 1.0f))
        Report("dropout-prob", op, loc).msg("DropOut: keepProb is %g; it must be greater than 0 and less than 1", keepProb)
            .val("keepProb", keepProb).hint("pass the probability of keeping an element, strictly between 0 and 1").fail();
    if (mode == 0) mode = srcLastAxis < maskLastAxis ? 1 : srcLastAxis == maskLastAxis ? 2 : srcLastAxis == maskLastAxis * 8 ? 3 : 4;
    const bool bits = mode == 3 || mode == 4;
    if ((mode == 1 || mode == 4) && maskLastAxis % 2 != 0)
        Report("dropout-shape", op, loc).msg("DropOut: maskLastAxis is %u; it must be even for the unaligned modes", maskLastAxis)
            .val("maskLastAxis", maskLastAxis).hint("pad each mask row to an even number of bytes").fail();
    const uint32_t es = dt_size(dt);
    const uint64_t n = static_cast<uint64_t>(rows) * srcLastAxis, bytes = n * es;
    const uint64_t mask_bytes = static_cast<uint64_t>(rows) * maskLastAxis;
    Geometry g;
    g.count = n;
    Stride s;
    check_operand(g, a, s, es, true, op, loc, "src");
    check_operand(g, d, s, es, false, op, loc, "dst");
    check_local(mask, op, loc, "maskLocal", 32);
    check_extent(mask, mask_bytes, op, loc, "maskLocal");
    check_adv_elementwise(op, loc, d, a, nullptr, tmp, bytes, true);
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(a.addr, bytes);
        race.read(mask.addr, mask_bytes);
        race.write(d.addr, bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, 2 * bytes + mask_bytes, n, static_cast<uint32_t>(3 * ((bytes + 255) / 256)));
    if (tracing_now()) return;
    check_initialised(mask, 0, mask_bytes, op, loc, "maskLocal");
    const float div = 1.0f / keepProb;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t j = 0; j < srcLastAxis; ++j) {
            const uint64_t i = static_cast<uint64_t>(r) * srcLastAxis + j;
            const uint8_t* mrow = mask.addr + static_cast<uint64_t>(r) * maskLastAxis;
            uint8_t* p = d.addr + i * es;
            const float x = static_cast<float>(load_d(dt, a.addr + i * es));
            if (dt == Dt::f16) {   // half: Mul by the mask (as half), then Muls by 1 / keepProb rounded to half
                const half k = static_cast<half>(div);
                half y;
                if (bits) y = ((mrow[j / 8] >> (j % 8)) & 1) ? static_cast<half>(x) : static_cast<half>(0.0f);
                else y = static_cast<half>(x * static_cast<float>(mrow[j]));
                y = static_cast<half>(static_cast<float>(y) * static_cast<float>(k));
                std::memcpy(p, &y, 2);
            } else {
                float y = bits ? (((mrow[j / 8] >> (j % 8)) & 1) ? x : 0.0f) : x * static_cast<float>(mrow[j]);
                y = y * div;
                std::memcpy(p, &y, 4);
            }
        }
    mark_written(d, 0, bytes);
}

void kernel_assert_failed(const char* expr, const char* text, SrcLoc loc) {
    enter(Op::Kernel, loc);
    Report("kernel-assert", Op::Kernel, loc)
        .msg("assertion failed: %s%s%s", expr, text && *text ? ": " : "", text ? text : "")
        .val("condition", expr)
        .hint("the kernel's own check (ASSERT / ascendc_assert) failed: on the NPU the kernel stops here too")
        .fail();
}

void kernel_assert_warning(const char* expr, SrcLoc loc) {
    enter(Op::Kernel, loc);
    Report("kernel-assert", Op::Kernel, loc)
        .msg("ASSERT(%s) failed", expr)
        .val("condition", expr)
        .hint("CANN compiles ASSERT out of device builds, so on the NPU the kernel carries on past this check; "
              "ascendc_assert is the check the device keeps")
        .warn();
}

}}  // namespace ascendcraft::emu

// The C library's assert in a kernel: a header included after kernel_operator.h can bring <assert.h>'s assert back
// (it redefines the macro each time it is included; asc-devkit 01_utilities/09_log), whose failure calls
// __assert_fail. In a kernel run it is the kernel's assertion, as on the device: the same `kernel-assert` error at the
// kernel's line as ascendc_assert gives, instead of a SIGABRT crash. Outside a kernel run (a host program linked with
// this library) it prints the C library's message and aborts.
extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line, const char* function) noexcept {
    if (ascendcraft::emu::g_launch)
        ascendcraft::emu::kernel_assert_failed(assertion, "",
                                               ascendcraft::emu::SrcLoc(ascendcraft::emu::SrcLoc::Tag{}, file, static_cast<int>(line)));
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function ? function : "?", assertion);
    std::abort();
}
