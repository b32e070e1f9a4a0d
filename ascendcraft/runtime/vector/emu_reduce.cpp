// AscendCraft CPU emulation runtime: reductions. Sums follow the documented order: a pairwise tree
// inside each 256-byte repeat, then (level 2) sequentially across repeats or (level 0) another tree;
// half partial sums saturate at +-65504.
#include <algorithm>
#include <limits>

#include "ascendcraft_emu/internal.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ascendcraft { namespace emu {

namespace {

// One addition in the reduction's arithmetic: float, or half with saturation.
double add_in(Dt dt, double a, double b) {
    if (dt == Dt::f16) {
        double x = a + b;
        half h = static_cast<half>(x);
        float f = static_cast<float>(h);
        if (std::isinf(f) && std::isfinite(x)) return x > 0 ? 65504.0 : -65504.0;
        return f;
    }
    return static_cast<float>(a + b);
}

// Pairwise tree over v[0..n) in place (adjacent pairs, an odd element carries up).
double tree_sum(Dt dt, double* v, size_t n) {
    if (n == 0) return 0;
    if (dt == Dt::f32) {  // add_in for float, with the type known outside the loop
        while (n > 1) {
            size_t half_n = n / 2;
            for (size_t i = 0; i < half_n; ++i) v[i] = static_cast<float>(v[2 * i] + v[2 * i + 1]);
            if (n % 2) { v[half_n] = v[n - 1]; n = half_n + 1; }
            else n = half_n;
        }
        return v[0];
    }
    while (n > 1) {
        size_t half_n = n / 2;
        for (size_t i = 0; i < half_n; ++i) v[i] = add_in(dt, v[2 * i], v[2 * i + 1]);
        if (n % 2) { v[half_n] = v[n - 1]; n = half_n + 1; }
        else n = half_n;
    }
    return v[0];
}
double tree_sum(Dt dt, std::vector<double> v) { return tree_sum(dt, v.data(), v.size()); }

// The same tree over floats: each step of the double version rounds the exact sum of two floats to float, which is
// the float addition itself (a double holds that sum exactly, or rounds it innocuously: 53 >= 2 * 24 + 2 bits), so
// the results are bit for bit the same, at half the width (WholeReduceSum over float rows spends most of its time here).
// A level's adjacent pairs are added four at a time where SSE2 is there (x86-64): the even and the odd elements of
// two vectors, then one vector addition, which rounds each sum as the scalar addition does.
float tree_sum_f32(float* v, size_t n) {
    if (n == 0) return 0;
    while (n > 1) {
        size_t half_n = n / 2, i = 0;
#if defined(__SSE2__)
        for (; i + 4 <= half_n; i += 4) {  // reads v[2i, 2i + 8) before writing v[i, i + 4): in place is safe
            const __m128 a = _mm_loadu_ps(v + 2 * i), b = _mm_loadu_ps(v + 2 * i + 4);
            _mm_storeu_ps(v + i, _mm_add_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                                            _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1))));
        }
#endif
        for (; i < half_n; ++i) v[i] = v[2 * i] + v[2 * i + 1];
        if (n % 2) { v[half_n] = v[n - 1]; n = half_n + 1; }
        else n = half_n;
    }
    return v[0];
}

#if defined(__SSE2__)
// tree_sum_f32 of a whole 64-float repeat, read where it lies: the same pair sums level by level (adjacent pairs of
// four-float registers, then the last four as the loop above takes them), kept in registers instead of being
// copied out and written back at every level. WholeReduceSum over float rows, one repeat per row, spent most of its
// time copying and looping for these 63 additions.
inline __m128 pair_sums(__m128 a, __m128 b) {  // (a0+a1, a2+a3, b0+b1, b2+b3)
    return _mm_add_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)), _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
}
float tree_sum64_f32(const uint8_t* bytes) {
    const float* p = reinterpret_cast<const float*>(bytes);
    __m128 l1[8], l2[4];
    for (int i = 0; i < 8; ++i) l1[i] = pair_sums(_mm_loadu_ps(p + 8 * i), _mm_loadu_ps(p + 8 * i + 4));  // 32 sums
    for (int i = 0; i < 4; ++i) l2[i] = pair_sums(l1[2 * i], l1[2 * i + 1]);                             // 16
    const __m128 l4 = pair_sums(pair_sums(l2[0], l2[1]), pair_sums(l2[2], l2[3]));                       // 8, then 4
    float f[4];
    _mm_storeu_ps(f, l4);
    const float x = f[0] + f[1], y = f[2] + f[3];                                                          // 2, then 1
    return x + y;
}
#endif

