// AscendCraft CPU emulation: Sort32, MrgSort and the advanced Sort of Ascend 910B (A2) on (score, index) pairs
// (sort.h). Descending scores; equal scores keep their order (earlier element, earlier list first). Written from the
// public AscendC documentation; no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/sort.h"

namespace ascendcraft { namespace emu {

namespace {
constexpr uint32_t kPair = 8;
struct Pair { double score; uint8_t bytes[kPair]; };

double score_of(Dt dt, const uint8_t* p) { return load_d(dt, p); }

Pair read_pair(Dt dt, const uint8_t* p) {
    Pair q;
    std::memcpy(q.bytes, p, kPair);
    q.score = score_of(dt, p);
    return q;
}
// Stable: earlier pairs first among equal scores.
void sort_desc(std::vector<Pair>& v) {
    std::stable_sort(v.begin(), v.end(), [](const Pair& a, const Pair& b) { return a.score > b.score; });
}
void bad_repeat(Op op, int32_t repeats, SrcLoc loc) {
    Report("bad-argument", op, loc)
        .msg("%s: repeatTime %d is outside 0..255", op_name(op), repeats).val("repeatTime", repeats)
        .hint("sort at most 255 x 32 elements per call; loop over larger inputs").fail();
}
}  // namespace

thread_local uint16_t t_mrg_result[4] = {0, 0, 0, 0};

void vec_sort32(Dt dt, const Local& d, const Local& score, const Local& index, int32_t repeats, SrcLoc loc) {
    const Op op = Op::Sort32;
    enter(op, loc);
    if (repeats < 0 || repeats > 255) bad_repeat(op, repeats, loc);
    const uint32_t es = dt_size(dt), n = static_cast<uint32_t>(repeats) * 32;
    check_local(d, op, loc, "dst", 32);
    check_local(score, op, loc, "src0", 32);
    check_local(index, op, loc, "src1", 32);
    check_extent(score, uint64_t(n) * es, op, loc, "src0");
    check_extent(index, uint64_t(n) * 4, op, loc, "src1");
    check_extent(d, uint64_t(n) * kPair, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(score.addr, uint64_t(n) * es);
        race.read(index.addr, uint64_t(n) * 4);
        race.write(d.addr, uint64_t(n) * kPair);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, uint64_t(n) * (es + 4 + kPair), n, static_cast<uint32_t>(repeats));
    if (tracing_now() || n == 0) return;
    check_initialised(score, 0, uint64_t(n) * es, op, loc, "src0");
    check_initialised(index, 0, uint64_t(n) * 4, op, loc, "src1");
    std::vector<Pair> all;
    all.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        Pair q{};
        std::memset(q.bytes, 0, kPair);
        std::memcpy(q.bytes, score.addr + uint64_t(i) * es, es);
        std::memcpy(q.bytes + 4, index.addr + uint64_t(i) * 4, 4);
        q.score = score_of(dt, q.bytes);
        all.push_back(q);
    }
    for (uint32_t r = 0; r < static_cast<uint32_t>(repeats); ++r) {
        std::vector<Pair> g(all.begin() + r * 32, all.begin() + r * 32 + 32);
        sort_desc(g);
        for (uint32_t i = 0; i < 32; ++i) std::memcpy(d.addr + (uint64_t(r) * 32 + i) * kPair, g[i].bytes, kPair);
    }
    mark_written(d, 0, uint64_t(n) * kPair);
}

void vec_mrgsort(Dt dt, const Local& d, const Local* const lists[4], const uint16_t lens[4], bool exhaustedSuspension,
                 uint16_t validBit, uint16_t repeats, uint32_t* sortedNum, SrcLoc loc) {
    const Op op = Op::MrgSort;
    enter(op, loc);
    const int k = validBit == 3 ? 2 : validBit == 7 ? 3 : validBit == 15 ? 4 : 0;
    if (!k)
        Report("bad-argument", op, loc)
            .msg("MrgSort: validBit %u is not 3, 7 or 15 (the first 2, 3 or 4 lists)", validBit).val("validBit", validBit)
            .hint("validBit = 0b11 merges src1 and src2, 0b111 adds src3, 0b1111 all four").fail();
    for (int i = 0; i < k; ++i)
        if (lens[i] > 4095)
            Report("bad-argument", op, loc)
                .msg("MrgSort: list %d has %u pairs; each list holds at most 4095", i + 1, lens[i]).val("list", i + 1)
                .hint("merge longer lists in several calls").fail();
    if (repeats > 1 && (k != 4 || exhaustedSuspension || lens[0] != lens[1] || lens[0] != lens[2] || lens[0] != lens[3]))
        Report("bad-argument", op, loc)
            .msg("MrgSort: repeatTimes %u needs four lists of equal length, stored one after another, validBit 15 and "
                 "ifExhaustedSuspension false", repeats).val("repeatTimes", repeats)
            .hint("use repeatTimes 1, or lay the lists out contiguously with equal lengths").fail();
    check_local(d, op, loc, "dst", 32);
    uint64_t total = 0;
    for (int i = 0; i < k; ++i) {
        check_local(*lists[i], op, loc, "src", 8);
        total += lens[i];
    }
    const uint32_t reps = std::max<uint32_t>(repeats, repeats == 0 ? 0 : 1);
    // repeat r: list i starts r * total pairs after its first address
    for (int i = 0; i < k; ++i) check_extent(*lists[i], (uint64_t(reps ? reps - 1 : 0) * total + lens[i]) * kPair, op, loc, "src");
    check_extent(d, uint64_t(reps) * total * kPair, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        for (uint32_t r = 0; r < reps; ++r)
            for (int i = 0; i < k; ++i) race.read(lists[i]->addr + uint64_t(r) * total * kPair, uint64_t(lens[i]) * kPair);
        race.write(d.addr, uint64_t(reps) * total * kPair);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, 2 * uint64_t(reps) * total * kPair, uint64_t(reps) * total,
           static_cast<uint32_t>(std::max<uint64_t>(1, (uint64_t(reps) * total * kPair + 255) / 256)));
    if (tracing_now()) return;
    uint32_t taken[4] = {0, 0, 0, 0};
    std::vector<uint8_t> out;
    for (uint32_t r = 0; r < reps; ++r) {
        uint32_t pos[4] = {0, 0, 0, 0};
        for (int i = 0; i < k; ++i) check_initialised(*lists[i], uint64_t(r) * total * kPair, uint64_t(lens[i]) * kPair, op, loc, "src");
        for (;;) {
            int best = -1;
            double bs = 0;
            bool exhausted = false;
            for (int i = 0; i < k; ++i) {
                if (pos[i] >= lens[i]) { exhausted = true; continue; }
                const double s = score_of(dt, lists[i]->addr + (uint64_t(r) * total + pos[i]) * kPair);
                if (best < 0 || s > bs) { best = i; bs = s; }
            }
            if (best < 0 || (exhaustedSuspension && exhausted)) break;
            const uint8_t* p = lists[best]->addr + (uint64_t(r) * total + pos[best]) * kPair;
            out.insert(out.end(), p, p + kPair);
            ++pos[best];
        }
        for (int i = 0; i < k; ++i) taken[i] += pos[i];
    }
    if (!out.empty()) std::memcpy(d.addr, out.data(), out.size());  // merged first: dst may not overlap, but be safe
    mark_written(d, 0, out.size());
    for (int i = 0; i < 4; ++i) {
        t_mrg_result[i] = static_cast<uint16_t>(taken[i]);
        if (sortedNum) sortedNum[i] = taken[i];
    }
}

void vec_sort(Dt dt, const Local& d, const Local& score, const Local& index, const Local& tmp, int32_t repeats, bool full,
              SrcLoc loc) {
    vec_sort32(dt, d, score, index, repeats, loc);
    if (!full || repeats <= 1) return;
    const Op op = Op::Sort;
    enter(op, loc);
    const uint64_t bytes = uint64_t(repeats) * 32 * kPair;
    check_local(tmp, op, loc, "tmp", 32);
    check_extent(tmp, bytes, op, loc, "tmp");
    // merge rounds of four lists: 32, 128, 512, ... pairs each, through tmp
    uint32_t rounds = 0;
    for (uint32_t q = static_cast<uint32_t>(repeats); q > 1; q = (q + 3) / 4) ++rounds;
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(d.addr, bytes);
        race.write(tmp.addr, bytes);
        race.write(d.addr, bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, kFlagLevel0, loc, 2 * bytes * rounds, uint64_t(repeats) * 32 * rounds,
           static_cast<uint32_t>(rounds * ((bytes + 255) / 256)));
    if (tracing_now()) return;
    std::vector<Pair> all;
    all.reserve(repeats * 32);
    for (uint64_t i = 0; i < uint64_t(repeats) * 32; ++i) all.push_back(read_pair(dt, d.addr + i * kPair));
    sort_desc(all);  // Sort32's groups merged, earlier groups first among equal scores
    for (size_t i = 0; i < all.size(); ++i) std::memcpy(d.addr + i * kPair, all[i].bytes, kPair);
    std::memcpy(tmp.addr, d.addr, bytes);  // the scratch ends with merged data, not what the kernel put there
    mark_written(tmp, 0, bytes);
    mark_written(d, 0, bytes);
}

void mrgsort_result(uint16_t out[4], SrcLoc loc) {
    enter(Op::MrgSort, loc);
    for (int i = 0; i < 4; ++i) out[i] = t_mrg_result[i];
}

}}  // namespace ascendcraft::emu
