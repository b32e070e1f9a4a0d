// AscendCraft CPU emulation: the advanced Exp with a Taylor series (exp_taylor.h). Written from the public AscendC
// documentation; no vendor code.
#include <cmath>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/exp_taylor.h"
#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

void vec_exp_taylor(Dt dt, const Local& d, const Local& src, uint32_t count, uint32_t level, bool reuseSource, SrcLoc loc) {
    const Op op = Op::Exp;
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    check_local(d, op, loc, "dst", 32);
    check_local(src, op, loc, "src", 32);
    check_extent(src, uint64_t(count) * es, op, loc, "src");
    check_extent(d, uint64_t(count) * es, op, loc, "dst");
    const bool fracs_in_src = reuseSource && dt == Dt::f32;
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, uint64_t(count) * es);
        if (fracs_in_src) race.write(src.addr, uint64_t(count) * es);
        race.write(d.addr, uint64_t(count) * es);
    }
    // floor, sub, Exp, then three instructions per term and the final Mul (plus two Casts for half), on float lanes
    const uint32_t instrs = 4 + 3 * (level > 1 ? level - 1 : 0) + 1 + (dt == Dt::f16 ? 2 : 0);
    const uint32_t repeats = static_cast<uint32_t>((uint64_t(count) * 4 + 255) / 256);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, uint64_t(count) * 4 * instrs, uint64_t(count) * instrs, repeats * instrs);
    if (tracing_now()) return;
    check_initialised(src, 0, uint64_t(count) * es, op, loc, "src");
    std::vector<float> out(count), frac(count);
    for (uint32_t i = 0; i < count; ++i) {
        float x;
        if (dt == Dt::f16) { half h; std::memcpy(&h, src.addr + uint64_t(i) * 2, 2); x = static_cast<float>(h); }
        else std::memcpy(&x, src.addr + uint64_t(i) * 4, 4);
        const float b = std::floor(x), c = x - b;
        const float eb = static_cast<float>(std::exp(static_cast<double>(b)));
        float pw = c, res = c + 1.0f;
        for (uint32_t k = 2; k < level + 1; ++k) {
            pw = c * pw;
            pw = pw * (1.0f / static_cast<float>(k));
            res = res + pw;
        }
        out[i] = res * eb;
        frac[i] = c;
    }
    for (uint32_t i = 0; i < count; ++i) {
        if (dt == Dt::f16) { const half h(out[i]); std::memcpy(d.addr + uint64_t(i) * 2, &h, 2); }
        else std::memcpy(d.addr + uint64_t(i) * 4, &out[i], 4);
    }
    mark_written(d, 0, uint64_t(count) * es);
    if (fracs_in_src && src.addr != d.addr) {
        std::memcpy(src.addr, frac.data(), uint64_t(count) * 4);
        mark_written(src, 0, uint64_t(count) * 4);
    }
}

}}  // namespace ascendcraft::emu
