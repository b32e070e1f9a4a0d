// AscendCraft CPU emulation runtime: vector instructions (elementwise, bitwise, shifts,
// multiply-accumulate, block broadcast/gather, 16 x 16 transpose, casts, compare/select, gather,
// advanced math). Each entry point checks its operands
// (alignment, extent, initialised reads), records a trace record, and in execute mode computes.
// half and bfloat16 compute in float and round to nearest-even once per instruction.
// Why one file (about 1,200 lines): the entry points are thin shells over the elementwise kernel templates and the
// rounding conversions at the top, instantiated per dtype here; split, those templates would move into a header
// compiled into every unit that uses them.
#include <algorithm>
#include <limits>

#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {

template <typename T> struct Arith { using C = T; };
template <> struct Arith<half> { using C = float; };
template <> struct Arith<bfloat16_t> { using C = float; };
template <> struct Arith<int16_t> { using C = int32_t; };
template <> struct Arith<uint16_t> { using C = int32_t; };
template <> struct Arith<int32_t> { using C = int64_t; };
template <> struct Arith<uint32_t> { using C = int64_t; };
template <> struct Arith<int8_t> { using C = int32_t; };
template <> struct Arith<uint8_t> { using C = int32_t; };

template <typename T> inline typename Arith<T>::C ld(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return static_cast<typename Arith<T>::C>(v);
}
template <typename T, typename C> inline void st(uint8_t* p, C v) {
    T t = static_cast<T>(v);
    std::memcpy(p, &t, sizeof(T));
}
template <typename T> inline typename Arith<T>::C scalar_as(const Scalar& s) {
    using C = typename Arith<T>::C;
    if (std::is_floating_point<C>::value) return static_cast<C>(static_cast<T>(static_cast<float>(s.f)));
    return static_cast<C>(s.i);
}

// Whether byte ranges [a, a + na) and [b, b + nb) share a byte.
inline bool overlaps(const uint8_t* a, uint64_t na, const uint8_t* b, uint64_t nb) { return a < b + nb && b < a + na; }

// Visit every active lane: f(repeat, lane, linear index).
template <typename F> inline void each_lane(const Geometry& g, F&& f) {
    if (g.contiguous) {
        for (uint64_t i = 0; i < g.count; ++i) f(0u, i, i);
        return;
    }
    for (uint32_t r = 0; r < g.repeats; ++r) {
        uint32_t top = g.max_lane(r);
        for (uint32_t l = 0; l < top; ++l)
            if (g.on(r, l)) f(r, static_cast<uint64_t>(l), static_cast<uint64_t>(r) * g.epr + l);
    }
}

uint32_t repeats_of(const Geometry& g, uint32_t widest) {
    return g.contiguous ? static_cast<uint32_t>((g.count * widest + 255) / 256) : g.repeats;
}
uint8_t level_flags(const Geometry& g) { return g.level0 ? kFlagLevel0 : 0; }

[[noreturn]] void unsupported(Op op, Dt dt, const SrcLoc& loc) {
    Report("unsupported", op, loc).msg("%s is not supported for %s on Ascend 910B (A2)", op_name(op), dt_name(dt)).fail();
}

// ---- elementwise kernels ------------------------------------------------------------------------------
// Lanes that are contiguous in every operand: byte offsets into each operand and a lane count. A level-2
// instruction is one span; a level-0 one is worked out once per instruction (runs of active lanes inside
// 32-byte blocks, merged while every operand continues where the last run ended), so each typed kernel has
// one tight loop, which the compiler vectorises, and no per-lane mask or stride arithmetic.
struct Span {
    uint64_t off[3];
    uint64_t lanes;
};

const std::vector<Span>& spans_of(const Geometry& g, const Stride* s, int operands, uint32_t es) {
    thread_local std::vector<Span> out;
    out.clear();
    if (g.contiguous) {
        out.push_back(Span{{0, 0, 0}, g.count});
        return out;
    }
    bool dense = true;  // every operand one run from its first byte: one span, as the merging below would make it
    uint64_t bytes = 0;
    for (int o = 0; o < operands && dense; ++o) dense = dense_operand(g, s[o], es, &bytes);
    if (dense) {
        out.push_back(Span{{0, 0, 0}, bytes / es});
        return out;
    }
    each_block(g, es, [&](uint32_t r, uint32_t k, uint32_t mask) {
        uint64_t bits = mask;
        while (bits) {
            const uint32_t j = static_cast<uint32_t>(__builtin_ctzll(bits));
            const uint32_t n = static_cast<uint32_t>(__builtin_ctzll(~(bits >> j)));
            bits &= ~(((1ull << n) - 1) << j);
            Span sp{{0, 0, 0}, n};
            for (int o = 0; o < operands; ++o) sp.off[o] = block_offset(s[o], r, k) + static_cast<uint64_t>(j) * es;
            if (!out.empty()) {
                Span& last = out.back();
                bool continues = true;
                for (int o = 0; o < operands; ++o) continues = continues && last.off[o] + last.lanes * es == sp.off[o];
                if (continues) { last.lanes += n; continue; }
            }
            out.push_back(sp);
        }
    });
    return out;
}

// Level 0 with every lane of every repeat on (a 2- or 4-byte type, no partial last repeat) and operands that are not
// one dense run: each 32-byte block is a run of its own in some operand (a broadcast operand with block stride 0, the
// row-wise case). Then the blocks are visited directly, repeat by repeat, block by block, lanes in order, as the
// spans would be, without working the spans out (spans_of cost as much as the arithmetic there).
template <typename T> bool full_blocks(const Geometry& g) {
    if (g.contiguous || g.last_lanes || sizeof(T) < 2 || sizeof(T) > 4 || g.epr * sizeof(T) != 256) return false;
    return g.bits[0] == ~0ull && (g.epr <= 64 || g.bits[1] == ~0ull);
}

template <typename T, typename F>
void apply2(const Geometry& g, const Local& d, const Local& a, const Local& b, const Stride* s, F fn) {
    constexpr uint32_t es = sizeof(T);
    // Local copies of the pointers: a store through uint8_t* may alias the Local structs, which would make the
    // compiler reload them every element instead of vectorising the loop.
    uint8_t* const d0 = d.addr;
    const uint8_t *const a0 = a.addr, *const b0 = b.addr;
    if (g.contiguous) {   // a level-2 instruction: the one span spans_of would make, without its vector
        const uint64_t n = g.count;
        for (uint64_t i = 0; i < n; ++i) st<T>(d0 + i * es, fn(ld<T>(a0 + i * es), ld<T>(b0 + i * es)));
        return;
    }
    uint64_t dense_bytes = 0;
    if (full_blocks<T>(g) && !(dense_operand(g, s[0], es, &dense_bytes) && dense_operand(g, s[1], es, &dense_bytes) &&
                               dense_operand(g, s[2], es, &dense_bytes))) {
        constexpr uint32_t lpb = 32 / es;
        for (uint32_t r = 0; r < g.repeats; ++r)
            for (uint32_t k = 0; k < 8; ++k) {
                uint8_t* const pd = d0 + block_offset(s[0], r, k);
                const uint8_t *const pa = a0 + block_offset(s[1], r, k), *const pb = b0 + block_offset(s[2], r, k);
                for (uint32_t i = 0; i < lpb; ++i) st<T>(pd + i * es, fn(ld<T>(pa + i * es), ld<T>(pb + i * es)));
            }
        return;
    }
    for (const Span& sp : spans_of(g, s, 3, es)) {
        uint8_t* const pd = d0 + sp.off[0];
        const uint8_t *const pa = a0 + sp.off[1], *const pb = b0 + sp.off[2];
        const uint64_t n = sp.lanes;
        for (uint64_t i = 0; i < n; ++i) st<T>(pd + i * es, fn(ld<T>(pa + i * es), ld<T>(pb + i * es)));
    }
}

template <typename T, typename F>
void apply1(const Geometry& g, const Local& d, const Local& a, const Stride* s, F fn) {
    constexpr uint32_t es = sizeof(T);
    uint8_t* const d0 = d.addr;
    const uint8_t* const a0 = a.addr;
    if (g.contiguous) {   // a level-2 instruction: the one span spans_of would make, without its vector
        const uint64_t n = g.count;
        for (uint64_t i = 0; i < n; ++i) st<T>(d0 + i * es, fn(ld<T>(a0 + i * es)));
        return;
    }
    for (const Span& sp : spans_of(g, s, 2, es)) {
        uint8_t* const pd = d0 + sp.off[0];
        const uint8_t* const pa = a0 + sp.off[1];
        const uint64_t n = sp.lanes;
        for (uint64_t i = 0; i < n; ++i) st<T>(pd + i * es, fn(ld<T>(pa + i * es)));
    }
}