// The index of the first maximum (or minimum) of w[0..n), as `consider` chooses it: the first NaN if there is one (a
// NaN wins), else the serial scan `if (w[k] > w[at]) at = k`, where among equal values (+0 and -0 included) the first
// wins. Without a NaN the extreme value is order-free, so SSE2 finds it four lanes at a time, then the first lane equal
// to it is the answer. (WholeReduceMax / Min over float rows spent most of their time in the serial scan, a chain of
// dependent compares.)
uint32_t first_extreme_f32(const float* w, uint32_t n, bool is_max) {
    uint32_t at = 0;
#if defined(__SSE2__)
    if (n >= 8) {
        const uint32_t body = n / 4 * 4;
        __m128 nan = _mm_setzero_ps(), m = _mm_loadu_ps(w);
        for (uint32_t k = 0; k < body; k += 4) {
            const __m128 x = _mm_loadu_ps(w + k);
            nan = _mm_or_ps(nan, _mm_cmpunord_ps(x, x));
            m = is_max ? _mm_max_ps(m, x) : _mm_min_ps(m, x);
        }
        bool any_nan = _mm_movemask_ps(nan) != 0;
        for (uint32_t k = body; k < n; ++k) any_nan = any_nan || w[k] != w[k];
        if (!any_nan) {
            float lanes[4];
            _mm_storeu_ps(lanes, m);
            float e = lanes[0];
            for (int j = 1; j < 4; ++j) e = is_max ? std::max(e, lanes[j]) : std::min(e, lanes[j]);
            for (uint32_t k = body; k < n; ++k) e = is_max ? std::max(e, w[k]) : std::min(e, w[k]);
            while (w[at] != e) ++at;  // e is one of the values: the first lane equal to it (-0 == +0)
            return at;
        }
    }
#endif
    for (uint32_t k = 0; k < n; ++k)
        if (w[k] != w[k]) return k;   // the first NaN
    for (uint32_t k = 1; k < n; ++k)
        if (is_max ? w[k] > w[at] : w[k] < w[at]) at = k;
    return at;
}

void store_value(Dt dt, uint8_t* p, double x) {
    if (dt == Dt::f16) { half h = static_cast<half>(x); std::memcpy(p, &h, 2); }
    else { float f = static_cast<float>(x); std::memcpy(p, &f, 4); }
}

// The index stored in a T slot: uint16 bits for half, uint32 bits for float.
void store_index(Dt dt, uint8_t* p, uint64_t index) {
    if (dt == Dt::f16) { uint16_t i = static_cast<uint16_t>(index); std::memcpy(p, &i, 2); }
    else { uint32_t i = static_cast<uint32_t>(index); std::memcpy(p, &i, 4); }
}

struct Best { double value; uint64_t index; bool any; };
// The special register GetReduceMaxMinCount reads: the last max/min reduction's value and index.
void note_maxmin(const Best& b, Dt dt) {
    Core& c = core();
    c.maxmin_dt = dt;
    c.maxmin_value = b.value;
    c.maxmin_index = b.index;
    c.maxmin_set = true;
}
// A NaN wins: the first NaN met is the result, value and index. The register-form Reduce / ReduceDataBlock pages and
// asc_reduce_max / asc_reduce_min say so (a NaN in the input writes NaN and the first NaN's index). The A2 ReduceMax /
// ReduceMin / WholeReduce pages say nothing of NaN, but ops-nn's A2 ForeachNonFiniteCheckAndUnscale finds a NaN only by
// ReduceMax then ReduceMin and IsNonFinite of the result, and its document (A2 supported) sets foundInf for any NaN.
void consider(Best& b, bool is_max, double x, uint64_t index) {
    if (b.any && b.value != b.value) return;   // a NaN already chosen stays
    if (!b.any || x != x || (is_max ? x > b.value : x < b.value)) { b.value = x; b.index = index; b.any = true; }
}

