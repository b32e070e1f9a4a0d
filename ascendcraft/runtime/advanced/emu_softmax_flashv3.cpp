// AscendCraft CPU emulation runtime: SoftmaxFlashV3 (softmax_flashv3.h). Each step rounds to float as the vector unit
// does: the block sums in the reference's order (8-element blocks of the first 512, then the later 64-element chunks
// added lane by lane), the partial means, the shift, the max, exp, the sum; dst and expMax are rounded to half. Written
// from the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/softmax_flashv3.h"

namespace ascendcraft { namespace emu {

void adv_softmax_flashv3(const FlashV3Call& c, SrcLoc loc) {
    const Op op = Op::SoftmaxFlashV3;
    enter(op, loc);
    if (c.reserved_flags)
        unsupported_call(op, "SoftmaxFlashV3 with isReuseSource, isBasicBlock or isDataFormatNZ set: reserved on Ascend 910B "
                         "(A2), which documents only the defaults", "leave the reserved template arguments false", loc);
    if (c.split_mean_cnt != 8)
        unsupported_call(op, "SoftmaxFlashV3 with splitMeanCnt other than 8 (Ascend 910B documents 8 only)",
                         "set SoftMaxParams.splitMeanCnt = 8", loc);
    if (c.m != c.ori_m || c.k != c.ori_k)
        unsupported_call(op, "SoftmaxFlashV3 on a padded shape (srcM != oriSrcM or srcK != oriSrcK): Ascend 910B does not "
                         "support the non-aligned case", "pass the real shape in both pairs (srcK a multiple of 64)", loc);
    const uint32_t m = c.m, k = c.k;
    if (k < 512 || k % 64 != 0 || m == 0 || m % 8 != 0)
        Report("adv-shape", op, loc)
            .msg("SoftmaxFlashV3: srcM = %u, srcK = %u; the rows must be at least 512 elements and a multiple of 64, and "
                 "their count a positive multiple of 8", m, k)
            .hint("tile the rows so that each call has m %% 8 == 0 and k >= 512 with k %% 64 == 0").fail();
    if (c.update && c.loop_cnt == 0)
        Report("adv-shape", op, loc).msg("SoftmaxFlashV3 with isUpdate and loopCnt = 0; loopCnt counts the loops so far (>= 1)")
            .hint("pass the loop number, 1 for the first").fail();
    const uint64_t dataBytes = uint64_t(m) * k * 2, statBytes = uint64_t(m) * 8 * 4, expBytes = uint64_t(m) * 16 * 2;
    const struct { const Local* t; uint64_t bytes; const char* role; bool in; } ops[] = {
        {c.src, dataBytes, "srcTensor", true}, {c.dst, dataBytes, "dstTensor", false},
        {c.mean, statBytes, "meanTensor", false}, {c.sum, statBytes, "expSumTensor", false},
        {c.max, statBytes, "maxTensor", false}, {c.exp_max, expBytes, "expMaxTensor", false},
        {c.in_mean, statBytes, "inMeanTensor", true}, {c.in_sum, statBytes, "inExpSumTensor", true},
        {c.in_max, statBytes, "inMaxTensor", true}};
    for (const auto& o : ops) {
        if (!c.update && (o.t == c.exp_max || o.t == c.in_mean || o.t == c.in_sum || o.t == c.in_max)) continue;
        check_local(*o.t, op, loc, o.role, 32);
        check_extent(*o.t, o.bytes, op, loc, o.role);
    }
    if (c.tmp) {
        check_local(*c.tmp, op, loc, "sharedTmpBuffer", 32);
        for (const auto& o : ops)
            if (ub_overlap(*c.tmp, c.tmp->bytes, *o.t, o.bytes))
                Report("adv-overlap", op, loc).msg("SoftmaxFlashV3: sharedTmpBuffer overlaps %s", o.role)
                    .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(c.src->addr, dataBytes);
        if (c.update) { race.read(c.in_mean->addr, statBytes); race.read(c.in_sum->addr, statBytes); race.read(c.in_max->addr, statBytes); }
        if (c.tmp) race.write(c.tmp->addr, c.tmp->bytes);
        race.write(c.dst->addr, dataBytes);
        race.write(c.mean->addr, statBytes); race.write(c.sum->addr, statBytes); race.write(c.max->addr, statBytes);
        if (c.update) race.write(c.exp_max->addr, expBytes);
    }
    record(TPipe_::V, TKind::INSTR, op, Dt::f16, 0, loc, 8 * uint64_t(m) * k * 4, uint64_t(m) * k,
           static_cast<uint32_t>(8 * ((uint64_t(m) * k * 4 + 255) / 256)));
    if (tracing_now()) return;
    check_initialised(*c.src, 0, dataBytes, op, loc, "srcTensor");
    if (c.update) {
        check_initialised(*c.in_mean, 0, statBytes, op, loc, "inMeanTensor");
        check_initialised(*c.in_sum, 0, statBytes, op, loc, "inExpSumTensor");
        check_initialised(*c.in_max, 0, statBytes, op, loc, "inMaxTensor");
    }
    const float scalar = c.alpha / (1.0f - c.alpha);
    const uint32_t baseK = k / 8;
    std::vector<float> x(k), outMean(m), outSum(m), outMax(m), outExpMax(m);
    std::vector<half> dst(uint64_t(m) * k);
    for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t j = 0; j < k; ++j) {
            half h;
            std::memcpy(&h, c.src->addr + (uint64_t(i) * k + j) * 2, 2);
            x[j] = static_cast<float>(h);
        }
        float part[64];
        for (uint32_t q = 0; q < 64; ++q) {            // (k) -> (64): 8-element blocks of the first 512
            float s = 0;
            for (uint32_t t = 0; t < 8; ++t) s += x[q * 8 + t];
            part[q] = s;
        }
        for (uint32_t r = 0; r < k / 64 - 8; ++r)      // the later 64-element chunks, lane by lane
            for (uint32_t q = 0; q < 64; ++q) part[q] += x[512 + r * 64 + q];
        float local[8], total = 0;
        for (uint32_t b = 0; b < 8; ++b) {             // (64) -> (8), the partial means
            float s = 0;
            for (uint32_t t = 0; t < 8; ++t) s += part[b * 8 + t];
            local[b] = s / static_cast<float>(baseK);
            total += local[b];
        }
        const float gmean = total / 8.0f;
        for (uint32_t j = 0; j < k; ++j) x[j] -= (gmean - local[j / baseK]) * scalar;
        float rowMax = x[0];
        for (uint32_t j = 1; j < k; ++j) rowMax = std::max(rowMax, x[j]);
        float mean = gmean, xmax, shiftCurr = 0, shiftPrev = 0, inMax = 0, inSum = 0;
        if (c.update) {
            float inMean;
            std::memcpy(&inMean, c.in_mean->addr + uint64_t(i) * 32, 4);
            std::memcpy(&inSum, c.in_sum->addr + uint64_t(i) * 32, 4);
            std::memcpy(&inMax, c.in_max->addr + uint64_t(i) * 32, 4);
            mean = (gmean + inMean * static_cast<float>(c.loop_cnt - 1)) / static_cast<float>(c.loop_cnt);
            shiftCurr = (gmean - mean) * scalar;
            shiftPrev = (inMean - mean) * scalar;
            xmax = std::max(shiftCurr + rowMax, shiftPrev + inMax);
        } else {
            shiftCurr = (gmean - mean) * scalar;
            xmax = shiftCurr + rowMax;
        }
        const float sub = xmax - shiftCurr;
        float s = 0;
        for (uint32_t j = 0; j < k; ++j) {
            const float e = std::exp(x[j] - sub);
            s += e;
            dst[uint64_t(i) * k + j] = static_cast<half>(e);
        }
        if (c.update) {
            const float em = std::exp(inMax - xmax + shiftPrev);
            outExpMax[i] = em;
            s = em * inSum + s;
        }
        outMean[i] = mean; outSum[i] = s; outMax[i] = xmax;
    }
    std::memcpy(c.dst->addr, dst.data(), dataBytes);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t t = 0; t < 8; ++t) {
            std::memcpy(c.mean->addr + uint64_t(i) * 32 + t * 4, &outMean[i], 4);
            std::memcpy(c.sum->addr + uint64_t(i) * 32 + t * 4, &outSum[i], 4);
            std::memcpy(c.max->addr + uint64_t(i) * 32 + t * 4, &outMax[i], 4);
        }
    mark_written(*c.dst, 0, dataBytes);
    mark_written(*c.mean, 0, statBytes); mark_written(*c.sum, 0, statBytes); mark_written(*c.max, 0, statBytes);
    if (c.update) {
        for (uint32_t i = 0; i < m; ++i) {
            const half h = static_cast<half>(outExpMax[i]);
            for (uint32_t t = 0; t < 16; ++t) std::memcpy(c.exp_max->addr + uint64_t(i) * 32 + t * 2, &h, 2);
        }
        mark_written(*c.exp_max, 0, expBytes);
    }
    if (c.tmp) mark_written(*c.tmp, 0, c.tmp->bytes);
}

}}  // namespace ascendcraft::emu