// As apply2, with dst's current value as a third input (multiply-accumulate instructions).
template <typename T, typename F>
void apply2_acc(const Geometry& g, const Local& d, const Local& a, const Local& b, const Stride* s, F fn) {
    constexpr uint32_t es = sizeof(T);
    each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) {
        uint8_t* pd = d.addr + lane_offset(g, s[0], es, r, l);
        st<T>(pd, fn(ld<T>(a.addr + lane_offset(g, s[1], es, r, l)), ld<T>(b.addr + lane_offset(g, s[2], es, r, l)), ld<T>(pd)));
    });
}

template <typename T> void binary_t(Op op, const Geometry& g, const Local& d, const Local& a, const Local& b, const Stride* s) {
    using C = typename Arith<T>::C;
    // The sum or difference as T (wrapping or rounding like Add/Sub), then Relu.
    auto relu_of = [](C v) { C r = static_cast<C>(static_cast<T>(v)); return r > C(0) ? r : C(0); };
    if constexpr (std::is_integral<C>::value) {
        switch (op) {
        case Op::And: apply2<T>(g, d, a, b, s, [](C x, C y) { return x & y; }); return;
        case Op::Or: apply2<T>(g, d, a, b, s, [](C x, C y) { return x | y; }); return;
        default: break;
        }
    }
    switch (op) {
    case Op::AddRelu: apply2<T>(g, d, a, b, s, [&](C x, C y) { return relu_of(x + y); }); break;
    case Op::SubRelu: apply2<T>(g, d, a, b, s, [&](C x, C y) { return relu_of(x - y); }); break;
    case Op::FusedMulAdd: apply2_acc<T>(g, d, a, b, s, [](C x, C y, C z) { return x * z + y; }); break;
    case Op::Add: apply2<T>(g, d, a, b, s, [](C x, C y) { return x + y; }); break;
    case Op::Sub: apply2<T>(g, d, a, b, s, [](C x, C y) { return x - y; }); break;
    case Op::Mul: apply2<T>(g, d, a, b, s, [](C x, C y) { return x * y; }); break;
    case Op::Div: apply2<T>(g, d, a, b, s, [](C x, C y) { return y == C(0) && !std::is_floating_point<C>::value ? C(0) : x / y; }); break;
    case Op::Max: apply2<T>(g, d, a, b, s, [](C x, C y) { return x > y ? x : y; }); break;
    case Op::Min: apply2<T>(g, d, a, b, s, [](C x, C y) { return x < y ? x : y; }); break;
    default: break;
    }
}

template <typename T> void unary_t(Op op, const Geometry& g, const Local& d, const Local& a, const Stride* s) {
    using C = typename Arith<T>::C;
    if constexpr (std::is_floating_point<C>::value) {
        switch (op) {
        case Op::Exp: apply1<T>(g, d, a, s, [](C x) { return std::exp(x); }); return;
        case Op::Ln: apply1<T>(g, d, a, s, [](C x) { return std::log(x); }); return;
        case Op::Abs: apply1<T>(g, d, a, s, [](C x) { return std::fabs(x); }); return;
        case Op::Sqrt: apply1<T>(g, d, a, s, [](C x) { return std::sqrt(x); }); return;
        case Op::Rsqrt: apply1<T>(g, d, a, s, [](C x) { return C(1) / std::sqrt(x); }); return;
        case Op::Reciprocal: apply1<T>(g, d, a, s, [](C x) { return C(1) / x; }); return;
        default: break;
        }
    }
    if constexpr (std::is_integral<C>::value) {
        if (op == Op::Not) { apply1<T>(g, d, a, s, [](C x) { return static_cast<C>(~x); }); return; }
    }
    if (op == Op::Relu) apply1<T>(g, d, a, s, [](C x) { return x > C(0) ? x : C(0); });
}

// Shifts on the element's bits: left shifts drop high bits, right shifts are arithmetic for signed
// types; `roundEn` (signed only) adds the last bit shifted out.
template <typename T> void shift_t(Op op, const Geometry& g, const Local& d, const Local& a, uint32_t n, bool roundEn, const Stride* s) {
    constexpr uint32_t es = sizeof(T);
    using Wide = typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type;
    auto fn = [&](T x) -> T {
        if (op == Op::ShiftLeft) return static_cast<T>(static_cast<uint64_t>(static_cast<Wide>(x)) << n);
        Wide w = static_cast<Wide>(x);
        Wide r = w >> n;
        if (roundEn && std::is_signed<T>::value && n > 0) r += (w >> (n - 1)) & 1;
        return static_cast<T>(r);
    };
    each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) {
        T x;
        std::memcpy(&x, a.addr + lane_offset(g, s[1], es, r, l), es);
        T y = fn(x);
        std::memcpy(d.addr + lane_offset(g, s[0], es, r, l), &y, es);
    });
}

template <typename T> void scalar_t(Op op, const Geometry& g, const Local& d, const Local& a, const Scalar& sc, const Stride* s) {
    using C = typename Arith<T>::C;
    const C v = scalar_as<T>(sc);
    switch (op) {
    case Op::Adds: apply1<T>(g, d, a, s, [v](C x) { return x + v; }); break;
    case Op::Muls: apply1<T>(g, d, a, s, [v](C x) { return x * v; }); break;
    case Op::Maxs: apply1<T>(g, d, a, s, [v](C x) { return x > v ? x : v; }); break;
    case Op::Mins: apply1<T>(g, d, a, s, [v](C x) { return x < v ? x : v; }); break;
    case Op::LeakyRelu: apply1<T>(g, d, a, s, [v](C x) { return x >= C(0) ? x : x * v; }); break;
    default: break;
    }
}

// Every element type a same-type vector instruction accepts on A2 (the headers reject the pairs an
// instruction does not support before a call gets here).
#define ASCENDCRAFT_EMU_DISPATCH_VEC(dt, CALL)                       \
    switch (dt) {                                                    \
    case Dt::f16: { using T = half; CALL; break; }                   \
    case Dt::f32: { using T = float; CALL; break; }                  \
    case Dt::i16: { using T = int16_t; CALL; break; }                \
    case Dt::u16: { using T = uint16_t; CALL; break; }               \
    case Dt::i32: { using T = int32_t; CALL; break; }                \
    default: unsupported(op, dt, loc);                               \
    }
#define ASCENDCRAFT_EMU_DISPATCH_INT(dt, CALL)                       \
    switch (dt) {                                                    \
    case Dt::i16: { using T = int16_t; CALL; break; }                \
    case Dt::u16: { using T = uint16_t; CALL; break; }               \
    case Dt::i32: { using T = int32_t; CALL; break; }                \
    case Dt::u32: { using T = uint32_t; CALL; break; }               \
    default: unsupported(op, dt, loc);                               \
    }

#define ASCENDCRAFT_EMU_DISPATCH_ARITH(dt, CALL)                     \
    switch (dt) {                                                    \
    case Dt::f16: { using T = half; CALL; break; }                   \
    case Dt::f32: { using T = float; CALL; break; }                  \
    case Dt::i16: { using T = int16_t; CALL; break; }                \
    case Dt::i32: { using T = int32_t; CALL; break; }                \
    default: unsupported(op, dt, loc);                               \
    }

// ---- conversions with a rounding mode --------------------------------------------------------------------
enum Round : uint8_t { kNone = 0, kRint, kFloor, kCeil, kRound, kTrunc, kOdd };

// Next representable value above / below for a 16-bit IEEE-style pattern (half, bfloat16).
uint16_t next16(uint16_t bits, bool up, uint16_t inf) {
    bool neg = bits & 0x8000;
    uint16_t mag = bits & 0x7fff;
    if (mag > inf) return bits;  // NaN
    if (mag == 0) return up ? 0x0001 : 0x8001;
    if (up != neg) return mag == inf ? bits : static_cast<uint16_t>(bits + 1);
    return static_cast<uint16_t>(bits - 1);
}

struct HalfFmt {
    static uint16_t nearest(double x) { half h = static_cast<half>(x); uint16_t b; std::memcpy(&b, &h, 2); return b; }
    static double value(uint16_t b) { half h; std::memcpy(&h, &b, 2); return static_cast<float>(h); }
    static constexpr uint16_t inf = 0x7c00;
};
struct Bf16Fmt {
    static uint16_t nearest(double x) { return bfloat16_t::from_float(static_cast<float>(x)); }
    static double value(uint16_t b) { return bfloat16_t::to_float(b); }
    static constexpr uint16_t inf = 0x7f80;
};