// A WholeReduceMax/Min result in the order ReduceOrder asks for: value and index, index and value, value, index.
void store_best(Dt dt, uint8_t* out, const Best& best, uint8_t order, uint32_t es) {
    switch (order) {
    case 0: store_value(dt, out, best.value); store_index(dt, out + es, best.index); break;
    case 1: store_index(dt, out, best.index); store_value(dt, out + es, best.value); break;
    case 2: store_value(dt, out, best.value); break;
    default: { uint32_t i = static_cast<uint32_t>(best.index); std::memcpy(out, &i, 4); }
    }
}

}  // namespace

void reduce_all(Op op, Dt dt, const Local& d, const Local& a, const Local& tmp, const Lanes& lanes, uint32_t srcRepStride,
                bool calIndex, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es;
    Geometry g = resolve(lanes, epr, op, loc);
    Stride s{1, srcRepStride};
    const bool sum = op == Op::ReduceSum;
    check_operand(g, a, s, es, true, op, loc, "src");
    check_local(d, op, loc, "dst", sum ? es : 2 * es);
    check_extent(d, (!sum && calIndex) ? 2 * es : es, op, loc, "dst");
    check_local(tmp, op, loc, "sharedTmpBuffer", 32);
    if (RaceScope race{TPipe_::V, op, loc}) {  // sharedTmpBuffer's temporaries are not tracked
        race.read(g, a, s, es);
        race.write(d.addr, (!sum && calIndex) ? 2 * es : es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, g.level0 ? kFlagLevel0 : 0, loc, g.active() * es + es, g.active(),
           g.contiguous ? static_cast<uint32_t>((g.count * es + 255) / 256) : g.repeats);
    if (!tracing_now()) {
        const uint32_t repeats = g.contiguous ? static_cast<uint32_t>((g.count + epr - 1) / epr) : g.repeats;
        if (sum) {
            std::vector<double> partial(repeats);
            double lane_values[128];  // one repeat: at most 128 lanes (256 bytes of half)
            const uint8_t* const src = a.addr;
            for (uint32_t r = 0; r < repeats; ++r) {
                size_t k = 0;
                if (g.contiguous) {
                    uint64_t begin = static_cast<uint64_t>(r) * epr, end = std::min<uint64_t>(g.count, begin + epr);
                    if (dt == Dt::f32) {
                        for (uint64_t i = begin; i < end; ++i) { float v; std::memcpy(&v, src + i * 4, 4); lane_values[k++] = v; }
                    } else {
                        for (uint64_t i = begin; i < end; ++i) lane_values[k++] = load_d(dt, src + i * es);
                    }
                } else {
                    for (uint32_t l = 0; l < epr; ++l)
                        if (g.on(r, l)) lane_values[k++] = load_d(dt, src + lane_offset(g, s, es, r, l));
                }
                partial[r] = tree_sum(dt, lane_values, k);
            }
            double total = 0;
            if (g.contiguous) {
                for (size_t r = 0; r < partial.size(); ++r) total = r ? add_in(dt, total, partial[r]) : partial[r];
            } else {
                total = tree_sum(dt, partial);
            }
            store_value(dt, d.addr, total);
            mark_written(d, 0, es);
            if (g.contiguous) core().acc_value = total;   // the scalar register GetReduceRepeatSumSpr reads (count form)
        } else {
            Best best{0, 0, false};
            const bool is_max = op == Op::ReduceMax;
            if (g.contiguous) {
                for (uint64_t i = 0; i < g.count; ++i) consider(best, is_max, load_d(dt, a.addr + i * es), i);
            } else {
                for (uint32_t r = 0; r < g.repeats; ++r)
                    for (uint32_t l = 0; l < epr; ++l)
                        if (g.on(r, l)) consider(best, is_max, load_d(dt, a.addr + lane_offset(g, s, es, r, l)), static_cast<uint64_t>(r) * epr + l);
            }
            if (best.any) {
                note_maxmin(best, dt);
                store_value(dt, d.addr, best.value);
                if (calIndex) store_index(dt, d.addr + es, best.index);
                mark_written(d, 0, calIndex ? 2 * es : es);
            }
        }
    }
    restore_mask_after_level2(lanes);
}

void reduce_whole(Op op, Dt dt, const Local& d, const Local& a, const Lanes& lanes, uint32_t dstRepStride, uint32_t srcBlkStride,
                  uint32_t srcRepStride, uint8_t order, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es;
    if (lanes.repeats > 255)
        Report("vector-repeat", op, loc).msg("%s with repeatTime = %u; it must be 0..255", op_name(op), lanes.repeats)
            .hint("split the reduction into several calls").fail();
    Geometry g = resolve(lanes, epr, op, loc);
    Stride s{srcBlkStride, srcRepStride};
    const bool sum = op == Op::WholeReduceSum;
    // Output unit per repeat: value, value+index, or index alone.
    const uint32_t unit = sum ? es : (order <= 1 ? 2 * es : (order == 2 ? es : 4));
    check_operand(g, a, s, es, true, op, loc, "src");
    check_local(d, op, loc, "dst", sum ? es : std::min<uint32_t>(unit, 2 * es));
    if (g.repeats) check_extent(d, (static_cast<uint64_t>(g.repeats - 1) * dstRepStride + 1) * unit, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s, es);
        if (dstRepStride == 1) race.write(d.addr, static_cast<uint64_t>(g.repeats) * unit);  // the repeats' results abut
        else
            for (uint32_t r = 0; r < g.repeats; ++r) race.write(d.addr + static_cast<uint64_t>(r) * dstRepStride * unit, unit);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, g.active() * es + static_cast<uint64_t>(g.repeats) * unit, g.active(),
           g.repeats);
    if (!tracing_now() && !g.contiguous && (dt == Dt::f32 || dt == Dt::f16)) {
        // The lanes' offsets inside a repeat are the same for every repeat but a partial last one (counter mode):
        // work them out once, then load each repeat's lanes with the element type known.
        uint64_t regular[128], last[128];
        uint32_t regular_lane[128], last_lane[128];
        auto offsets = [&](uint32_t r, uint64_t* o, uint32_t* lane) {
            uint32_t k = 0;
            for (uint32_t l = 0; l < epr && l < 128; ++l)
                if (g.on(r, l)) { lane[k] = l; o[k++] = lane_offset(g, s, es, 0, l); }
            return k;
        };
        const uint32_t n_regular = offsets(0, regular, regular_lane);
        const uint32_t n_last = g.last_lanes && g.repeats ? offsets(g.repeats - 1, last, last_lane) : n_regular;
        auto packed = [&](const uint64_t* o, uint32_t n) {  // lane k at byte 4k: one copy loads the repeat
            for (uint32_t k = 0; k < n; ++k) if (o[k] != 4ull * k) return false;
            return true;
        };
        const bool dense[2] = {packed(regular, n_regular), packed(g.last_lanes && g.repeats ? last : regular, n_last)};
        Best overall{0, 0, false};  // over all repeats: what GetReduceMaxMinCount reads afterwards
        for (uint32_t r = 0; r < g.repeats; ++r) {
            const bool is_last = g.last_lanes && r + 1 == g.repeats;
            const uint64_t* o = is_last ? last : regular;
            const uint32_t* lane = is_last ? last_lane : regular_lane;
            const uint32_t n = is_last ? n_last : n_regular;
            const uint8_t* base = a.addr + static_cast<uint64_t>(r) * s.rep * 32;
            uint8_t* out = d.addr + static_cast<uint64_t>(r) * dstRepStride * unit;
#if defined(__SSE2__)
            if (dt == Dt::f32 && sum && n == 64 && dense[is_last]) {
                store_value(dt, out, tree_sum64_f32(base));
                mark_written(d, static_cast<uint64_t>(r) * dstRepStride * unit, unit);
                continue;
            }
#endif
            if (dt == Dt::f32 && (sum || n)) {  // floats as floats: the sum's pair tree, max / min in their own order
                float w[128];
                if (dense[is_last]) std::memcpy(w, base, 4 * static_cast<size_t>(n));
                else for (uint32_t k = 0; k < n; ++k) std::memcpy(&w[k], base + o[k], 4);
                if (sum) {
                    store_value(dt, out, tree_sum_f32(w, n));
                } else {
                    const bool is_max = op == Op::WholeReduceMax;
                    const uint32_t at = first_extreme_f32(w, n, is_max);  // the first lane holding the result, as `consider` keeps it
                    const Best best{w[at], lane[at], true};
                    consider(overall, is_max, best.value, static_cast<uint64_t>(r) * epr + best.index);
                    store_best(dt, out, best, order, es);
                }
                mark_written(d, static_cast<uint64_t>(r) * dstRepStride * unit, unit);
                continue;
            }
            double v[128];
            if (dt == Dt::f32)
                for (uint32_t k = 0; k < n; ++k) { float x; std::memcpy(&x, base + o[k], 4); v[k] = x; }
            else
                for (uint32_t k = 0; k < n; ++k) { half x; std::memcpy(&x, base + o[k], 2); v[k] = static_cast<float>(x); }
            if (sum) {
                store_value(dt, out, tree_sum(dt, v, n));
            } else {
                Best best{0, 0, false};
                for (uint32_t k = 0; k < n; ++k) consider(best, op == Op::WholeReduceMax, v[k], lane[k]);
                if (best.any) consider(overall, op == Op::WholeReduceMax, best.value, static_cast<uint64_t>(r) * epr + best.index);
                store_best(dt, out, best, order, es);
            }
            mark_written(d, static_cast<uint64_t>(r) * dstRepStride * unit, unit);
        }
        if (!sum && overall.any) note_maxmin(overall, dt);
    } else if (!tracing_now()) {
        Best overall{0, 0, false};  // over all repeats: what GetReduceMaxMinCount reads afterwards
        for (uint32_t r = 0; r < g.repeats; ++r) {
            uint8_t* out = d.addr + static_cast<uint64_t>(r) * dstRepStride * unit;
            if (sum && dt == Dt::f32) {
                float w[128];  // at most 128 lanes per repeat
                size_t k = 0;
                for (uint32_t l = 0; l < epr; ++l)
                    if (g.on(r, l)) std::memcpy(&w[k++], a.addr + lane_offset(g, s, es, r, l), 4);
                store_value(dt, out, tree_sum_f32(w, k));
            } else if (sum) {
                double v[128];  // at most 128 lanes per repeat
                size_t k = 0;
                for (uint32_t l = 0; l < epr; ++l)
                    if (g.on(r, l)) v[k++] = load_d(dt, a.addr + lane_offset(g, s, es, r, l));
                store_value(dt, out, tree_sum(dt, v, k));
            } else {
                Best best{0, 0, false};
                for (uint32_t l = 0; l < epr; ++l)
                    if (g.on(r, l)) consider(best, op == Op::WholeReduceMax, load_d(dt, a.addr + lane_offset(g, s, es, r, l)), l);
                if (best.any) consider(overall, op == Op::WholeReduceMax, best.value, static_cast<uint64_t>(r) * epr + best.index);
                store_best(dt, out, best, order, es);
            }
            mark_written(d, static_cast<uint64_t>(r) * dstRepStride * unit, unit);
        }
        if (!sum && overall.any) note_maxmin(overall, dt);
    }
}

