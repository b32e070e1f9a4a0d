// AscendCraft CPU emulation: the advanced API's last-axis Sum and Mean. Written from the public AscendC
// documentation; no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/reduce_adv.h"

namespace ascendcraft { namespace emu {

namespace {
// Pairwise (binary-tree) sum, rounding every partial sum to half when `as_half`.
double tree_sum(std::vector<double> v, bool as_half) {
    if (v.empty()) return 0;
    while (v.size() > 1) {
        std::vector<double> next((v.size() + 1) / 2);
        for (size_t i = 0; i < next.size(); ++i) {
            double s = v[2 * i] + (2 * i + 1 < v.size() ? v[2 * i + 1] : 0.0);
            next[i] = as_half ? static_cast<float>(static_cast<half>(static_cast<float>(s))) : static_cast<float>(s);
        }
        v.swap(next);
    }
    return v[0];
}
}  // namespace

void vec_row_reduce(Op op, Dt dt, const Local& d, const Local& a, const Local* tmp, uint32_t outter, uint32_t inner, uint32_t n,
                    bool acc_float, SrcLoc loc) {
    enter(op, loc);
    const uint32_t es = dt_size(dt);
    check_local(a, op, loc, "srcTensor", 32);
    // Sum's row results are single elements that A2 writes with the reduce instruction at dstTensor[row] (as
    // WholeReduceSum writes its dst): an element-aligned dstTensor is its own form (sunkafei's Pdist sums each distance
    // into y[j]). Mean then scales the results with an elementwise vector op, which needs the 32-byte block.
    check_local(d, op, loc, "dstTensor", op == Op::Sum ? es : 32);
    if ((static_cast<uint64_t>(inner) * es) % 32 != 0 || n > inner || n == 0)
        Report("bad-argument", op, loc)
            .msg("%s: inner = %u, n = %u: inner is n rounded up to 32 bytes (%u elements here), so that each row starts on a "
                 "32-byte boundary", op_name(op), inner, n, static_cast<uint32_t>(((static_cast<uint64_t>(n) * es + 31) / 32 * 32) / es))
            .val("inner", inner).val("n", n)
            .hint("set inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T)").fail();
    const uint64_t src_bytes = static_cast<uint64_t>(outter) * inner * es, dst_bytes = static_cast<uint64_t>(outter) * es;
    check_extent(a, src_bytes, op, loc, "srcTensor");
    check_extent(d, dst_bytes, op, loc, "dstTensor");
    if (ub_overlap(d, dst_bytes, a, src_bytes))
        Report("adv-overlap", op, loc).msg("%s: dstTensor and srcTensor overlap; this API does not allow it", op_name(op))
            .hint("write the result to a different buffer").fail();
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        if (ub_overlap(*tmp, tmp->bytes, d, dst_bytes) || ub_overlap(*tmp, tmp->bytes, a, src_bytes))
            Report("adv-overlap", op, loc).msg("%s: sharedTmpBuffer overlaps dstTensor or srcTensor", op_name(op))
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        for (uint32_t i = 0; i < outter; ++i) race.read(a.addr + static_cast<uint64_t>(i) * inner * es, static_cast<uint64_t>(n) * es);
        race.write(d.addr, dst_bytes);
    }
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, src_bytes + dst_bytes, static_cast<uint64_t>(outter) * n,
           static_cast<uint32_t>((src_bytes + 255) / 256));
    if (tracing_now()) return;
    std::vector<double> row(n);
    std::vector<uint8_t> out(dst_bytes);
    const bool as_half = dt == Dt::f16 && !acc_float;
    for (uint32_t i = 0; i < outter; ++i) {
        const uint64_t at = static_cast<uint64_t>(i) * inner * es;
        check_initialised(a, at, static_cast<uint64_t>(n) * es, op, loc, "srcTensor");
        for (uint32_t j = 0; j < n; ++j) row[j] = load_d(dt, a.addr + at + static_cast<uint64_t>(j) * es);
        double r = tree_sum(row, as_half);
        if (op == Op::Mean) r = static_cast<float>(r / n);
        if (dt == Dt::f16) { half h = static_cast<half>(static_cast<float>(r)); std::memcpy(out.data() + i * es, &h, 2); }
        else { float f = static_cast<float>(r); std::memcpy(out.data() + i * es, &f, 4); }
    }
    std::memcpy(d.addr, out.data(), dst_bytes);
    mark_written(d, 0, dst_bytes);
}

}}  // namespace ascendcraft::emu