template <typename Fmt> uint16_t round16(double x, uint8_t mode) {
    uint16_t n = Fmt::nearest(x);
    double dn = Fmt::value(n);
    if (dn == x || std::isnan(x)) return n;
    uint16_t lo, hi;
    if (dn < x) { lo = n; hi = next16(n, true, Fmt::inf); }
    else { hi = n; lo = next16(n, false, Fmt::inf); }
    switch (mode) {
    case kFloor: return lo;
    case kCeil: return hi;
    case kTrunc: return x > 0 ? lo : hi;
    case kRound: {
        double dl = x - Fmt::value(lo), dh = Fmt::value(hi) - x;
        return dl < dh ? lo : (dh < dl ? hi : (x > 0 ? hi : lo));
    }
    case kOdd: return (lo & 1) ? lo : hi;
    default: return n;
    }
}

float round_float(double x, uint8_t mode) {
    float n = static_cast<float>(x);
    if (static_cast<double>(n) == x || std::isnan(x)) return n;
    float lo, hi;
    if (static_cast<double>(n) < x) { lo = n; hi = std::nextafter(n, INFINITY); }
    else { hi = n; lo = std::nextafter(n, -INFINITY); }
    switch (mode) {
    case kFloor: return lo;
    case kCeil: return hi;
    case kTrunc: return x > 0 ? lo : hi;
    case kRound: {
        double dl = x - lo, dh = hi - x;
        return dl < dh ? lo : (dh < dl ? hi : (x > 0 ? hi : lo));
    }
    case kOdd: { uint32_t b; std::memcpy(&b, &lo, 4); return (b & 1) ? lo : hi; }
    default: return n;
    }
}

double round_integral(double x, uint8_t mode) {
    switch (mode) {
    case kFloor: return std::floor(x);
    case kCeil: return std::ceil(x);
    case kRound: return std::round(x);
    case kTrunc: return std::trunc(x);
    default: return std::nearbyint(x);
    }
}

template <typename I> I to_int(double x, uint8_t mode) {
    if (std::isnan(x)) return 0;
    double r = round_integral(x, mode);
    double lo = static_cast<double>(std::numeric_limits<I>::min()), hi = static_cast<double>(std::numeric_limits<I>::max());
    if (r <= lo) return std::numeric_limits<I>::min();
    if (r >= hi) return std::numeric_limits<I>::max();
    return static_cast<I>(r);
}

void convert(Dt dst, Dt src, uint8_t mode, const uint8_t* s, uint8_t* d) {
    double x = load_d(src, s);
    switch (dst) {
    case Dt::f16: { uint16_t b = round16<HalfFmt>(x, mode); std::memcpy(d, &b, 2); break; }
    case Dt::bf16: { uint16_t b = round16<Bf16Fmt>(x, mode); std::memcpy(d, &b, 2); break; }
    case Dt::f32: {
        float f = src == Dt::f32 ? static_cast<float>(mode == kNone ? x : round_integral(x, mode)) : round_float(x, mode);
        std::memcpy(d, &f, 4);
        break;
    }
    case Dt::i8: { int8_t v = to_int<int8_t>(x, mode); std::memcpy(d, &v, 1); break; }
    case Dt::u8: { uint8_t v = to_int<uint8_t>(x, mode); std::memcpy(d, &v, 1); break; }
    case Dt::i16: { int16_t v = to_int<int16_t>(x, mode); std::memcpy(d, &v, 2); break; }
    case Dt::i32: {
        int32_t v;
        if (src == Dt::i64) { int64_t w; std::memcpy(&w, s, 8); v = static_cast<int32_t>(w); }
        else v = to_int<int32_t>(x, mode);
        std::memcpy(d, &v, 4);
        break;
    }
    case Dt::i64: {
        int64_t v;
        if (src == Dt::i32) { int32_t w; std::memcpy(&w, s, 4); v = w; }
        else v = to_int<int64_t>(x, mode);
        std::memcpy(d, &v, 8);
        break;
    }
    default: break;
    }
}

// Round modes allowed for a conversion on A2 (bit per RoundMode; the header rejects other pairs).
uint32_t cast_modes(Dt d, Dt s) {
    const uint32_t five = 0x3e, none = 0x01, odd = 0x40;
    if (s == Dt::f16 && d == Dt::f32) return none;
    if (s == Dt::f16 && (d == Dt::i32 || d == Dt::i16)) return five;
    if (s == Dt::f16 && (d == Dt::i8 || d == Dt::u8)) return five | none;
    if (s == Dt::f32 && d == Dt::f32) return five;
    if (s == Dt::f32 && d == Dt::f16) return five | none | odd;
    if (s == Dt::f32 && (d == Dt::i32 || d == Dt::i64 || d == Dt::i16 || d == Dt::bf16)) return five;
    if (s == Dt::bf16 && d == Dt::f32) return none;
    if (s == Dt::bf16 && d == Dt::i32) return five;
    if (s == Dt::i16 && d == Dt::f16) return five | none;
    if (s == Dt::i16 && d == Dt::f32) return none;
    if (s == Dt::i32 && d == Dt::f32) return five | none;
    if (s == Dt::i32 && d == Dt::f16) return five | none | odd;   // by SetDeqScale's factor; the round mode does not apply
    if (s == Dt::i32 && (d == Dt::i16 || d == Dt::i64)) return none;
    if (s == Dt::i64 && d == Dt::i32) return none;
    if ((s == Dt::u8 || s == Dt::i8) && d == Dt::f16) return none;
    if (s == Dt::i64 && d == Dt::f32) return five;
    return 0;
}

