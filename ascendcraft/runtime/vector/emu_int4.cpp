// AscendCraft CPU emulation: 4-bit integers (int4b_t) on the vector unit. Ascend 910B (A2) converts half -> int4b_t
// (round modes CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC; the result saturates to -8..7) and
// int4b_t -> half (CAST_NONE only). In UB an int4b_t tensor holds two elements per byte, the even one in the low half.
// Both forms run: the count form (level 2) and the mask / repeat forms (level 0, and the raw intrinsics vconv_s42f16 /
// vconv_f162s4* under the mask register, counter mode included). A level-0 repeat is sized by the wider type, as the
// Cast page says: 128 lanes, 256 bytes of half and 64 bytes of int4b_t. Strides count 32-byte blocks for both operands,
// as for any Cast between types of different widths (the narrower operand's lanes fill its 32-byte blocks in order:
// 64 int4b_t lanes a block, so the page's contiguous example, half -> int4b_t {1, 1, 2, 8}, is dst repeat stride 2).
// The mask must keep both lanes of a byte alike (an even continuous mask, bit pairs 0-1, 2-3, ... equal; an even
// count), as the Cast page requires; otherwise it is an error at the call.
#include <algorithm>
#include <cmath>

#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {
constexpr uint8_t kInt4None = 0, kInt4Floor = 2, kInt4Ceil = 3, kInt4Round = 4, kInt4Trunc = 5;

int int4_round(double x, uint8_t mode) {
    if (std::isnan(x)) return 0;
    double r;
    switch (mode) {
    case kInt4Floor: r = std::floor(x); break;
    case kInt4Ceil: r = std::ceil(x); break;
    case kInt4Round: r = std::round(x); break;   // half away from zero
    case kInt4Trunc: r = std::trunc(x); break;
    default: r = std::nearbyint(x); break;       // CAST_RINT and CAST_NONE: to nearest, ties to even
    }
    return static_cast<int>(std::max(-8.0, std::min(7.0, r)));
}
const char* int4_round_name(uint8_t m) {
    static const char* const names[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
    return m < 7 ? names[m] : "?";
}
}  // namespace

// The int4b_t operand of a Cast as an operand of bytes: lane j of a repeat is the byte of int4b_t lanes 2j and 2j + 1
// (64 byte lanes a repeat), on when they are. False when some byte has one lane on and the other off.
static bool int4_bytes(const Geometry& g, Geometry* out) {
    Geometry b = g;
    if (g.contiguous) { b.count = g.count / 2; return g.count % 2 == 0 ? (*out = b, true) : false; }
    b.epr = 64;
    b.bits[0] = b.bits[1] = 0;
    for (uint32_t j = 0; j < 64; ++j) {
        const bool lo = (g.bits[(2 * j) >> 6] >> ((2 * j) & 63)) & 1, hi = (g.bits[(2 * j + 1) >> 6] >> ((2 * j + 1) & 63)) & 1;
        if (lo != hi) return false;
        if (lo) b.bits[0] |= 1ull << j;
    }
    if (g.last_lanes % 2) return false;
    b.last_lanes = g.last_lanes / 2;
    *out = b;
    return true;
}

void vec_cast_int4(bool toInt4, uint8_t round, const Local& d, const Local& a, const Lanes& lanes, const Stride* s, SrcLoc loc) {
    const Op op = Op::Cast;
    enter(op, loc);
    const uint32_t allowed = toInt4 ? 0x3f : 0x01;   // half -> int4b_t: NONE and the five; int4b_t -> half: NONE
    const char* from = toInt4 ? "half" : "int4b_t";
    const char* to = toInt4 ? "int4b_t" : "half";
    if (round > 6 || !(allowed & (1u << round)))
        Report("cast-mode", op, loc)
            .msg("Cast %s -> %s with RoundMode::%s, which Ascend 910B (A2) does not support for this conversion", from, to,
                 int4_round_name(round))
            .val("round_mode", int4_round_name(round))
            .hint(toInt4 ? "half -> int4b_t allows: CAST_NONE CAST_RINT CAST_FLOOR CAST_CEIL CAST_ROUND CAST_TRUNC"
                         : "int4b_t -> half allows: CAST_NONE")
            .fail();
    const Geometry g = resolve(lanes, 128, op, loc);   // a repeat: 128 lanes (256 bytes of half)
    Geometry q4;
    if (!int4_bytes(g, &q4)) {
        if (g.contiguous)
            Report("vector-count", op, loc)
                .msg("Cast %s -> %s of %llu elements: an int4b_t tensor holds two per byte, so the count must be even", from,
                     to, static_cast<unsigned long long>(g.count))
                .hint("round the count up to an even number").fail();
        Report("vector-mask", op, loc)
            .msg("Cast %s -> %s: the mask turns on one of the two int4b_t lanes of a byte and not the other (a continuous "
                 "mask or a counter-mode count must be even; bits 0-1, 2-3, ... of a bit mask must be equal)", from, to)
            .hint("an int4b_t tensor holds two elements per byte: mask whole bytes").fail();
    }
    const Stride plain[2] = {};   // level 2: no strides (the operands are contiguous)
    const Stride& sd = s ? s[0] : plain[0];
    const Stride& sa = s ? s[1] : plain[1];
    const Stride& sh = toInt4 ? sa : sd;   // the half operand's strides, and the int4b_t one's
    const Stride& sq = toInt4 ? sd : sa;
    const Local& h = toInt4 ? a : d;
    const Local& q = toInt4 ? d : a;
    check_operand(toInt4 ? g : q4, a, sa, toInt4 ? 2 : 1, true, op, loc, "src");
    check_operand(toInt4 ? q4 : g, d, sd, toInt4 ? 1 : 2, false, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(toInt4 ? g : q4, a, sa, toInt4 ? 2 : 1);
        race.write(toInt4 ? q4 : g, d, sd, toInt4 ? 1 : 2);
    }
    const uint64_t n = g.active();
    record(TPipe_::V, TKind::INSTR, op, Dt::f16, g.level0 ? kFlagLevel0 : 0, loc, n * 2 + n / 2, n,
           g.contiguous ? static_cast<uint32_t>((n + 127) / 128) : g.repeats);
    if (tracing_now()) { restore_mask_after_level2(lanes); return; }
    // lane l of repeat r: the half at lane_offset(.., 2, r, l); the int4b_t in the byte of lane l / 2 of the byte
    // operand, its low half for an even l
    auto visit = [&](uint32_t r, uint64_t l) {
        uint8_t* hp = h.addr + lane_offset(g, sh, 2, r, l);
        uint8_t& byte = q.addr[lane_offset(q4, sq, 1, r, l / 2)];
        const int shift = static_cast<int>(4 * (l % 2));
        if (toInt4) {
            const int v = int4_round(load_d(Dt::f16, hp), round);
            byte = static_cast<uint8_t>((byte & ~(0xF << shift)) | ((v & 0xF) << shift));
        } else {
            const int v = (byte >> shift) & 0xF;
            const half x = static_cast<half>(static_cast<float>(v >= 8 ? v - 16 : v));
            std::memcpy(hp, &x, 2);
        }
    };
    if (g.contiguous) for (uint64_t i = 0; i < g.count; ++i) visit(0, i);
    else
        for (uint32_t r = 0; r < g.repeats; ++r)
            for (uint32_t l = 0, top = g.max_lane(r); l < top; ++l)
                if (g.on(r, l)) visit(r, l);
    mark_operand(toInt4 ? q4 : g, d, sd, toInt4 ? 1 : 2);
    restore_mask_after_level2(lanes);
}

}}  // namespace ascendcraft::emu
