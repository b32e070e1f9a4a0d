// AscendCraft CPU emulation: 4-bit integers (int4b_t) on the vector unit. Ascend 910B (A2) converts half -> int4b_t
// (round modes CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC; the result saturates to -8..7) and
// int4b_t -> half (CAST_NONE only). In UB an int4b_t tensor holds two elements per byte, the even one in the low half.
// The count form (level 2) is emulated; the mask / repeat forms are a named stop (how their block strides count 4-bit
// data is not documented in words).
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

void vec_cast_int4(bool toInt4, uint8_t round, const Local& d, const Local& a, const Lanes& lanes, SrcLoc loc) {
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
    if (lanes.level0)
        unsupported_call(op, "Cast between half and int4b_t with a mask and repeat count (level 0) is not emulated yet",
                         "use the count form Cast(dst, src, roundMode, count)", loc);
    Geometry g = resolve(lanes, 128, op, loc);
    const uint64_t n = g.count;
    if (n % 2 != 0)
        Report("vector-count", op, loc)
            .msg("Cast %s -> %s of %llu elements: an int4b_t tensor holds two per byte, so the count must be even", from, to,
                 static_cast<unsigned long long>(n))
            .hint("round the count up to an even number").fail();
    const uint64_t halfBytes = n * 2, nibbleBytes = n / 2;
    const Local& h = toInt4 ? a : d;
    const Local& q = toInt4 ? d : a;
    check_local(a, op, loc, "src", 32);
    check_local(d, op, loc, "dst", 32);
    check_extent(h, halfBytes, op, loc, toInt4 ? "src" : "dst");
    check_extent(q, nibbleBytes, op, loc, toInt4 ? "dst" : "src");
    if (!tracing_now()) check_initialised(a, 0, toInt4 ? halfBytes : nibbleBytes, op, loc, "src");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(a.addr, toInt4 ? halfBytes : nibbleBytes);
        race.write(d.addr, toInt4 ? nibbleBytes : halfBytes);
    }
    record(TPipe_::V, TKind::INSTR, op, Dt::f16, 0, loc, halfBytes + nibbleBytes, n, static_cast<uint32_t>((n + 127) / 128));
    if (!tracing_now()) {
        for (uint64_t i = 0; i < n; ++i) {
            const int shift = static_cast<int>(4 * (i % 2));
            if (toInt4) {
                const int v = int4_round(load_d(Dt::f16, a.addr + i * 2), round);
                uint8_t& byte = d.addr[i / 2];
                byte = static_cast<uint8_t>((byte & ~(0xF << shift)) | ((v & 0xF) << shift));
            } else {
                const int v = (a.addr[i / 2] >> shift) & 0xF;
                const half x = static_cast<half>(static_cast<float>(v >= 8 ? v - 16 : v));
                std::memcpy(d.addr + i * 2, &x, 2);
            }
        }
        mark_written(d, 0, toInt4 ? nibbleBytes : halfBytes);
    }
    restore_mask_after_level2(lanes);
}

}}  // namespace ascendcraft::emu