const char* round_name(uint8_t m) {
    static const char* const names[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
    return m < 7 ? names[m] : "?";
}

bool compare(uint8_t mode, double a, double b) {
    switch (mode) {
    case 0: return a < b;
    case 1: return a > b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a >= b;
    default: return a != b;
    }
}
const char* cmp_name(uint8_t m) {
    static const char* const names[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
    return m < 6 ? names[m] : "?";
}

}  // namespace

// ---- entry points -------------------------------------------------------------------------------------------
void vec_binary(Op op, Dt dt, const Local& d, const Local& a, const Local& b, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    Geometry g = resolve(lanes, 256 / es, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src0");
    check_operand(g, b, s[2], es, true, op, loc, "src1");
    const bool accumulates = op == Op::FusedMulAdd;  // reads dst as well
    check_operand(g, d, s[0], es, accumulates, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        race.read(g, b, s[2], es);
        if (accumulates) race.read(g, d, s[0], es);
        race.write(g, d, s[0], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es * (accumulates ? 4 : 3), g.active(), repeats_of(g, es));
    if (!tracing_now()) {
        ASCENDCRAFT_EMU_DISPATCH_VEC(dt, binary_t<T>(op, g, d, a, b, s));
        mark_operand(g, d, s[0], es);
    }
    restore_mask_after_level2(lanes);
}

void vec_unary(Op op, Dt dt, const Local& d, const Local& a, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    static thread_local bool copy_repeat = false;   // inside one repeat of such a Copy: the generic counter mode
    if (op == Op::Copy && lanes.level0 && core().counter_mode && !copy_repeat) {
        // Copy in counter mode, as its documentation sets it apart from the other level-0 APIs: the mask counts the
        // elements of EACH repeat (ceil(mask * sizeof(T) / 32) blocks at the block strides) and repeatTime counts; the
        // repeats start at the repeat strides. Each repeat is the generic counter-mode instruction over its `mask`
        // elements whose 8-block chunks follow each other at the block stride.
        const uint64_t per = lanes.setMask ? lanes.mask[0] : core().counter_value;
        const Stride chunked[2] = {{s[0].blk, 8 * s[0].blk}, {s[1].blk, 8 * s[1].blk}};
        for (uint32_t r = 0; r < lanes.repeats; ++r) {
            auto at = [r](const Local& v, uint32_t rep) {
                Local o = v;
                const uint64_t off = static_cast<uint64_t>(r) * rep * 32;
                o.addr += off;
                o.bytes = off < o.bytes ? static_cast<uint32_t>(o.bytes - off) : 0;
                o.cap = off < o.cap ? static_cast<uint32_t>(o.cap - off) : 0;
                return o;
            };
            Lanes one = lanes;
            one.setMask = true;
            one.bitMask = false;
            one.mask[0] = per;
            one.repeats = 1;
            copy_repeat = true;
            vec_unary(op, dt, at(d, s[0].rep), at(a, s[1].rep), one, chunked, loc);
            copy_repeat = false;
        }
        core().counter_value = per;
        return;
    }
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    Geometry g = resolve(lanes, 256 / es, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src");
    check_operand(g, d, s[0], es, false, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        race.write(g, d, s[0], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es * 2, g.active(), repeats_of(g, es));
    if (!tracing_now() && op == Op::Copy) {   // vcopy: the element's bits, whatever its type
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) {
            std::memcpy(d.addr + lane_offset(g, s[0], es, r, l), a.addr + lane_offset(g, s[1], es, r, l), es);
        });
        mark_operand(g, d, s[0], es);
    } else if (!tracing_now()) {
        ASCENDCRAFT_EMU_DISPATCH_VEC(dt, unary_t<T>(op, g, d, a, s));
        mark_operand(g, d, s[0], es);
    }
    restore_mask_after_level2(lanes);
}

void vec_scalar(Op op, Dt dt, const Local& d, const Local& a, Scalar v, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    Geometry g = resolve(lanes, 256 / es, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src");
    check_operand(g, d, s[0], es, false, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        race.write(g, d, s[0], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es * 2, g.active(), repeats_of(g, es));
    if (!tracing_now()) {
        ASCENDCRAFT_EMU_DISPATCH_ARITH(dt, scalar_t<T>(op, g, d, a, v, s));
        mark_operand(g, d, s[0], es);
    }
    restore_mask_after_level2(lanes);
}

void vec_axpy(Dt dstDt, Dt srcDt, const Local& d, const Local& a, Scalar v, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    const Op op = Op::Axpy;
    enter(op, loc);
    const uint32_t de = dt_size(dstDt), se = dt_size(srcDt);
    Geometry g = resolve(lanes, 256 / std::max(de, se), op, loc);
    check_operand(g, a, s[1], se, true, op, loc, "src");
    check_operand(g, d, s[0], de, true, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], se);
        race.read(g, d, s[0], de);
        race.write(g, d, s[0], de);
    }
    record(TPipe_::V, TKind::INSTR, op, dstDt, level_flags(g), loc, g.active() * (se + 2 * de), g.active(), repeats_of(g, std::max(de, se)));
    if (!tracing_now()) {
        const float k = static_cast<float>(v.f);
        uint8_t* const d0 = d.addr;
        const uint8_t* const a0 = a.addr;
        // float += float * k over a contiguous range, the source the destination itself or apart from it: the same
        // float arithmetic as the loop below, which the compiler vectorises here
        if (g.contiguous && dstDt == Dt::f32 && srcDt == Dt::f32 && (a0 == d0 || !overlaps(a0, g.count * 4, d0, g.count * 4))) {
            for (uint64_t i = 0; i < g.count; ++i) st<float>(d0 + 4 * i, ld<float>(d0 + 4 * i) + ld<float>(a0 + 4 * i) * k);
        } else
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) {
            uint8_t* pd = d.addr + lane_offset(g, s[0], de, r, l);
            float x = static_cast<float>(load_d(srcDt, a.addr + lane_offset(g, s[1], se, r, l)));
            float y = static_cast<float>(load_d(dstDt, pd)) + x * k;
            if (dstDt == Dt::f16) st<half>(pd, y);
            else st<float>(pd, y);
        });
        mark_operand(g, d, s[0], de);
    }
    restore_mask_after_level2(lanes);
}

void vec_shift(Op op, Dt dt, const Local& d, const Local& a, Scalar distance, bool roundEn, const Lanes& lanes, const Stride* s,
               SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt), bits = 8 * es;
    if (distance.i < 0 || distance.i > static_cast<int64_t>(bits))
        Report("shift-range", op, loc)
            .msg("%s by %lld bits on %s; the distance must be 0..%u on Ascend 910B (A2)", op_name(op),
                 static_cast<long long>(distance.i), dt_name(dt), bits)
            .val("distance", distance.i).val("bits", bits)
            .hint("shift by at most the element width (split a longer shift, or use a 32-bit type)").fail();
    Geometry g = resolve(lanes, 256 / es, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src");
    check_operand(g, d, s[0], es, false, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        race.write(g, d, s[0], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es * 2, g.active(), repeats_of(g, es));
    if (!tracing_now()) {
        ASCENDCRAFT_EMU_DISPATCH_INT(dt, shift_t<T>(op, g, d, a, static_cast<uint32_t>(distance.i), roundEn, s));
        mark_operand(g, d, s[0], es);
    }
    restore_mask_after_level2(lanes);
}

void vec_muladd_dst(Dt dstDt, Dt srcDt, const Local& d, const Local& a, const Local& b, const Lanes& lanes, const Stride* s,
                    SrcLoc loc) {
    const Op op = Op::MulAddDst;
    enter(op, loc);
    const uint32_t de = dt_size(dstDt), se = dt_size(srcDt);
    Geometry g = resolve(lanes, 256 / std::max(de, se), op, loc);  // half -> float: 64 lanes per repeat
    check_operand(g, a, s[1], se, true, op, loc, "src0");
    check_operand(g, b, s[2], se, true, op, loc, "src1");
    check_operand(g, d, s[0], de, true, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], se);
        race.read(g, b, s[2], se);
        race.read(g, d, s[0], de);
        race.write(g, d, s[0], de);
    }
    record(TPipe_::V, TKind::INSTR, op, dstDt, level_flags(g), loc, g.active() * (2 * se + 2 * de), g.active(),
           repeats_of(g, std::max(de, se)));
    if (!tracing_now()) {
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) {
            uint8_t* pd = d.addr + lane_offset(g, s[0], de, r, l);
            float x = static_cast<float>(load_d(srcDt, a.addr + lane_offset(g, s[1], se, r, l)));
            float y = static_cast<float>(load_d(srcDt, b.addr + lane_offset(g, s[2], se, r, l)));
            float z = x * y + static_cast<float>(load_d(dstDt, pd));
            if (dstDt == Dt::f16) st<half>(pd, z);
            else st<float>(pd, z);
        });
        mark_operand(g, d, s[0], de);
    }
    restore_mask_after_level2(lanes);
}

namespace {
// Bytes from a block-strided dst's start to the end of its last 32-byte block (8 blocks per repeat).
uint64_t block_dst_extent(uint32_t repeats, const Stride& s) {
    if (!repeats) return 0;
    return (static_cast<uint64_t>(repeats - 1) * s.rep + 7ull * s.blk + 1) * 32;
}
uint64_t block_dst_offset(uint32_t r, uint32_t k, const Stride& s) {
    return (static_cast<uint64_t>(r) * s.rep + static_cast<uint64_t>(k) * s.blk) * 32;
}
}  // namespace

void vec_brcb(Dt dt, const Local& d, const Local& a, uint32_t repeats, const Stride& dstStride, SrcLoc loc) {
    const Op op = Op::Brcb;
    enter(op, loc);
    const uint32_t es = dt_size(dt), epb = 32 / es;
    const Stride s{dstStride.blk ? dstStride.blk : 1u, dstStride.rep};  // a block stride of 0 counts as 1
    check_local(a, op, loc, "src0", 32);
    check_extent(a, static_cast<uint64_t>(repeats) * 8 * es, op, loc, "src0");
    check_local(d, op, loc, "dst", 32);
    check_extent(d, block_dst_extent(repeats, s), op, loc, "dst");
    // before the record: in trace mode auto-sync's waits go in front of the instruction
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(a.addr, static_cast<uint64_t>(repeats) * 8 * es);
        for (uint32_t r = 0; r < repeats; ++r)
            for (uint32_t k = 0; k < 8; ++k) race.write(d.addr + block_dst_offset(r, k, s), 32);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, static_cast<uint64_t>(repeats) * (8 * es + 256),
           static_cast<uint64_t>(repeats) * 8 * epb, repeats);
    if (tracing_now()) return;
    check_initialised(a, 0, static_cast<uint64_t>(repeats) * 8 * es, op, loc, "src0");
    for (uint32_t r = 0; r < repeats; ++r)
        for (uint32_t k = 0; k < 8; ++k) {
            const uint8_t* value = a.addr + (static_cast<uint64_t>(r) * 8 + k) * es;
            uint8_t* block = d.addr + block_dst_offset(r, k, s);
            for (uint32_t e = 0; e < epb; ++e) std::memcpy(block + e * es, value, es);
            mark_written(d, block_dst_offset(r, k, s), 32);
        }
}