void reduce_block(Op op, Dt dt, const Local& d, const Local& a, const Lanes& lanes, uint32_t dstRepStride, uint32_t srcBlkStride,
                  uint32_t srcRepStride, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es, epb = 32 / es;
    if (lanes.repeats > 255)
        Report("vector-repeat", op, loc).msg("%s with repeatTime = %u; it must be 0..255", op_name(op), lanes.repeats)
            .hint("split the reduction into several calls").fail();
    Geometry g = resolve(lanes, epr, op, loc);
    Stride s{srcBlkStride, srcRepStride};
    check_operand(g, a, s, es, true, op, loc, "src");
    check_local(d, op, loc, "dst", 8 * es);
    if (g.repeats) check_extent(d, (static_cast<uint64_t>(g.repeats - 1) * dstRepStride * 8 + 8) * es, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s, es);
        for (uint32_t r = 0; r < g.repeats; ++r) race.write(d.addr + static_cast<uint64_t>(r) * dstRepStride * 8 * es, 8 * es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, g.active() * es + static_cast<uint64_t>(g.repeats) * 8 * es, g.active(),
           g.repeats);
    if (!tracing_now()) {
        for (uint32_t r = 0; r < g.repeats; ++r) {
            for (uint32_t k = 0; k < 8; ++k) {
                std::vector<double> v;
                Best best{0, 0, false};
                for (uint32_t l = k * epb; l < (k + 1) * epb; ++l) {
                    if (!g.on(r, l)) continue;
                    double x = load_d(dt, a.addr + lane_offset(g, s, es, r, l));
                    v.push_back(x);
                    consider(best, op == Op::BlockReduceMax, x, l);
                }
                if (v.empty()) continue;  // a block with no active lane produces nothing
                uint64_t at = (static_cast<uint64_t>(r) * dstRepStride * 8 + k) * es;
                store_value(dt, d.addr + at, op == Op::BlockReduceSum ? tree_sum(dt, v) : best.value);
                mark_written(d, at, es);
            }
        }
    }
}