void vec_gatherb(Dt dt, const Local& d, const Local& src, const Local& offsets, uint32_t repeats, const Stride& dstStride, SrcLoc loc) {
    const Op op = Op::Gatherb;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const Stride s{dstStride.blk, dstStride.rep};
    check_local(src, op, loc, "src0", 32);
    check_local(offsets, op, loc, "offset", 32);
    check_extent(offsets, static_cast<uint64_t>(repeats) * 8 * 4, op, loc, "offset");
    check_local(d, op, loc, "dst", 32);
    check_extent(d, block_dst_extent(repeats, s), op, loc, "dst");
    if (tracing_now()) {  // the offsets are data the trace does not have: all of src counts as read, as for auto-sync
        if (RaceScope race{TPipe_::V, op, loc}) {
            race.read(offsets.addr, static_cast<uint64_t>(repeats) * 8 * 4);
            race.read(src.addr, src.bytes);
            for (uint32_t r = 0; r < repeats; ++r)
                for (uint32_t k = 0; k < 8; ++k) race.write(d.addr + block_dst_offset(r, k, s), 32);
        }
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, static_cast<uint64_t>(repeats) * (2 * 256 + 32),
           static_cast<uint64_t>(repeats) * 256 / es, repeats);
    if (tracing_now()) return;
    check_initialised(offsets, 0, static_cast<uint64_t>(repeats) * 8 * 4, op, loc, "offset");
    RaceScope race(TPipe_::V, op, loc);
    race.read(offsets.addr, static_cast<uint64_t>(repeats) * 8 * 4);
    for (uint32_t r = 0; r < repeats; ++r)
        for (uint32_t k = 0; k < 8; ++k) {
            const uint64_t index = static_cast<uint64_t>(r) * 8 + k;
            uint32_t off;
            std::memcpy(&off, offsets.addr + index * 4, 4);
            if (off % 32 != 0)
                Report("ub-misaligned", op, loc)
                    .msg("Gatherb: offset[%llu] = %u bytes is not a multiple of 32 (it addresses a whole 32-byte block of src0)",
                         static_cast<unsigned long long>(index), off)
                    .val("index", static_cast<int64_t>(index)).val("offset", off)
                    .hint("offsets are byte offsets of 32-byte blocks: block index * 32").fail();
            if (static_cast<uint64_t>(off) + 32 > src.bytes)
                Report("ub-out-of-range", op, loc)
                    .msg("Gatherb: offset[%llu] = %u bytes reaches past the end of src0 (%u bytes)",
                         static_cast<unsigned long long>(index), off, src.bytes)
                    .val("index", static_cast<int64_t>(index)).val("offset", off).val("tensor_bytes", src.bytes)
                    .hint("offsets are relative to src0 and each reads 32 bytes").fail();
            check_initialised(src, off, 32, op, loc, "src0");
            race.read(src.addr + off, 32);
            race.write(d.addr + block_dst_offset(r, k, s), 32);
            std::memcpy(d.addr + block_dst_offset(r, k, s), src.addr + off, 32);
            mark_written(d, block_dst_offset(r, k, s), 32);
        }
}

void vec_transpose16(Dt dt, const Local& d, const Local& a, SrcLoc loc) {
    const Op op = Op::Transpose;
    enter(op, loc);
    constexpr uint32_t kSide = 16, kBytes = kSide * kSide * 2;
    check_local(a, op, loc, "src", 32);
    check_extent(a, kBytes, op, loc, "src");
    check_local(d, op, loc, "dst", 32);
    check_extent(d, kBytes, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {  // before the record: auto-sync's waits go in front of it
        race.read(a.addr, kBytes);
        race.write(d.addr, kBytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, 2 * kBytes, kSide * kSide, kBytes / 256);
    if (tracing_now()) return;
    check_initialised(a, 0, kBytes, op, loc, "src");
    uint16_t m[kSide * kSide];  // copied first: src and dst may be the same tensor
    std::memcpy(m, a.addr, kBytes);
    for (uint32_t i = 0; i < kSide; ++i)
        for (uint32_t j = 0; j < kSide; ++j) std::memcpy(d.addr + (j * kSide + i) * 2, &m[i * kSide + j], 2);
    mark_written(d, 0, kBytes);
}

void vec_transpose4d(Dt dt, const Local& d, const Local& a, const Local& tmp, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                     bool to_nhwc, SrcLoc loc) {
    const Op op = Op::Transpose;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const uint64_t image = static_cast<uint64_t>(h) * w, bytes = static_cast<uint64_t>(n) * c * image * es;
    if ((image * es) % 32 != 0)
        Report("transpose-shape", op, loc)
            .msg("Transpose (TransposeParamsExt): H * W = %llu elements of %u bytes is not a whole number of 32-byte blocks",
                 static_cast<unsigned long long>(image), es)
            .val("hSize", h).val("wSize", w)
            .hint("A2 moves each H x W image in 32-byte blocks: pad W (or H) so that H * W * sizeof(T) is a multiple of 32")
            .fail();
    check_local(a, op, loc, "src", 32);
    check_extent(a, bytes, op, loc, "src");
    check_local(d, op, loc, "dst", 32);
    check_extent(d, bytes, op, loc, "dst");
    check_local(tmp, op, loc, "sharedTmpBuffer", 32);
    if (tmp.bytes == 0)
        Report("transpose-tmp", op, loc).msg("Transpose (TransposeParamsExt): the sharedTmpBuffer is empty")
            .hint("give it (2 * C + 1) * 16 * (32 / sizeof(T)) elements (32 rows for 1-byte types)").fail();
    if (ub_overlap(d, bytes, a, bytes))
        Report("adv-overlap", op, loc).msg("Transpose (TransposeParamsExt): dst and src overlap")
            .hint("write the result to a different buffer").fail();
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(a.addr, bytes);
        race.write(d.addr, bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, 2 * bytes, bytes / es, static_cast<uint32_t>((bytes + 255) / 256));
    if (tracing_now()) return;
    check_initialised(a, 0, bytes, op, loc, "src");
    for (uint64_t b = 0; b < n; ++b)
        for (uint64_t ch = 0; ch < c; ++ch)
            for (uint64_t p = 0; p < image; ++p) {
                const uint64_t nchw = (b * c + ch) * image + p, nhwc = (b * image + p) * c + ch;
                std::memcpy(d.addr + (to_nhwc ? nhwc : nchw) * es, a.addr + (to_nhwc ? nchw : nhwc) * es, es);
            }
    mark_written(d, 0, bytes);
}

void vec_duplicate(Dt dt, const Local& d, Scalar v, const Lanes& lanes, const Stride& s, SrcLoc loc) {
    const Op op = Op::Duplicate;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    Geometry g = resolve(lanes, 256 / es, op, loc);
    check_operand(g, d, s, es, false, op, loc, "dst");
    RaceScope(TPipe_::V, op, loc).write(g, d, s, es);
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es, g.active(), repeats_of(g, es));
    if (!tracing_now()) {
        uint8_t value[8] = {};
        switch (dt) {
        case Dt::f16: { half h = static_cast<half>(static_cast<float>(v.f)); std::memcpy(value, &h, 2); break; }
        case Dt::bf16: { uint16_t b = bfloat16_t::from_float(static_cast<float>(v.f)); std::memcpy(value, &b, 2); break; }
        case Dt::f32: { float f = static_cast<float>(v.f); std::memcpy(value, &f, 4); break; }
        default: std::memcpy(value, &v.i, es); break;  // little-endian: the low bytes of the integer
        }
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) { std::memcpy(d.addr + lane_offset(g, s, es, r, l), value, es); });
        mark_operand(g, d, s, es);
    }
    restore_mask_after_level2(lanes);
}

// A contiguous (counter-mode) Cast between the float formats kernels use most, as typed loops the compiler vectorises:
// the values `convert` gives, element for element (bf16/half -> float are exact but for a signalling NaN, which comes
// out quiet; float -> bf16 / half to nearest-even
// is what round16 returns for CAST_RINT and CAST_NONE, whose other branches only run for the directed modes).
// False (nothing done) for any other conversion or mode, or when the operands overlap: `convert`'s lane-by-lane order
// then stays the rule.
// A float's bits with a signalling NaN made quiet, as `convert`'s pass through double leaves it (x86 sets the quiet bit).
inline uint32_t quiet(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) ? u | 0x00400000u : u; }

bool cast_contiguous(Dt dstDt, Dt srcDt, uint8_t round, const uint8_t* from, uint8_t* to, uint64_t n) {
    if (overlaps(from, n * dt_size(srcDt), to, n * dt_size(dstDt))) return false;
    const bool nearest = round == kNone || round == kRint;
    if (srcDt == Dt::bf16 && dstDt == Dt::f32 && round == kNone) {
        for (uint64_t i = 0; i < n; ++i) st<uint32_t>(to + 4 * i, quiet(static_cast<uint32_t>(ld<uint16_t>(from + 2 * i)) << 16));
        return true;
    }
    if (srcDt == Dt::f32 && dstDt == Dt::bf16 && nearest) {
        for (uint64_t i = 0; i < n; ++i) st<uint16_t>(to + 2 * i, bfloat16_t::from_float(ld<float>(from + 4 * i)));
        return true;
    }
    if (srcDt == Dt::f16 && dstDt == Dt::f32 && round == kNone) {
        for (uint64_t i = 0; i < n; ++i) {
            const float v = static_cast<float>(ld<half>(from + 2 * i));
            uint32_t u;
            std::memcpy(&u, &v, 4);
            st<uint32_t>(to + 4 * i, quiet(u));
        }
        return true;
    }
    if (srcDt == Dt::f32 && dstDt == Dt::f16 && nearest) {
        for (uint64_t i = 0; i < n; ++i) st<half>(to + 2 * i, static_cast<half>(static_cast<double>(ld<float>(from + 4 * i))));
        return true;
    }
    return false;
}

void vec_cast(Dt dstDt, Dt srcDt, uint8_t round, const Local& d, const Local& a, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    const Op op = Op::Cast;
    enter(op, loc);
    uint32_t allowed = cast_modes(dstDt, srcDt);
    if (round > 6 || !(allowed & (1u << round)))
        Report("cast-mode", op, loc)
            .msg("Cast %s -> %s with RoundMode::%s, which Ascend 910B (A2) does not support for this conversion", dt_name(srcDt),
                 dt_name(dstDt), round_name(round))
            .val("round_mode", round_name(round))
            .hint("%s -> %s allows: %s%s%s%s%s%s%s", dt_name(srcDt), dt_name(dstDt), allowed & 1 ? "CAST_NONE " : "",
                  allowed & 2 ? "CAST_RINT " : "", allowed & 4 ? "CAST_FLOOR " : "", allowed & 8 ? "CAST_CEIL " : "",
                  allowed & 16 ? "CAST_ROUND " : "", allowed & 32 ? "CAST_TRUNC " : "", allowed & 64 ? "CAST_ODD" : "")
            .fail();
    const uint32_t de = dt_size(dstDt), se = dt_size(srcDt);
    Geometry g = resolve(lanes, 256 / std::max(de, se), op, loc);
    check_operand(g, a, s[1], se, true, op, loc, "src");
    check_operand(g, d, s[0], de, false, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], se);
        race.write(g, d, s[0], de);
    }
    record(TPipe_::V, TKind::INSTR, op, de >= se ? dstDt : srcDt, level_flags(g), loc, g.active() * (de + se), g.active(),
           repeats_of(g, std::max(de, se)));
    if (!tracing_now()) {
        const bool deq = srcDt == Dt::i32 && dstDt == Dt::f16;   // s322fp16: times the DEQSCALE register
        const float scale = core().deq_scale;
        if (!(g.contiguous && !deq && cast_contiguous(dstDt, srcDt, round, a.addr, d.addr, g.count)))
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t) {
            const uint8_t* from = a.addr + lane_offset(g, s[1], se, r, l);
            uint8_t* to = d.addr + lane_offset(g, s[0], de, r, l);
            if (!deq) return convert(dstDt, srcDt, round, from, to);
            int32_t v;
            std::memcpy(&v, from, 4);
            const half h = static_cast<half>(static_cast<float>(static_cast<double>(v) * scale));
            std::memcpy(to, &h, 2);
        });
        mark_operand(g, d, s[0], de);
    }
    restore_mask_after_level2(lanes);
}

// A source of Compare. A2 ignores Compare's mask and reads whole 256-byte repeats: a level-0 Compare whose mask asks
// only for elements inside its source tensor reads the bytes after it too. On the NPU those are just UB addresses (it
// uses only the bits the mask asked for), so inside UB that is a warning, once per place, and only the asked elements
// must hold data; CANN's CPU-debug build stops there. NPUKernelBench's CrossEntropyLossGrad answer, which passed on the
// 910B, compares 8 floats (mask 8, one repeat) of a 32-byte tensor.
static void compare_source(const Geometry& g, const Lanes& lanes, uint32_t epr, const Local& t, const Stride& s,
                           uint32_t es, Op op, const SrcLoc& loc, const char* role) {
    const uint64_t whole = operand_extent(g, s, es);
    if (lanes.level0 && whole > t.bytes && t.addr >= core().ub && t.addr < core().ub + g_launch->ub_bytes &&
        ub_offset(t.addr) + whole <= g_launch->ub_bytes) {
        const Geometry asked = resolve(lanes, epr, op, loc, false);
        if (operand_extent(asked, s, es) <= t.bytes) {
            if (first_report_at("ub-out-of-range", loc))
                Report("ub-out-of-range", op, loc)
                    .msg("%s: the %s operand holds the %llu bytes the mask asks for, but A2 ignores Compare's mask and reads "
                         "whole 256-byte repeats, %llu bytes, past its %u; the NPU reads those UB bytes (CANN's CPU-debug "
                         "build stops here), and so does the emulator", op_name(op), role,
                         static_cast<unsigned long long>(operand_extent(asked, s, es)), static_cast<unsigned long long>(whole),
                         t.bytes)
                    .val("operand", role).val("bytes_needed", static_cast<int64_t>(whole)).val("tensor_bytes", t.bytes)
                    .hint("size the tensor for whole repeats (64 floats / 128 halves each)").warn();
            check_operand(asked, t, s, es, true, op, loc, role);
            return;
        }
    }
    check_operand(g, t, s, es, true, op, loc, role);
}

void vec_compare(Op op, Dt dt, uint8_t mode, const Local& d, const Local& a, const Local* b, Scalar v, const Lanes& lanes,
                 const Stride* s, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es;
    if (dt == Dt::i32 && mode != 2)
        Report("unsupported", op, loc).msg("%s on int32_t supports only CMPMODE::EQ on Ascend 910B (A2), not CMPMODE::%s",
                                           op_name(op), cmp_name(mode))
            .hint("cast to float first, or compare for equality").fail();
    // The count form: Compare.md / Compares.md ask for a count of whole 256-byte blocks, and say that the elements of
    // an unaligned tail take no part, only the whole blocks count. So the NPU compares the whole repeats and leaves the
    // tail's bits of dst as they were, and so does the emulator, with a warning (once per line).
    Lanes whole = lanes;
    if (!lanes.level0 && (lanes.count * es) % 256 != 0) {
        whole.count = lanes.count / epr * epr;
        if (first_report_at("compare-count", loc))
            Report("compare-count", op, loc)
                .msg("%s of %llu %s elements = %llu bytes, not whole 256-byte repeats: the API reference says the unaligned "
                     "tail takes no part, so the NPU compares the first %llu elements only and leaves the other bits of dst as "
                     "they were, and so does the emulator",
                     op_name(op), static_cast<unsigned long long>(lanes.count), dt_name(dt),
                     static_cast<unsigned long long>(lanes.count * es), static_cast<unsigned long long>(whole.count))
                .val("count", static_cast<int64_t>(lanes.count)).val("multiple", epr)
                .hint("round the count up to a multiple of %u and size the tensors for it", epr).warn();
    }
    Geometry g = resolve(whole, epr, op, loc, true);  // A2 ignores the mask of Compare
    compare_source(g, whole, epr, a, s[1], es, op, loc, "src0");
    if (b) compare_source(g, whole, epr, *b, s[2], es, op, loc, "src1");
    const uint64_t bits = g.contiguous ? g.count : static_cast<uint64_t>(g.repeats) * epr;
    check_local(d, op, loc, "dst", 32);
    check_extent(d, (bits + 7) / 8, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s[1], es);
        if (b) race.read(g, *b, s[2], es);
        race.write(d.addr, (bits + 7) / 8);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es * (b ? 2 : 1) + (bits + 7) / 8, g.active(),
           repeats_of(g, es));
    if (!tracing_now()) {
        std::memset(d.addr, 0, (bits + 7) / 8);
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t k) {
            double x = load_d(dt, a.addr + lane_offset(g, s[1], es, r, l));
            double y = b ? load_d(dt, b->addr + lane_offset(g, s[2], es, r, l)) : (dt == Dt::i32 ? static_cast<double>(v.i) : v.f);
            if (compare(mode, x, y)) d.addr[k / 8] |= static_cast<uint8_t>(1u << (k % 8));
        });
        mark_written(d, 0, (bits + 7) / 8);
    }
    restore_mask_after_level2(lanes);
}