// PairReduceSum (vcpadd): each repeat's adjacent lanes (2i, 2i+1) summed into lane i of half a repeat's width;
// dstRepStride counts those halves (128 bytes). A pair with no active lane writes nothing; one active lane passes on.
void reduce_pair(Dt dt, const Local& d, const Local& a, const Lanes& lanes, uint32_t dstRepStride, uint32_t srcBlkStride,
                 uint32_t srcRepStride, SrcLoc loc) {
    const Op op = Op::PairReduceSum;
    enter(op, loc);
    const uint32_t es = dt_size(dt), epr = 256 / es, half_n = epr / 2;
    if (lanes.repeats > 255)
        Report("vector-repeat", op, loc).msg("PairReduceSum with repeatTime = %u; it must be 0..255", lanes.repeats)
            .hint("split the reduction into several calls").fail();
    Geometry g = resolve(lanes, epr, op, loc);
    Stride s{srcBlkStride, srcRepStride};
    check_operand(g, a, s, es, true, op, loc, "src");
    check_local(d, op, loc, "dst", 32);
    std::vector<uint32_t> pairs(g.repeats, 0);   // per repeat: 1 + the last pair with an active lane (0: none)
    uint64_t end = 0;
    for (uint32_t r = 0; r < g.repeats; ++r) {
        for (uint32_t l = 0; l < epr; ++l) if (g.on(r, l)) pairs[r] = l / 2 + 1;
        if (pairs[r]) end = std::max<uint64_t>(end, static_cast<uint64_t>(r) * dstRepStride * 128 + pairs[r] * es);
    }
    if (end) check_extent(d, end, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(g, a, s, es);
        for (uint32_t r = 0; r < g.repeats; ++r)
            if (pairs[r]) race.write(d.addr + static_cast<uint64_t>(r) * dstRepStride * 128, pairs[r] * es);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, g.active() * es + static_cast<uint64_t>(g.repeats) * 128,
           g.active(), g.repeats);
    if (tracing_now()) return;
    for (uint32_t r = 0; r < g.repeats; ++r) {
        for (uint32_t i = 0; i < half_n; ++i) {
            double v[2];
            size_t k = 0;
            for (uint32_t l = 2 * i; l < 2 * i + 2; ++l)
                if (g.on(r, l)) v[k++] = load_d(dt, a.addr + lane_offset(g, s, es, r, l));
            if (!k) continue;
            const uint64_t at = static_cast<uint64_t>(r) * dstRepStride * 128 + static_cast<uint64_t>(i) * es;
            store_value(dt, d.addr + at, tree_sum(dt, v, k));
            mark_written(d, at, es);
        }
    }
}

}}  // namespace ascendcraft::emu