namespace {
// Select modes 1 and 2 on A2 first write 32 elements (mode 1: the scalar src1; mode 2: the selMask address as 32-bit
// words) into the devkit's temporary buffer at the top of UB (8 KB below the end: 184 KB on the 910B) and load the
// compare-mask register from there. Those bytes are clobbered on the NPU whatever the kernel keeps in them. If
// InitBuffer allocations reach them: the kernel's written data there is an error (it would be lost); bytes nothing
// has written yet (a buffer of a branch the kernel does not take, or filled only later) get the scratch value, as on
// the NPU, with a warning.
void select_scratch(Dt dt, uint8_t mode, Scalar v, Op op, const SrcLoc& loc) {
    const uint32_t top = g_launch->ub_bytes, lo = top > 8192 ? top - 8192 : 0;
    const uint32_t n = 32 * (mode == 1 ? dt_size(dt) : 4u), used = ub_in_use();
    if (used <= lo) return;
    const uint32_t hi = std::min(lo + n, std::min(used, top));
    Core& c = core();
    bool holds_data = false;  // a byte of [lo, hi) the kernel wrote (bit i % 64 of c.written[i / 64])
    for (uint32_t i = lo; !tracing_now() && i < hi && i < c.written_bytes && !holds_data; ++i)
        holds_data = (c.written[i / 64] >> (i % 64)) & 1u;
    if (holds_data)
        Report("select-scratch", op, loc)
            .msg("Select in mode %u writes %u bytes of scratch at UB offset %u (the top 8 KB of UB, offsets %u..%u, is the "
                 "API's temporary buffer on A2), where the kernel's InitBuffer allocations (up to offset %u) hold data it "
                 "wrote: the data would be overwritten", mode, n, lo, lo, top - 1, used)
            .val("ub_used", used).val("scratch_offset", lo)
            .hint("keep the InitBuffer total at or below %u bytes when the kernel uses Select modes 1 or 2", lo).fail();
    if (first_report_at("select-scratch", loc))
        Report("select-scratch", op, loc)
            .msg("Select in mode %u writes %u bytes of scratch at UB offset %u (the API's temporary buffer at the top of UB on "
                 "A2), inside the kernel's InitBuffer allocations (up to offset %u); nothing is stored there yet, so the "
                 "kernel runs as on the NPU, and those bytes now hold the scratch value", mode, n, lo, used)
            .val("ub_used", used).val("scratch_offset", lo)
            .hint("keep the InitBuffer total at or below %u bytes when the kernel uses Select modes 1 or 2", lo).warn();
    if (tracing_now()) return;
    uint8_t word[4] = {};
    uint32_t es = mode == 1 ? dt_size(dt) : 4u;
    if (mode == 2) std::memcpy(word, &lo, 4);  // the mask address (any value: no kernel reads it)
    else if (dt == Dt::f16) { half h = static_cast<half>(static_cast<float>(v.f)); std::memcpy(word, &h, 2); }
    else { float f = static_cast<float>(v.f); std::memcpy(word, &f, 4); }
    for (uint32_t off = lo; off + es <= hi; off += es) std::memcpy(c.ub + off, word, es);
}
}  // namespace
// The same scratch write for the advanced APIs built on Select (SelectWithBytesMask, emu_select_bytes.cpp).
void select_reserved_scratch(Dt dt, uint8_t mode, Scalar v, Op op, const SrcLoc& loc) { select_scratch(dt, mode, v, op, loc); }

void vec_select(Dt dt, Dt maskDt, uint8_t mode, const Local& d, const Local& sel, const Local& a, const Local* b, Scalar v,
                const Lanes& lanes, const Stride* s, SrcLoc loc) {
    const Op op = Op::Select;
    enter(op, loc);
    (void)maskDt;
    const uint32_t es = dt_size(dt), epr = 256 / es;
    if (!b && mode != 1)
        Report("select-mode", op, loc).msg("Select with a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1), not mode %u", mode)
            .hint("pass a tensor src1 for modes 0 and 2").fail();
    if (b && mode != 0 && mode != 2)
        Report("select-mode", op, loc).msg("Select with a tensor src1 needs SELMODE 0 or 2, not mode %u", mode)
            .hint("use VSEL_TENSOR_TENSOR_MODE (or pass a scalar src1 for VSEL_TENSOR_SCALAR_MODE)").fail();
    if (mode == 1 || mode == 2) select_scratch(dt, mode, v, op, loc);
    Geometry g = resolve(lanes, epr, op, loc);
    check_operand(g, a, s[1], es, true, op, loc, "src0");
    if (b) check_operand(g, *b, s[2], es, true, op, loc, "src1");
    check_operand(g, d, s[0], es, false, op, loc, "dst");
    const uint64_t bits = mode == 0 ? epr : (g.contiguous ? g.count : static_cast<uint64_t>(g.repeats) * epr);
    check_local(sel, op, loc, "selMask", 32);
    check_extent(sel, (bits + 7) / 8, op, loc, "selMask");
    check_initialised(sel, 0, (bits + 7) / 8, op, loc, "selMask");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(sel.addr, (bits + 7) / 8);
        race.read(g, a, s[1], es);
        if (b) race.read(g, *b, s[2], es);
        race.write(g, d, s[0], es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es * (b ? 3 : 2) + (bits + 7) / 8, g.active(),
           repeats_of(g, es));
    if (!tracing_now()) {
        uint8_t scalar[8] = {};
        if (dt == Dt::f16) { half h = static_cast<half>(static_cast<float>(v.f)); std::memcpy(scalar, &h, 2); }
        else { float f = static_cast<float>(v.f); std::memcpy(scalar, &f, 4); }
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t k) {
            uint64_t bit = mode == 0 ? (g.contiguous ? k % epr : l) : k;
            bool take0 = (sel.addr[bit / 8] >> (bit % 8)) & 1;
            const uint8_t* src = take0 ? a.addr + lane_offset(g, s[1], es, r, l) : (b ? b->addr + lane_offset(g, s[2], es, r, l) : scalar);
            std::memcpy(d.addr + lane_offset(g, s[0], es, r, l), src, es);
        });
        mark_operand(g, d, s[0], es);
    }
    restore_mask_after_level2(lanes);
}

void vec_gather(Dt dt, const Local& d, const Local& src, const Local& offsets, uint32_t base, const Lanes& lanes,
                uint32_t dstRepStride, SrcLoc loc) {
    const Op op = Op::Gather;
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es;
    Geometry g = resolve(lanes, epr, op, loc);
    Stride ds{1, dstRepStride};
    check_operand(g, d, ds, es, false, op, loc, "dst");
    check_local(src, op, loc, "src", 32);
    const uint64_t n = g.contiguous ? g.count : static_cast<uint64_t>(g.repeats) * epr;
    check_local(offsets, op, loc, "srcOffset", 32);
    check_extent(offsets, n * 4, op, loc, "srcOffset");
    if (tracing_now()) {  // the offsets are data the trace does not have: all of src counts as read, as for auto-sync
        if (RaceScope race{TPipe_::V, op, loc}) {
            race.read(offsets.addr, n * 4);
            race.read(src.addr, src.bytes);
            race.write(g, d, ds, es);
        }
    }
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * (2 * es + 4), g.active(), repeats_of(g, es));
    if (tracing_now()) { restore_mask_after_level2(lanes); return; }
    RaceScope race(TPipe_::V, op, loc);
    race.read(offsets.addr, n * 4);
    race.write(g, d, ds, es);
    // The per-lane initialised-read checks are skipped where the whole of srcOffset (all n lanes) or of src is written:
    // each of them would pass (the loop writes only dst, and the written map changes after it), so the verdicts are
    // the same; otherwise every lane is checked in order, as before.
    const bool offsets_written = initialised(offsets, 0, n * 4), src_written = initialised(src, 0, src.bytes);
    auto check_at = [&](uint64_t k, uint64_t at) {  // srcOffset[k] addresses a whole element inside src
        if (at % es != 0)
            Report("ub-misaligned", op, loc)
                .msg("Gather: srcBaseAddr + srcOffset[%llu] = %llu bytes is not a multiple of sizeof(%s) = %u",
                     static_cast<unsigned long long>(k), static_cast<unsigned long long>(at), dt_name(dt), es)
                .val("index", static_cast<int64_t>(k)).val("offset", static_cast<int64_t>(at))
                .hint("srcOffset holds byte offsets: element index * sizeof(T)").fail();
        if (at + es > src.bytes)
            Report("ub-out-of-range", op, loc)
                .msg("Gather: srcBaseAddr + srcOffset[%llu] = %llu bytes points past the end of src (%u bytes)",
                     static_cast<unsigned long long>(k), static_cast<unsigned long long>(at), src.bytes)
                .val("index", static_cast<int64_t>(k)).val("offset", static_cast<int64_t>(at)).val("tensor_bytes", src.bytes)
                .hint("srcOffset holds byte offsets (element index * sizeof(T)) relative to src").fail();
    };
    // Gather.md: src and dst may not be the same memory. Public kernels do gather in place (ops-transformer's
    // RotaryPositionEmbedding swaps each pair of elements with Gather(x, x, offsets, ...)) and pass on the NPU, whose
    // vector unit reads an instruction's source before it writes: a warning, and the lanes read src as it was before
    // the instruction (a lane-by-lane copy would read elements earlier lanes had already overwritten).
    std::vector<uint8_t> before;
    const uint8_t* src_bytes = src.addr;
    const uint64_t dst_extent = operand_extent(g, ds, es);
    if (d.addr < src.addr + src.bytes && src.addr < d.addr + dst_extent) {
        if (first_report_at("gather-overlap", loc))
            Report("gather-overlap", op, loc)
                .msg("Gather: dst (UB offset %llu, %llu bytes) overlaps src (UB offset %llu, %u bytes); the API reference "
                     "(Gather.md) does not support src and dst in the same memory. The emulator reads src as it was before "
                     "the instruction, as the NPU's vector unit does for the forms public kernels use",
                     static_cast<unsigned long long>(ub_offset(d.addr)), static_cast<unsigned long long>(dst_extent),
                     static_cast<unsigned long long>(ub_offset(src.addr)), src.bytes)
                .hint("gather into a buffer of its own (a TBuf) and use that, or alternate two buffers").warn();
        before.assign(src.addr, src.addr + src.bytes);
        src_bytes = before.data();
    }
    // A level-2 Gather (count lanes, dst contiguous) with nothing to check per lane but the offset itself: one tight
    // loop of the element's type; a bad offset stops it with the same report, at the same lane, as the loop below.
    auto contiguous = [&](auto element) {
        using U = decltype(element);
        const uint8_t* const offs = offsets.addr;
        const uint8_t* const s0 = src_bytes;
        uint8_t* const d0 = d.addr;
        const uint64_t limit = src.bytes;
        for (uint64_t k = 0; k < g.count; ++k) {
            uint32_t off;
            std::memcpy(&off, offs + k * 4, 4);
            const uint64_t at = static_cast<uint64_t>(base) + off;
            if (__builtin_expect(at % sizeof(U) != 0 || at + sizeof(U) > limit, 0)) check_at(k, at);
            U v;
            std::memcpy(&v, s0 + at, sizeof(U));
            std::memcpy(d0 + k * sizeof(U), &v, sizeof(U));
        }
    };
    if (g.contiguous && offsets_written && src_written && es == 4) contiguous(uint32_t{});
    else if (g.contiguous && offsets_written && src_written && es == 2) contiguous(uint16_t{});
    else each_lane(g, [&](uint32_t r, uint64_t l, uint64_t k) {
        if (!offsets_written) check_initialised(offsets, k * 4, 4, op, loc, "srcOffset");
        uint32_t off;
        std::memcpy(&off, offsets.addr + k * 4, 4);
        uint64_t at = static_cast<uint64_t>(base) + off;
        check_at(k, at);
        if (!src_written) check_initialised(src, at, es, op, loc, "src");
        std::memcpy(d.addr + lane_offset(g, ds, es, r, l), src_bytes + at, es);
    });
    if (uint32_t* noted = race.notes(src)) {  // the bytes of src the lanes read (each inside one 32-byte block)
        each_lane(g, [&](uint32_t, uint64_t, uint64_t k) {
            uint32_t off;
            std::memcpy(&off, offsets.addr + k * 4, 4);
            const uint64_t at = static_cast<uint64_t>(base) + off;
            noted[at / 32] |= ((1u << es) - 1) << (at % 32);
        });
        race.read_noted(src);
    }
    mark_operand(g, d, ds, es);
    restore_mask_after_level2(lanes);
}

void vec_index(Dt dt, const Local& d, Scalar first, const Lanes& lanes, const Stride& s, SrcLoc loc) {
    const Op op = Op::CreateVecIndex;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    Geometry g = resolve(lanes, 256 / es, op, loc);
    check_operand(g, d, s, es, false, op, loc, "dst");
    RaceScope(TPipe_::V, op, loc).write(g, d, s, es);
    record(TPipe_::V, TKind::INSTR, op, dt, level_flags(g), loc, g.active() * es, g.active(), repeats_of(g, es));
    if (!tracing_now()) {
        each_lane(g, [&](uint32_t r, uint64_t l, uint64_t k) {
            uint8_t* p = d.addr + lane_offset(g, s, es, r, l);
            switch (dt) {
            case Dt::f16: st<half>(p, static_cast<float>(first.f + static_cast<double>(k))); break;
            case Dt::f32: st<float>(p, static_cast<float>(first.f + static_cast<double>(k))); break;
            case Dt::i16: st<int16_t>(p, static_cast<int16_t>(first.i + static_cast<int64_t>(k))); break;
            default: st<int32_t>(p, static_cast<int32_t>(first.i + static_cast<int64_t>(k))); break;
            }
        });
        mark_operand(g, d, s, es);
    }
    restore_mask_after_level2(lanes);
}

namespace {
// One element of an advanced math API, in float.
float adv_value(Op op, float x) {
    switch (op) {
    case Op::Tanh: return std::tanh(x);
    case Op::Sigmoid: return 1.0f / (1.0f + std::exp(-x));
    case Op::Erf: return std::erf(x);
    case Op::Sin: return std::sin(x);
    case Op::Cos: return std::cos(x);
    case Op::Floor: return std::floor(x);
    case Op::Ceil: return std::ceil(x);
    case Op::Round: return std::round(x);
    case Op::Trunc: return std::trunc(x);
    default: return x;
    }
}

// A2's Sigmoid computes in T, one vector instruction a step (Muls by -1, Exp, Adds 1, then a Div of ones by it), so a
// half Sigmoid is rounded to half after each step, not once at the end (cann-ops mul_sigmoid's float16 golden is those
// steps; one rounding differs from it by an ulp in a quarter of the elements). A float Sigmoid is adv_value's float
// arithmetic, which already rounds each step to float.
float sigmoid_in_half(float x) {
    const float e = static_cast<float>(static_cast<half>(std::exp(-x)));   // -x is exact; Exp rounds to half
    const float d = static_cast<float>(static_cast<half>(e + 1.0f));       // Adds rounds to half
    return 1.0f / d;                                                        // Div: rounded to half by the store
}
}  // namespace

void set_deq_scale(float scale, SrcLoc loc) {
    enter(Op::SetDeqScale, loc);
    Core& c = core();
    c.deq_set = true;
    c.deq_scale = scale;
}
bool deq_scale_set() { return core().deq_set; }

void signed_select_mask(SrcLoc loc) {
    if (!first_report_at("select-mask-type", loc)) return;
    Report("select-mask-type", Op::Select, loc)
        .msg("Select with an int8_t selMask: the API reference lists uint8_t, uint16_t, uint32_t and uint64_t masks; "
             "the NPU reads the mask's bits all the same, and so does the emulator")
        .hint("declare the mask tensor as uint8_t (Compare writes the same bits)").warn();
}

void vec_adv(Op op, Dt dt, const Local& d, const Local& a, const Local* tmp, uint64_t count, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    const uint64_t bytes = count * es;
    Geometry g;
    g.count = count;
    Stride s;
    check_operand(g, a, s, es, true, op, loc, "src");
    check_operand(g, d, s, es, false, op, loc, "dst");
    // A2's float Floor is one Cast with CAST_FLOOR (the devkit's float overload of the count form pops no stack buffer,
    // so it needs no free UB); its half Floor, and Ceil, Round and Trunc of either type, split the work by the
    // temporary space they pop.
    const bool needs_temporaries = !(op == Op::Floor && dt == Dt::f32);
    check_adv_elementwise(op, loc, d, a, nullptr, tmp, bytes, needs_temporaries);
    if (RaceScope race{TPipe_::V, op, loc}) {  // the temporaries in sharedTmpBuffer are not tracked
        race.read(a.addr, bytes);
        race.write(d.addr, bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, 2 * bytes, count, static_cast<uint32_t>((bytes + 255) / 256));
    if (tracing_now()) return;
    for (uint64_t i = 0; i < count; ++i) {
        float x = static_cast<float>(load_d(dt, a.addr + i * es));
        float y = op == Op::Sigmoid && dt == Dt::f16 ? sigmoid_in_half(x) : adv_value(op, x);
        if (dt == Dt::f16) st<half>(d.addr + i * es, y);
        else st<float>(d.addr + i * es, y);
    }
    mark_written(d, 0, bytes);
}

}}  // namespace ascendcraft::emu
