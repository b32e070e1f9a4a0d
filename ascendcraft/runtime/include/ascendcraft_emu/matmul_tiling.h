// AscendCraft host side: the matmul tiling API of CANN's tiling/tiling_api.h (namespace matmul_tiling):
// MatmulApiTiling (one core), MultiCoreMatmulTiling (split over SetDim cores) and BatchMatmulTiling fill a
// TCubeTiling for the kernel's Matmul object. The multi-core split (core counts, single-core shape, and in two of its
// ways the base block and L1 steps) follows the rule of CANN's GetTiling, restated in our own words below
// (core_split_detail) after reading asc-devkit's implementation for its behaviour; where that rule leaves the base block to
// its single-core search, the base block is our own, chosen for the 910B's buffers: it fits L0A/L0B double-buffered
// and L0C once (fp16: 128 x 256 x 64), and L1 holds two base blocks of A and B. A tiling that cannot fit (a fixed base
// block larger than L0, or zero-sized shapes) makes GetTiling return -1, as CANN's does. No vendor code.
// Why one header of ~1,060 lines: host code reaches all of it through the one include CANN gives (tiling/tiling_api.h),
// and the three tiling classes share one GetTiling, whose multi-core split (core_split_detail, about half the file)
// has no user apart from them; splitting the split from its only caller would scatter one rule over two files.
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "cube_tiling.h"
#include "tiling/platform/platform_ascendc.h"

// On the host, CANN's matmul tiling header names `half` in matmul_tiling as double (asc-devkit's matmul_tiling_base.h,
// outside a device or NPU-host compile), so host code under `using namespace matmul_tiling;` that sizes fp16 buffers
// with sizeof(half) gets 8, as on CANN (ops-transformer grouped_matmul_swiglu_quant's tiling). Kernel builds do not
// see it.
#if !defined(__NPU_ARCH__) || defined(ASCENDCRAFT_OP_HOST)
namespace matmul_tiling { using half = double; }
#endif
namespace matmul_tiling {

enum class TPosition : int32_t { GM = 0, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM = SPM, TSCM, MAX };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
// The values of ge::DataType, so that host code may cast one into the other, except the two FP8 types: the official
// matmul_tiling enum numbers them E4M3FN = 35, E5M2 = 36, the other way round from ge::DataType (a cast swaps them
// there too).
enum class DataType : int32_t { DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
                                DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
                                DT_BF16 = 27, DT_INT4 = 29, DT_FLOAT8_E4M3FN = 35, DT_FLOAT8_E5M2 = 36, DT_HIFLOAT8 = 34,
                                DT_UNDEFINED = 28, DT_BFLOAT16 = 33,     // DT_BFLOAT16: the later name of bf16
                                DT_FLOAT4_E2M1 = 37, DT_FLOAT8_E8M0 = 38, DT_FLOAT4_E1M2 = 39 };   // (a byte each)
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
// N_BUFFER_33: the NBuffer33 policy's schedule (A's 3 x 3 base blocks fully in L1, loaded 1 x 3 at a time)
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };
enum class MatrixLayout : int32_t { NORMAL = 0, BSNGD, SBNGD, BNGS1S2 };

constexpr int32_t data_type_bytes(DataType t) {
    switch (t) {
    case DataType::DT_INT8: case DataType::DT_UINT8: case DataType::DT_INT4: case DataType::DT_FLOAT8_E4M3FN:
    case DataType::DT_FLOAT8_E5M2: case DataType::DT_HIFLOAT8: case DataType::DT_BOOL: case DataType::DT_FLOAT4_E2M1:
    case DataType::DT_FLOAT8_E8M0: case DataType::DT_FLOAT4_E1M2: return 1;
    case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_BFLOAT16: case DataType::DT_INT16:
    case DataType::DT_UINT16: return 2;
    case DataType::DT_INT64: case DataType::DT_UINT64: case DataType::DT_DOUBLE: return 8;
    default: return 4;
    }
}
constexpr int32_t data_type_bits(DataType t) {
    return t == DataType::DT_INT4 || t == DataType::DT_FLOAT4_E2M1 || t == DataType::DT_FLOAT4_E1M2 ? 4 : 8 * data_type_bytes(t);
}

// SetMatmulConfigParams' settings in one struct (the kernel's MatmulConfig choice): the schedule type, the config type
// and the traverse order steer the split (core_split_detail below); the other two are accepted.
struct MatmulConfigParams {
    int32_t mmConfigType = 1;
    bool enableL1CacheUB = false;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    MatrixTraverse traverse = MatrixTraverse::NOSET;
    bool enVecND2NZ = false;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT, MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                       bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn), traverse(traverseIn),
          enVecND2NZ(enVecND2NZIn) {}
};

// The buffer sizes a tiling may use, given directly instead of through PlatformAscendC (0: the 910B's own).
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 0, l0CSize = 0, ubSize = 0, l0ASize = 0, l0BSize = 0;
};

struct MatmulOperand {
    TPosition pos = TPosition::GM;
    CubeFormat format = CubeFormat::ND;
    DataType type = DataType::DT_FLOAT16;
    bool trans = false;
};

// ---------------------------------------------------------------------------------------------------------------------
// The multi-core split GetTiling makes, as CANN's host tiling makes it (asc-devkit's impl/adv_api/tiling/matmul was read
// for its behaviour only; the rule is restated in docs/corpus.md, thirty-third round, split). The settings pick one of
// four ways:
//   given     SetSingleShape gave the single-core shape: nothing is split, usedCoreNum is the SetDim count.
//   nbuffer33 ScheduleType::N_BUFFER_33: M in pieces of three base blocks, K whole (three base blocks at most), and the
//             count along N that gives the most cube work per byte loaded.
//   block     no SetShape, no K split: the 128 x 256 base block that fills L0C, then either every factor pair
//             mDim x nDim = cores scored by cube work per byte (a large M x N), or the pairs of every core count up to
//             the cores scored by bytes loaded per core (a small M x N). L1 is filled with K steps of that block.
//   search    otherwise (SetShape given: the usual form of asc-devkit's examples): the divisors of the 16-row / 16-column
//             counts are searched for the fewest bytes loaded from GM given L1's capacity, with a shortcut for shapes
//             that fit L0 whole (they use few cores).
// The block and nbuffer33 ways also decide the base block and the L1 steps; the given and search ways decide the core
// counts and the single-core shape, and the base block is then our own (MatmulApiTilingBase::compute).
namespace core_split_detail {

// The cube unit's facts (Ascend 910B): a fractal is 16 x 16, so M and N go in steps of 16, and one fractal row holds
// 32 bytes along K; GM -> L1 copies run best on rows of 256 bytes; one L0A / L0B half (double-buffered) is 32 KB.
constexpr int32_t kFractal = 16;
constexpr int32_t kFractalRowBytes = 32;
constexpr int32_t kCopyRowBytes = 256;
// The block way's base block: 128 rows (256 with a 256 KB L0C), 256 columns, 128 bytes of K -- baseM x baseN floats
// fill a 128 KB L0C once; 128 x 64 and 64 x 256 halves fill one half of L0A / L0B.
constexpr int32_t kBlockRows = 128, kBlockCols = 256, kBlockKBytes = 128;
// The nbuffer33 schedule keeps at most 3 x 3 base blocks of A in L1.
constexpr int32_t kNBuffer33Blocks = 3;

inline int32_t cdiv(int64_t a, int64_t b) { return b == 0 ? 0 : static_cast<int32_t>((a + b - 1) / b); }
inline int32_t round_up(int64_t a, int64_t b) { return b == 0 ? 0 : static_cast<int32_t>((a + b - 1) / b * b); }

struct Input {
    int32_t cores = 1;
    int32_t M = 0, N = 0, K = 0;           // the shape the cores share (SetShape's, else SetOrgShape's)
    int32_t orgM = 0, orgN = 0;            // SetOrgShape's M and N
    bool shapeGiven = false;               // SetShape was called
    int32_t singleM = -1, singleN = -1, singleK = -1;   // SetSingleShape (-1: not given)
    int32_t aBits = 16, bBits = 16, cBits = 32, biasBits = 32;
    bool aTrans = false, bTrans = false, aNz = false, bNz = false, cNz = false, bInL1 = false, bias = false;
    int32_t fixM = -1, fixN = -1;          // SetFixSplit's baseM / baseN
    int32_t alignN = 1;                    // SetAlignSplit's N: the B-in-L1 (TSCM) split keeps it
    bool splitK = false, nbuffer33 = false, outerProduct = false, blockWays = true;
    int32_t mmConfigType = 1, batchNum = 0;
    MatrixTraverse traverse = MatrixTraverse::NOSET;
    int64_t l1 = 0, l0a = 0, l0c = 0;
    int32_t kUnit() const { return kFractalRowBytes * 8 / aBits; }   // K elements in one fractal row of A
};

struct Plan {
    int32_t mDim = 1, nDim = 1, kDim = 1, usedCores = 1;
    int32_t singleM = 0, singleN = 0, singleK = 0;
    bool baseDecided = false;              // the block / nbuffer33 ways: the fields below are the rule's
    int32_t baseM = 0, baseN = 0, baseK = 0, depthA1 = 0, depthB1 = 0, stepM = 1, stepN = 1, stepKa = 1, stepKb = 1;
    int32_t iterateOrder = 0;
    const char* error = nullptr;           // the way's reason for refusing (GetTiling returns -1)
};

// ---- counting helpers -------------------------------------------------------------------------------------------
// The most divisors any divisor of `dim` in [lo, hi] has.
inline int32_t richest_divisor(int32_t dim, int32_t lo, int32_t hi) {
    int32_t most = 0;
    for (int32_t f = lo; f <= hi && f <= dim; ++f) {
        if (dim % f) continue;
        int32_t count = 0;
        for (int32_t g = 1; g <= f; ++g) count += f % g == 0;
        most = std::max(most, count);
    }
    return most;
}
// A per-core count of fractals the L0 / L1 loops can cut evenly (enough small divisors).
inline bool cuts_evenly(int32_t dim) {
    if (dim <= 8) return true;
    const int32_t small = richest_divisor(dim, 1, 64), mid = dim > 128 ? richest_divisor(dim, 65, 128) : 0;
    return !(small <= 2 || (dim > 128 && small + mid <= 4));
}
// 16..1024 to the power of two above it (doubled once more when rounding up), beyond 1024 to 1024 (2048 rounding up).
inline int32_t power_of_two_cover(int32_t shape, bool roundUp = true) {
    constexpr int32_t lo = 16, hi = 1024;
    if (shape < lo) return shape;
    int32_t seed = lo;
    while (seed < hi && !(seed < shape && seed * 2 >= shape)) seed *= 2;
    return roundUp ? seed * 2 : seed;
}
// The per-core count of `whole` fractals over `parts` cores: from the even share towards the share of the power-of-two
// cover, the first that cuts evenly.
inline int32_t even_share(int32_t whole, int32_t cover, int32_t parts) {
    int32_t share = cdiv(whole, parts);
    if (parts == 1 && cuts_evenly(whole)) return whole;
    const int32_t target = cdiv(cover, parts);
    while (share != target) {
        if (cuts_evenly(share)) return share;
        share += share < target ? 1 : -1;
    }
    return share;
}
inline int32_t even_share_k(int32_t whole, int32_t cover, int32_t parts) {
    return cdiv(whole % parts == 0 ? whole : cover, parts);
}
// The single-core share of `whole` over `parts`, rounded up to `unit` when asked and when the rounding still leaves
// `parts` cores busy; false when it would not (the share stays unrounded).
inline bool aligned_share(bool wanted, int32_t whole, int32_t parts, int32_t unit, int32_t& share) {
    share = cdiv(whole, parts);
    if (!wanted || unit == 0 || parts <= 1) return true;
    const int32_t rounded = round_up(share, unit);
    if (rounded >= cdiv(whole, parts - 1)) return false;
    share = rounded;
    return true;
}
inline int32_t copy_unit(int32_t bits) { return kCopyRowBytes * 8 / bits; }   // elements in a 256-byte row

// ---- the block ways ---------------------------------------------------------------------------------------------
struct Block { int32_t m, n, k; };
struct Score {
    int32_t mDim, nDim;
    float cycles, perByte, band, bytes;
    Block base;
};

inline Block first_block(const Input& in) {
    Block b{in.l0c == 256 * 1024 ? 2 * kBlockRows : kBlockRows, kBlockCols, kBlockKBytes * 8 / in.aBits};
    if (in.fixM != -1) b.m = in.fixM;
    if (in.fixN != -1) b.n = in.fixN;
    if (in.aTrans && in.bTrans) {            // both transposed: the block turns round
        if (in.fixM == -1) b.m = kBlockCols;
        if (in.fixN == -1) b.n = kBlockRows;
    }
    return b;
}
// Cube cycles of an m x n x k block (one cycle per 16 x 16 x 32-byte fractal product) and bytes it loads.
inline float block_cycles(const Input& in, int32_t m, int32_t n, int32_t k) {
    return static_cast<float>(m * n * k) / (kFractal * kFractal * in.kUnit());
}
inline float block_bytes(const Input& in, int32_t m, int32_t n, int32_t k, float aWeight, float bWeight) {
    return aWeight * m * k * in.aBits / 8 + bWeight * n * k * in.bBits / 8;
}
// Sum cycles and bytes over a core's whole blocks and its short edge blocks.
inline void tally(const Input& in, int32_t sm, int32_t sn, const Block& base, float weight, float aWeight,
                  float bWeight, float& cycles, float& bytes) {
    const int32_t fullM = sm / base.m, restM = sm % base.m, fullN = sn / base.n, restN = sn % base.n;
    cycles = 0; bytes = 0;
    auto add = [&](int32_t m, int32_t n, int32_t count) {
        cycles += block_cycles(in, m, n, base.k) * count;
        bytes += weight * block_bytes(in, m, n, base.k, aWeight, bWeight) * count;
    };
    if (fullM > 0 && fullN > 0) add(base.m, base.n, fullM * fullN);
    if (fullM > 0 && restN > 0) add(base.m, restN, fullM);
    if (restM > 0 && fullN > 0) add(restM, base.n, fullN);
    if (restM > 0 && restN > 0) add(restM, restN, 1);
}
// How much of the cores' bandwidth a split leaves to the other cores' loads (more is better on a tie).
inline float spare_band(const Input& in, int32_t mDim, int32_t nDim, const Block& base) {
    return static_cast<float>((in.cores - mDim) * base.m + (in.cores - nDim) * base.n) /
           static_cast<float>((base.m + base.n) * in.cores);
}
// A large M x N: cube work per byte loaded, with the core's share rounded to 256-byte rows where the matrix allows.
inline Score score_large(const Input& in, const Block& base, int32_t mDim, int32_t nDim) {
    int32_t sm = 0, sn = 0;
    const bool okA = aligned_share(in.aTrans && in.orgM % copy_unit(in.aBits) == 0, in.orgM, mDim, copy_unit(in.aBits), sm);
    const bool okB = aligned_share(!in.bTrans && in.orgN % copy_unit(in.bBits) == 0, in.orgN, nDim, copy_unit(in.bBits), sn);
    const int32_t weight = okA && okB ? 1 : 2;   // unaligned rows load at half speed
    Score s{mDim, nDim, 0, 0, spare_band(in, mDim, nDim, base), 0, base};
    tally(in, sm, sn, base, static_cast<float>(weight), 1.0f, 1.0f, s.cycles, s.bytes);
    s.perByte = s.bytes > 0 ? s.cycles / s.bytes : 0;
    return s;
}
inline bool better_large(const Score& x, const Score& y) {
    if (std::fabs(x.perByte - y.perByte) > 1.0E-4F) return x.perByte > y.perByte;
    if (std::fabs(x.cycles - y.cycles) < 0.01f * y.cycles) return x.band > y.band;
    return x.cycles < y.cycles;
}
// Row lengths (elements) of a small share's GM -> L1 copy and their relative cost (1: full speed).
struct RowCost { int32_t len; float cost; };
constexpr RowCost kRowCosts[] = {{128, 2.0f}, {192, 2.7f}, {256, 1.0f}, {320, 2.0f}, {384, 1.5f}, {448, 1.7f}, {512, 1.0f}};
inline bool row_friendly(int32_t len) {
    for (const RowCost& c : kRowCosts) if (len % c.len == 0) return true;
    return false;
}
inline float row_cost(int32_t len, float otherwise) {
    for (const RowCost& c : kRowCosts) if (c.len == len) return c.cost;
    return otherwise;
}
// The block of a small core share: at most 128 rows and 256 columns (384 when K and M are short), K at most the
// whole K rounded to 32.
inline void shrink_block(const Input& in, int32_t sm, int32_t sn, Block& base) {
    base.k = std::min(base.k, round_up(in.K, 32));
    base.m = sm >= kBlockRows ? kBlockRows : round_up(sm, kFractal);
    const int32_t widest = base.k <= 32 && base.m <= 64 ? 384 : kBlockCols;
    base.n = sn >= widest ? widest : round_up(sn, kFractal);
}
// A small M x N: bytes loaded per core first, and the cores beyond 20 add no bandwidth for tiny shares.
inline Score score_small(const Input& in, Block& base, int32_t mDim, int32_t nDim) {
    int32_t sm = 0, sn = 0;
    const bool okA = aligned_share(in.aTrans && row_friendly(in.orgM), in.orgM, mDim, copy_unit(in.aBits), sm);
    const bool okB = aligned_share(!in.bTrans && row_friendly(in.orgN), in.orgN, nDim, copy_unit(in.bBits), sn);
    shrink_block(in, sm, sn, base);
    constexpr float worstRow = 4.0f;
    const float aWeight = okA ? 1.0f : row_cost(sm, worstRow), bWeight = okB ? 1.0f : row_cost(sn, worstRow);
    int32_t sharing = mDim * nDim;
    if (sm < 32 && sn < 32 && sharing > 20) sharing = 20;
    if (sharing == 0) sharing = 1;
    const float weight = static_cast<float>(mDim * nDim) / static_cast<float>(sharing);
    Score s{mDim, nDim, 0, 0, spare_band(in, mDim, nDim, base), 0, base};
    tally(in, sm, sn, base, weight, aWeight, bWeight, s.cycles, s.bytes);
    s.perByte = s.bytes > 0 ? s.cycles / s.bytes : 0;
    return s;
}
inline bool better_small(const Score& x, const Score& y) {
    if (std::fabs(y.bytes - x.bytes) > 0.05F * x.bytes) return x.bytes < y.bytes;
    if (std::fabs(x.cycles - y.cycles) < 0.01f * y.cycles) return x.band > y.band;
    return x.perByte > y.perByte;
}
// Every mDim x nDim grid of exactly n cores, mDim ascending.
inline std::vector<std::pair<int32_t, int32_t>> grids_of(int32_t n) {
    std::vector<std::pair<int32_t, int32_t>> pairs;
    for (int32_t i = 1; i <= n; ++i) if (n % i == 0) pairs.emplace_back(i, n / i);
    return pairs;
}

// ---- the search way ---------------------------------------------------------------------------------------------
// All counts here are in fractals: 16 rows of M, 16 columns of N, one 32-byte row of K.
struct Counts { int32_t m, n, k, mCover, nCover, kCover; };
struct Candidate { int32_t m = 1, n = 1, k = 1; };
struct SearchState {
    Candidate best;
    int32_t fewestBytes = INT_MAX, cores = 1, fewestLoops = INT_MAX;
    bool bigRows = false, found = false;
};
// The bytes (in fractal rows of 16 x K) the cores load from GM for a candidate, by which of A / B fits L1 whole.
inline int32_t load_estimate(const Input& in, const Counts& c, const Candidate& f, int32_t coreM, int32_t coreN,
                             int32_t coreK, int32_t kBytes) {
    const int64_t l1 = in.l1;
    int32_t total = INT_MAX, aRows = coreM, bRows = coreN;
    const int32_t wholeA = c.m, wholeB = c.n;
    const int32_t n0 = std::min(16, coreN), m0 = std::min(16, n0 == 0 ? 0 : std::min(coreM, 128 / n0));
    const int32_t k0 = m0 != 0 && n0 != 0 ? std::min(std::min(64 / m0, 64 / n0), coreK) : coreK;
    constexpr int32_t twice = 2;   // double-buffered L1
    const int64_t slab = static_cast<int64_t>(k0) * kFractal * kFractalRowBytes;
    auto offer = [&](int32_t a, int32_t b) {
        if (total > a + b) { aRows = a; bRows = b; total = a + b; }
    };
    if (static_cast<int64_t>(aRows + n0 * twice) * kBytes <= l1 || static_cast<int64_t>(bRows + m0 * twice) * kBytes <= l1 ||
        static_cast<int64_t>(aRows + bRows) * kBytes <= l1) {
        offer(wholeA * f.n, wholeB * f.m);
        return total;
    }
    if ((n0 * kBytes + m0 * slab) * twice > l1 && (m0 * kBytes + n0 * slab) * twice > l1) {
        offer(wholeA * cdiv(c.n, n0), wholeB * cdiv(c.m, m0));
        return total;
    }
    if (static_cast<int64_t>(m0 + n0) * kBytes * twice <= l1) {
        const int32_t m1 = cdiv(l1 - static_cast<int64_t>(n0) * kBytes * twice, static_cast<int64_t>(kBytes) * twice * m0) * m0;
        const int32_t n1 = cdiv(l1 - static_cast<int64_t>(m0) * kBytes * twice, static_cast<int64_t>(kBytes) * twice * n0) * n0;
        const int32_t mFirst = wholeA * f.n + wholeB * cdiv(c.m, m1), nFirst = wholeB * f.m + wholeA * cdiv(c.n, n1);
        if (mFirst < nFirst) offer(wholeA * f.n, wholeB * cdiv(c.m, m1));
        else offer(wholeA * cdiv(c.n, n1), wholeB * f.m);
        return total;
    }
    if (aRows * kBytes + n0 * slab * twice <= l1 || m0 * kBytes * twice + n0 * slab * twice <= l1)
        offer(wholeA * f.n, wholeB * cdiv(c.m, m0));
    if (bRows * kBytes + m0 * slab * twice <= l1 || n0 * kBytes * twice + m0 * slab * twice <= l1)
        offer(wholeB * f.m, wholeA * cdiv(c.n, n0));
    return total;
}
// L0-sized steps (about 128 fractals of C, 64 of A / B) a core's share takes.
inline int32_t l0_steps(int32_t coreM, int32_t coreN, int32_t coreK) {
    int32_t n0 = std::min(std::min(16, coreN), 64);
    int32_t m0 = n0 == 0 ? 0 : std::min(std::min(coreM, 128 / n0), 64);
    n0 = m0 == 0 ? 0 : std::min(std::min(coreN, 128 / m0), 64);
    m0 = n0 == 0 ? 0 : std::min(std::min(coreM, 128 / n0), 64);
    const int32_t k0 = m0 != 0 && n0 != 0 ? std::min(std::min(64 / m0, 64 / n0), coreK) : coreK;
    return cdiv(coreM, m0) * cdiv(coreN, n0) * cdiv(coreK, k0);
}
// B kept whole in L1 (TSCM) on several cores: the core's B columns, an A slab and the bias must fit L1.
inline bool b_in_l1_fits(const Input& in, int32_t coreM, int32_t coreN, int32_t coreK, int32_t kBytes) {
    const int32_t unit = cdiv(in.alignN, kFractal);
    if (coreN < unit) return false;
    const int32_t n0 = std::min(16, coreN), m0 = std::min(16, n0 == 0 ? 0 : std::min(coreM, 128 / n0));
    const int32_t k0 = m0 != 0 && n0 != 0 ? std::min(std::min(64 / m0, 64 / n0), coreK) : coreK;
    const int64_t cols = round_up(coreN, unit);
    const int64_t need = cols * kBytes * 2 + static_cast<int64_t>(m0) * k0 * kFractal * kFractalRowBytes +
                         (in.bias ? cols * kFractal * in.biasBits / 8 : 0);
    return need <= in.l1;
}
inline void consider(const Input& in, const Counts& c, const Candidate& f, SearchState& st) {
    const int32_t kNum = c.k / f.k * kFractal * kFractal;
    int32_t kBytes = kNum * 2;
    const int32_t coreM = cdiv(c.m, f.m), coreN = cdiv(c.n, f.n);
    int32_t coreK = c.k / f.k;
    if (in.splitK && c.kCover != c.k) {
        kBytes = c.kCover / f.k * 2 * kFractal * kFractal * 2;
        coreK = c.kCover / f.k * 2;
    }
    int32_t total = load_estimate(in, c, f, coreM, coreN, coreK, kBytes);
    if (in.splitK) total *= coreK;
    // "big rows": B untransposed with 16+ fractal columns (A transposed: rows) a core, when the whole has them
    int verdict = 0;                        // 0: usual rules, 2: take it, 1: keep the earlier one
    if (!(in.bTrans && !in.aTrans)) {
        bool rows = true;
        if (!in.bTrans && c.n >= 16 && coreN < 16) rows = false;
        if (in.aTrans && c.m >= 16 && coreM < 16) rows = false;
        verdict = !st.bigRows && rows ? 2 : (st.bigRows && !rows ? 1 : 0);
    }
    const int32_t used = f.m * f.n * f.k;
    const int32_t loops = l0_steps(coreM, coreN, coreK);
    const bool moreCores = verdict == 0 && (loops < st.fewestLoops || (used > st.cores && loops == st.fewestLoops));
    const bool fewerBytes = !moreCores && used == st.cores && total < st.fewestBytes;
    const bool moreN = !moreCores && used == st.cores && total == st.fewestBytes && st.best.n * st.best.m < f.m * f.n;
    const bool fits = !in.bInL1 || b_in_l1_fits(in, coreM, coreN, coreK, kBytes);
    if ((verdict == 2 || moreCores || fewerBytes || moreN) && fits && verdict != 1) {
        st.best = f;
        st.fewestBytes = total;
        st.cores = used;
        st.fewestLoops = loops;
        st.bigRows = (!in.bTrans ? coreN >= 16 : true) && (in.aTrans ? coreM >= 16 : true) && used > 1;
        st.found = true;
    }
}
// The divisors of `count`, of its cover and of the core count, up to `limit`.
inline std::vector<int32_t> dim_candidates(int32_t count, int32_t cover, int32_t cores, int32_t limit) {
    std::vector<int32_t> out;
    for (int32_t i = 1; i <= limit; ++i) if (count % i == 0 || cover % i == 0 || cores % i == 0) out.push_back(i);
    return out;
}
inline void add_candidate(std::vector<int32_t>& v, int32_t x) {
    v.push_back(x);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}
// The search way's core counts (mDim, nDim, kDim).
inline Candidate search_dims(const Input& in, Plan& plan) {
    const int32_t cores = in.cores;
    Counts c{cdiv(in.M, kFractal), cdiv(in.N, kFractal), cdiv(in.K, in.kUnit()), 0, 0, 0};
    c.mCover = c.m; c.nCover = c.n; c.kCover = c.k;
    if (in.splitK) {
        // a K with few small divisors is covered by the power of two below it
        int32_t upTo64 = 0, upTo128 = 0;
        for (int32_t i = 1; i <= 64 && i <= c.k; ++i) upTo64 += c.k % i == 0;
        for (int32_t i = 65; i <= 128 && i <= c.k; ++i) upTo128 += c.k % i == 0;
        if ((c.k > 64 && upTo64 <= 2) || (c.k > 128 && upTo64 + upTo128 <= 4)) c.kCover = power_of_two_cover(c.k, false);
    } else {
        c.mCover = power_of_two_cover(c.m);
        c.nCover = power_of_two_cover(c.n);
    }
    // Shapes whose A, B and C fit L0 whole, with no more fractals than cores: one core along M and N (K split in two
    // or more when asked and K is long).
    const int32_t l0cFractals = static_cast<int32_t>(in.l0c / (kFractal * kFractal) / 4);
    const int32_t l0abFractals = static_cast<int32_t>(in.l0a / (kFractal * kFractalRowBytes));
    bool awkward = false;
    if (c.n > 32) awkward = awkward || (in.splitK && (c.nCover & 31) != 0);
    if (c.m > 32) awkward = awkward || (in.splitK && (c.mCover & 31) != 0);
    if (c.n * c.m <= cores && c.m * c.k <= l0abFractals && c.n * c.k <= l0abFractals && c.m * c.n <= l0cFractals &&
        !awkward) {
        const int32_t nDim = c.n <= 32 ? 1 : c.nCover / 32, mDim = c.m <= 32 ? 1 : c.mCover / 32;
        int32_t kDim = 1;
        if (in.splitK && c.k > 32) {
            kDim = 1;
            for (int32_t up = 2; up <= cores && up <= c.k; ++up) if (c.k % up == 0) { kDim = up; break; }
        }
        const int32_t coreN = nDim == 1 ? c.n : cdiv(c.nCover, nDim), coreM = mDim == 1 ? c.m : cdiv(c.mCover, mDim);
        const int32_t coreK = kDim == 1 ? c.k : cdiv(c.kCover, kDim);
        return Candidate{cdiv(c.m, coreM), cdiv(c.n, coreN), cdiv(c.k, coreK)};
    }
    std::vector<int32_t> ms = dim_candidates(c.m, c.mCover, cores, std::min(cores, c.m));
    std::vector<int32_t> ns = dim_candidates(c.n, c.nCover, cores, std::min(cores, c.n));
    std::vector<int32_t> ks{1};
    if (in.splitK) ks = dim_candidates(c.k, c.kCover, cores, cores);
    else c.kCover = c.k;
    if (cores > 1) {   // the split nearest sqrt(M / N x cores) along M
        const float ideal = static_cast<float>(std::sqrt((c.m + 0.0f) / c.n * cores));
        const int32_t mIdeal = static_cast<int32_t>(std::ceil(ideal)), nIdeal = static_cast<int32_t>(std::ceil(cores / ideal));
        add_candidate(ms, mIdeal);
        add_candidate(ms, nIdeal == 0 ? 1 : cores / nIdeal);
        add_candidate(ns, nIdeal);
        add_candidate(ns, mIdeal == 0 ? 1 : cores / mIdeal);
    }
    auto valid = [cores](int32_t x) { return x > 0 && x <= cores; };
    SearchState st;
    for (int32_t n : ns) {
        if (!valid(n)) continue;
        for (int32_t m : ms) {
            if (!valid(n * m)) continue;
            for (int32_t k : ks) {
                if (!valid(n * m * k)) continue;
                consider(in, c, Candidate{m, n, k}, st);
            }
        }
    }
    if (in.bInL1 && !st.found) {
        plan.error = "B in TSCM on several cores: no split keeps the core's B columns whole in L1 (CANN's GetTiling "
                     "gives up here too); use one core (SetDim(1)) or SetSingleShape";
        return Candidate{};
    }
    // the per-core counts, moved towards ones the L0 / L1 loops cut evenly when that needs no more cores
    int32_t coreM = cdiv(c.m, st.best.m), coreN = cdiv(c.n, st.best.n), coreK = cdiv(c.k, st.best.k);
    const int32_t evenN = even_share(c.n, c.nCover, st.best.n), evenM = even_share(c.m, c.mCover, st.best.m);
    const int32_t evenK = even_share_k(c.k, c.kCover, st.best.k);
    const int32_t need = cdiv(c.n, evenN) * cdiv(c.m, evenM) * cdiv(c.k, evenK);
    if (valid(need)) { coreN = evenN; coreM = evenM; coreK = evenK; }
    Candidate dims{std::min(cdiv(c.m, coreM), cores), std::min(cdiv(c.n, coreN), cores), st.best.k};
    if (in.splitK) dims.k = std::min(cdiv(c.k, coreK), cores);
    return dims;
}

// ---- the L1 steps of the block and nbuffer33 ways -----------------------------------------------------------------
inline int32_t a_rows_in_l1(const Input& in, int32_t rows) { return in.aBits == 32 ? round_up(rows, kFractal) : rows; }
inline int32_t b_cols_in_l1(const Input& in, int32_t cols) {
    return in.bBits == 32 || (in.bBits <= 8 && !in.bTrans) ? round_up(cols, kFractalRowBytes * 8 / in.bBits) : cols;
}
inline int32_t a_k_in_l1(const Input& in, int32_t k) {
    if (in.aBits == 32 && in.aTrans) return round_up(k, kFractal);
    if (in.aBits == 32 || in.aBits <= 8) return round_up(k, kFractalRowBytes * 8 / in.aBits);
    return k;
}
inline int32_t b_k_in_l1(const Input& in, int32_t k) {
    if (in.bBits == 32 && !in.bTrans) return round_up(k, kFractal);
    if (in.bBits <= 8) return round_up(k, kFractalRowBytes * 8 / in.bBits);
    return k;
}
// K steps to a multiple of 256 / 512 bytes where the base K divides those.
inline void tidy_k_step(const Input& in, const Block& base, int32_t& step) {
    if (step * base.k >= in.K) return;
    const int32_t bytes = base.k * in.aBits / 8;
    for (int32_t line : {512, 256}) {
        if (step * bytes > line) {
            if ((step * bytes) % line != 0 && line % bytes == 0)
                while ((step * bytes) % line != 0 && step > 1) --step;
            return;
        }
    }
}
// Double-buffered K steps of A and B that fill L1, the larger a multiple of the smaller.
inline void fill_l1(const Input& in, const Block& base, int32_t& stepKa, int32_t& stepKb) {
    constexpr int32_t spare = 256;   // L1 bytes the B side may run over
    const int64_t l1 = in.l1;
    int32_t depthA = static_cast<int32_t>(l1 / 2 / base.m / base.k * 8 / in.aBits);
    int32_t depthB = static_cast<int32_t>((l1 + spare) / 2 / base.n / base.k * 8 / in.bBits);
    const int64_t biasBytes = in.bias ? static_cast<int64_t>(base.n) * in.biasBits / 8 : 0;
    const int64_t aBlock = static_cast<int64_t>(a_rows_in_l1(in, base.m)) * a_k_in_l1(in, base.k) * in.aBits / 8;
    const int64_t bBlock = static_cast<int64_t>(b_k_in_l1(in, base.k)) * b_cols_in_l1(in, base.n) * in.bBits / 8;
    if (depthA * aBlock + depthB * bBlock > l1 - biasBytes) {
        if (a_rows_in_l1(in, base.m) <= b_cols_in_l1(in, base.n)) depthA /= 2;
        else depthB /= 2;
    }
    stepKa = depthA / 2;
    stepKb = depthB / 2;
    tidy_k_step(in, base, stepKa);
    tidy_k_step(in, base, stepKb);
    if (stepKa >= stepKb && stepKb != 0) stepKa = stepKa / stepKb * stepKb;
    else if (stepKa != 0) stepKb = stepKb / stepKa * stepKa;
}
// The single-core shape of a split, rounded to 256-byte rows where the split allows.
inline void single_shape(const Input& in, bool blockWay, Plan& p) {
    p.singleM = cdiv(in.M, p.mDim);
    p.singleN = cdiv(in.N, p.nDim);
    p.singleK = cdiv(in.K, p.kDim);
    if (in.cores <= 1) return;
    const bool rowsWanted = blockWay || in.aNz || in.bNz;
    const int64_t cBytes = static_cast<int64_t>(p.singleN) * p.singleM * 2 * in.cBits;
    const bool outputHeavy = cBytes > static_cast<int64_t>(p.singleN) * p.singleK * in.aBits +
                                          static_cast<int64_t>(p.singleM) * p.singleK * in.bBits;
    (void)aligned_share((rowsWanted && (!in.bTrans || outputHeavy)) || in.cNz, cdiv(in.N, kFractal) * kFractal, p.nDim,
                        copy_unit(in.bBits), p.singleN);
    (void)aligned_share((rowsWanted && in.aTrans) || in.cNz, cdiv(in.M, kFractal) * kFractal, p.mDim,
                        copy_unit(in.aBits), p.singleM);
    if (in.splitK) {
        const int32_t unit = in.aBits == 32 || in.bBits == 32 ? 8 : (in.aBits == 4 || in.bBits == 4 ? 64 : (in.aBits == 8 || in.bBits == 8 ? 32 : 16));
        p.singleK = cdiv(cdiv(in.K, in.kUnit()), p.kDim) * unit;
    }
}
// Iterate order: N first when A's K is whole in L1 and B's is not, or both whole and A reloads less that way.
inline int32_t iterate_order(const Input& in, const Plan& p, int32_t kAL1, int32_t kBL1, int32_t mAL1, int32_t nBL1) {
    if (in.traverse != MatrixTraverse::NOSET) return static_cast<int32_t>(in.traverse) - 1;
    const bool aWhole = static_cast<float>(p.singleK) / kAL1 <= 1.0f, bWhole = static_cast<float>(p.singleK) / kBL1 <= 1.0f;
    if (!aWhole) return 0;
    if (!bWhole) return 1;
    const int32_t mLoop = cdiv(p.singleM, mAL1 * p.baseM), nLoop = cdiv(p.singleN, nBL1 * p.baseN);
    return p.singleM + p.singleN * mLoop < p.singleN + p.singleM * nLoop ? 1 : 0;
}
// The base block and L1 steps of the block and nbuffer33 ways, into the plan.
inline bool finish_block_way(const Input& in, const Block& base, int32_t stepKa, int32_t stepKb, Plan& p) {
    p.baseDecided = true;
    p.baseM = base.m; p.baseN = base.n; p.baseK = base.k;
    int32_t mAL1 = 1, nBL1 = 1, kAL1 = base.k * stepKa, kBL1 = base.k * stepKb;   // K in elements here
    int32_t dbA = 2, dbB = 2;
    p.iterateOrder = iterate_order(in, p, kAL1, kBL1, mAL1, nBL1);
    if (in.outerProduct) {
        if (p.baseK < p.singleK && (in.mmConfigType == 1 || (in.mmConfigType == 0 && in.batchNum != 0))) {
            p.error = "ScheduleType::OUTER_PRODUCT needs singleCoreK <= baseK with this MatmulConfig";
            return false;
        }
        if (static_cast<int64_t>(p.baseM) * p.baseN * 2 * 4 > in.l0c) {   // two blocks in L0C: halve one side
            if (p.iterateOrder == 0) { p.baseN = round_up(p.baseN / 2, kFractal); nBL1 *= 2; }
            else { p.baseM = round_up(p.baseM / 2, kFractal); mAL1 *= 2; }
        }
    }
    if (in.nbuffer33) {
        p.usedCores = std::min(p.usedCores, in.cores);
        if (p.mDim * p.nDim * p.kDim > in.cores) {   // more pieces than cores: a core takes at most 3 x 3 blocks of A
            p.singleM = std::min(p.baseM * kNBuffer33Blocks, in.M);
            p.singleK = std::min(p.baseK * kNBuffer33Blocks, in.K);
        }
        mAL1 = cdiv(p.singleM, p.baseM);
        const int32_t blocksK = cdiv(p.singleK, p.baseK);
        if (kAL1 != kBL1 || cdiv(kAL1, p.baseK) != blocksK) kAL1 = kBL1 = blocksK * p.baseK;
        dbA = dbB = 1;
        auto l1Bytes = [&]() {
            return static_cast<int64_t>(p.baseM) * p.baseK * cdiv(kAL1, p.baseK) * mAL1 * dbA * in.aBits / 8 +
                   static_cast<int64_t>(p.baseN) * p.baseK * cdiv(kBL1, p.baseK) * nBL1 * dbB * in.bBits / 8 +
                   (in.bias ? static_cast<int64_t>(p.baseN) * in.biasBits / 8 : 0);
        };
        if (l1Bytes() > in.l1) {
            while (nBL1 > 1 && l1Bytes() > in.l1) --nBL1;
            if (l1Bytes() > in.l1) { p.error = "NBuffer33: A's 3 x 3 base blocks and B's do not fit L1"; return false; }
        }
        if (nBL1 > 1) {
            const int32_t single = nBL1;
            dbB = 2; nBL1 /= 2;
            if (l1Bytes() > in.l1) { dbB = 1; nBL1 = single; }
        }
    }
    p.depthA1 = cdiv(kAL1, p.baseK) * mAL1 * dbA;
    p.depthB1 = cdiv(kBL1, p.baseK) * nBL1 * dbB;
    if (in.bBits == 32) {   // float B: K rows padded to 16 in L1; fewer B blocks if that overflows L1
        const int64_t kPadded = round_up(p.baseK, 16);
        const int64_t aK = in.aTrans && in.aBits == 32 ? kPadded : p.baseK;
        if ((p.depthA1 * aK * p.baseM + kPadded * p.baseN * p.depthB1) * 4 > in.l1)
            p.depthB1 = std::max<int64_t>(1, static_cast<int64_t>(p.baseN) * p.baseK * p.depthB1 / (kPadded * p.baseN));
    }
    nBL1 = std::min(nBL1, p.depthB1);
    p.stepM = mAL1; p.stepN = nBL1;
    p.stepKa = cdiv(kAL1, p.baseK); p.stepKb = cdiv(kBL1, p.baseK);
    if (in.bBits == 32 && p.baseK == 8) { p.stepKb = 1; p.depthB1 = nBL1 * dbB; }
    return true;
}

// The whole rule: the plan for `in`, or plan.error.
inline Plan decide(const Input& in) {
    Plan p;
    if (in.singleM > 0 || in.singleN > 0 || in.singleK > 0) {   // given: one core's shape, the SetDim count of cores
        p.singleM = in.singleM > 0 ? in.singleM : in.M;
        p.singleN = in.singleN > 0 ? in.singleN : in.N;
        p.singleK = in.singleK > 0 ? in.singleK : in.K;
        p.usedCores = in.cores;
        return p;
    }
    if (in.cores <= 1) { single_shape(in, false, p); return p; }
    const int64_t mn = static_cast<int64_t>(in.orgM) * in.orgN, perCore = 26214LL * in.cores;   // 0.8 of 128 x 256
    const bool blockWay = in.blockWays && !in.splitK && !in.shapeGiven;
    const bool large = blockWay && in.orgM >= 128 && mn > perCore, small = blockWay && !large && mn < perCore;
    if (in.nbuffer33 || large || small) {
        Block base = first_block(in);
        if (in.nbuffer33) {
            p.mDim = cdiv(in.M, base.m * kNBuffer33Blocks);
            if (in.splitK) p.kDim = cdiv(in.K, base.k * kNBuffer33Blocks);
            else if (cdiv(in.K, base.k) > kNBuffer33Blocks) {
                p.error = "NBuffer33: K is more than 3 base blocks (3 x 128 bytes); EnableMultiCoreSplitK(true) splits it";
                return p;
            }
            std::vector<Score> scores{score_large(in, base, p.mDim, 1)};
            const int32_t widest = std::min(in.N / base.n, in.cores / (p.mDim * p.kDim));
            for (int32_t n = 1; n <= widest;) scores.push_back(score_large(in, base, p.mDim, ++n));
            std::sort(scores.begin(), scores.end(), better_large);
            p.nDim = scores[0].nDim;
        } else if (large) {
            std::vector<Score> scores;
            for (const auto& f : grids_of(in.cores)) scores.push_back(score_large(in, base, f.first, f.second));
            std::sort(scores.begin(), scores.end(), better_large);
            p.mDim = scores[0].mDim; p.nDim = scores[0].nDim;
        } else {
            if (in.orgM <= 128 && in.orgN >= 128LL * in.cores) {
                p.mDim = 1; p.nDim = in.cores;
                shrink_block(in, in.orgM, in.orgN / in.cores, base);
            } else if (in.orgN <= 256 && in.orgM >= 128LL * in.cores) {
                p.mDim = in.cores; p.nDim = 1;
                shrink_block(in, in.orgM / in.cores, in.orgN, base);
            } else {
                std::vector<Score> scores;
                for (int32_t used = in.cores; used >= 1; --used)
                    for (const auto& f : grids_of(used)) scores.push_back(score_small(in, base, f.first, f.second));
                std::sort(scores.begin(), scores.end(), better_small);
                p.mDim = scores[0].mDim; p.nDim = scores[0].nDim;
                base = scores[0].base;
            }
            const int32_t halfL0 = static_cast<int32_t>(in.l0a / 2 * 8 / in.aBits);   // elements in one L0A half
            base.k = std::min(halfL0 / base.m, halfL0 / base.n);
            base.k = std::min(base.k / in.kUnit() * in.kUnit(), round_up(in.K, in.kUnit()));
        }
        int32_t stepKa = 1, stepKb = 1;
        fill_l1(in, base, stepKa, stepKb);
        single_shape(in, !in.shapeGiven && !in.splitK && in.blockWays && (large || small), p);
        p.usedCores = p.mDim * p.nDim * p.kDim;
        if (stepKa <= 0 || stepKb <= 0) { p.error = "the base block does not fit L1 twice"; return p; }
        (void)finish_block_way(in, base, stepKa, stepKb, p);
        return p;
    }
    const Candidate d = search_dims(in, p);
    if (p.error) return p;
    p.mDim = d.m; p.nDim = d.n; p.kDim = d.k;
    single_shape(in, false, p);
    p.usedCores = p.mDim * p.nDim * p.kDim;
    return p;
}

}  // namespace core_split_detail

// What every matmul tiling shares (CANN's abstract MatmulApiTilingBase: host code passes any of the three tilings by a
// reference to it, cann-ops quant_batch_matmul_v3's InitTilingData): the setters and GetTiling, which each kind
// overrides -- MatmulApiTiling one core, MultiCoreMatmulTiling the shape split over SetDim cores first.
class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() = default;
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) { take(p); }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC* p) { if (p) take(*p); }
    explicit MatmulApiTilingBase(const PlatformInfo& p) : soc_(p.socVersion) {
        if (p.l1Size) l1_ = platformL1_ = static_cast<int64_t>(p.l1Size);
        if (p.l0ASize) l0a_ = static_cast<int64_t>(p.l0ASize);
        if (p.l0BSize) l0b_ = static_cast<int64_t>(p.l0BSize);
        if (p.l0CSize) l0c_ = static_cast<int64_t>(p.l0CSize);
        if (p.ubSize) ub_ = static_cast<int64_t>(p.ubSize);
        bt_ = bias_table_bytes(soc_);
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat format, DataType type, bool isTrans = false) { a_ = {pos, format, type, isTrans}; aSet_ = true; return 0; }
    int32_t SetBType(TPosition pos, CubeFormat format, DataType type, bool isTrans = false) { b_ = {pos, format, type, isTrans}; return 0; }
    int32_t SetCType(TPosition pos, CubeFormat format, DataType type) { c_ = {pos, format, type, false}; return 0; }
    int32_t SetBiasType(TPosition pos, CubeFormat format, DataType type) { bias_ = {pos, format, type, false}; return 0; }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) { m_ = m; n_ = n; k_ = k; return 0; }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb) { orgM_ = m; orgN_ = n; orgKa_ = ka; orgKb_ = kb; return 0; }
    int32_t SetSingleShape(int32_t m = -1, int32_t n = -1, int32_t k = -1) { singleM_ = m; singleN_ = n; singleK_ = k; return 0; }
    // The bounds of the multi-core split's singleCoreM / singleCoreN (-1: none), which the split keeps to (singleCoreK is
    // K: this tiling does not split K)
    int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1, int32_t minN = -1,
                           int32_t minK = -1) {
        (void)maxK; (void)minK;
        rangeM_[0] = minM; rangeM_[1] = maxM; rangeN_[0] = minN; rangeN_[1] = maxN;
        return 0;
    }
    // CANN's rules (the SetFixSplit page's return codes; its implementation read for which values): -1 leaves a part as
    // it was (an earlier fixed part stays); 0 anywhere refuses the call and changes nothing; baseM and baseN must be
    // multiples of 16 and baseK of 32 bytes of A's type as set so far (CANN's A is float until SetAType), each checked in
    // turn, M, N then K, so a part before a refused one is kept. The page's "baseK: only -1" is not enforced by CANN.
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) {
        if (baseM == 0 || baseN == 0 || baseK == 0) return -1;
        if (baseM != -1) { if (baseM % core_split_detail::kFractal != 0) return -1; fixM_ = baseM; }
        if (baseN != -1) { if (baseN % core_split_detail::kFractal != 0) return -1; fixN_ = baseN; }
        const int32_t k0 = 32 / data_type_bits(aSet_ ? a_.type : DataType::DT_FLOAT) * 8;   // a 64-bit A: 0, refused
        if (baseK != -1) { if (k0 == 0 || baseK % k0 != 0) return -1; fixK_ = baseK; }
        return 0;
    }
    int32_t SetBias(bool isBias = false) { isBias_ = isBias; return 0; }
    int32_t EnableBias(bool isBias = false) { return SetBias(isBias); }
    // CANN's rules: a size below -1 or above what the tiling has now (the platform's, or less after an earlier call)
    // refuses the call and changes nothing; -1 keeps a size; any other (0 too) replaces it, L1, L0C and UB rounded down
    // to 32 bytes, the bias table's as given.
    int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1) {
        if (l1 < -1 || l1 > l1_ || l0c < -1 || l0c > l0c_ || ub < -1 || ub > ub_ || bt < -1 || bt > bt_) return -1;
        if (l1 != -1) l1_ = l1 - l1 % kBufferAlign;
        if (l0c != -1) l0c_ = l0c - l0c % kBufferAlign;
        if (ub != -1) ub_ = ub - ub % kBufferAlign;
        if (bt != -1) bt_ = bt;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse t) { traverse_ = t; return 0; }
    int32_t SetMadType(MatrixMadType) { return 0; }
    int32_t SetSplitRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    int32_t SetDoubleBuffer(bool = true, bool = true, bool = true, bool = true, bool = true, bool = true) { return 0; }
    // The multi-core split's singleCoreM / singleCoreN are multiples of these (-1 or 0: the tiling's own, 16)
    int32_t SetAlignSplit(int32_t alignM = -1, int32_t alignN = -1, int32_t alignK = -1) {
        (void)alignK;
        alignM_ = alignM; alignN_ = alignN;
        return 0;
    }
    int32_t SetDequantType(DequantType t) { dequant_ = t; return 0; }
    int32_t SetMatmulConfigParams(int32_t configType = 0, bool = false, ScheduleType schedule = ScheduleType::INNER_PRODUCT,
                                  MatrixTraverse t = MatrixTraverse::NOSET, bool = false) {
        mmConfigType_ = configType; schedule_ = schedule; traverse_ = t;
        return 0;
    }
    int32_t SetMatmulConfigParams(const MatmulConfigParams& p) {
        return SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse, p.enVecND2NZ);
    }
    // The scale operands of mx (fp8 / fp4) matmuls, which Ascend 910B does not have: GetTiling refuses them.
    int32_t SetScaleAType(TPosition, CubeFormat, bool = false) { scaled_ = true; return 0; }
    int32_t SetScaleBType(TPosition, CubeFormat, bool = true) { scaled_ = true; return 0; }
    // A 4:2 sparse B (Ascend 910B has it): the tiling is the dense one of the logical K (the kernel's Matmul then stops
    // at SetSparseIndex: not emulated yet).
    int32_t SetSparse(bool isSparse = false) { sparse_ = isSparse; return 0; }
    // Batched layouts: the axes of A, B and C (BSNGD / SBNGD / BNGS1S2) and the batch count, into the tiling's
    // *LayoutInfo* and BatchNum fields; NORMAL batches give the counts and M, N, K.
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { al_[0] = b; al_[1] = s; al_[2] = n; al_[3] = g; al_[4] = d; return 0; }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { bl_[0] = b; bl_[1] = s; bl_[2] = n; bl_[3] = g; bl_[4] = d; return 0; }
    int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) { cl_[0] = b; cl_[1] = s1; cl_[2] = n; cl_[3] = g; cl_[4] = s2; return 0; }
    int32_t SetBatchNum(int32_t batch) { batch_ = batch; return 0; }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        batch_ = std::max(batchA, batchB);
        SetShape(m, n, k);
        SetOrgShape(m, n, k);
        return 0;
    }
    void SetHF32(bool = false, int32_t = 0) {}
    int32_t GetBaseM() const { return baseM_; }
    int32_t GetBaseN() const { return baseN_; }
    int32_t GetBaseK() const { return baseK_; }

    // Fill `tiling`; -1 if the shape cannot be tiled (the reason goes to stderr, as CANN logs it).
    virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;

protected:
    // EnableL1BankConflictOptimise (MatmulApiTiling and MultiCoreMatmulTiling): whether the tiling GetTiling gave last
    // lets the kernel's Matmul place A's and B's L1 buffers in the two halves of L1 (MatmulConfig's
    // enableL1BankConflictOptimise). As the API reference's rule has it: only for the MDL configuration
    // (SetMatmulConfigParams' type 1, the default), with A, B (and the bias) coming from GM, and when what goes into
    // each half fits it -- each operand's stepM x stepKa (stepN x stepKb) base blocks, their rows and columns rounded up
    // as L1 stores them, into the upper half, and once more into the lower half when depthA1 / (stepM x stepKa) is even
    // (double-buffered); the bias row (baseN x 4 bytes) into the upper half, the per-channel quantisation scales
    // (SetDequantType(TENSOR): baseN x 8 bytes) into the lower. False before any GetTiling (no tiling to judge; our
    // own answer, CANN's reads a zeroed tiling then). The reason for false goes to stderr, as CANN logs it.
    bool l1_bank_conflict_ok() const {
        auto refuse = [](const char* why) {
            std::fprintf(stderr, "matmul_tiling: EnableL1BankConflictOptimise: %s\n", why);
            return false;
        };
        if (!tiled_) return refuse("before GetTiling: there is no tiling to check yet");
        if (mmConfigType_ != 1) return refuse("the L1 bank-conflict layout is for MDL only");
        if (a_.pos != TPosition::GM || b_.pos != TPosition::GM || (isBias_ && bias_.pos != TPosition::GM))
            return refuse("the L1 bank-conflict layout needs A, B and the bias in GM");
        const int64_t half = platformL1_ / 2;
        int64_t upper = 0, lower = half;
        auto place = [&](int64_t bytes, int32_t depth, int32_t step) {
            if (step <= 0) return;
            upper += bytes * step;
            if ((depth / step - 1) % 2 != 0) lower += bytes * step;   // double-buffered
        };
        const bool aFloat = a_.type == DataType::DT_FLOAT, bFloat = b_.type == DataType::DT_FLOAT;
        const bool a8 = data_type_bits(a_.type) <= 8, b8 = data_type_bits(b_.type) <= 8;
        const int32_t c0a = 256 / data_type_bits(a_.type), c0b = 256 / data_type_bits(b_.type);
        const int32_t aRows = aFloat ? up(last_.baseM, 16) : (a8 && a_.trans ? up(last_.baseM, c0a) : last_.baseM);
        const int32_t aCols = aFloat && a_.trans ? up(last_.baseK, 16) : (aFloat || a8 ? up(last_.baseK, c0a) : last_.baseK);
        const int32_t bRows = bFloat && !b_.trans ? up(last_.baseK, 16) : (b8 ? up(last_.baseK, c0b) : last_.baseK);
        const int32_t bCols = bFloat || (b8 && !b_.trans) ? up(last_.baseN, c0b) : last_.baseN;
        place(static_cast<int64_t>(aRows) * aCols * data_type_bits(a_.type) / 8, last_.depthA1, last_.stepKa * last_.stepM);
        place(static_cast<int64_t>(bRows) * bCols * data_type_bits(b_.type) / 8, last_.depthB1, last_.stepKb * last_.stepN);
        if (isBias_) upper += static_cast<int64_t>(last_.baseN) * 4;
        if (dequant_ == DequantType::TENSOR) lower += static_cast<int64_t>(last_.baseN) * 8;
        if (upper > half || lower > platformL1_)
            return refuse("A's and B's L1 buffers do not fit the upper / lower half of L1");
        return true;
    }
    void take(const platform_ascendc::PlatformAscendC& p) {
        uint64_t v = 0;
        bt_ = bias_table_bytes(p.GetSocVersion());
        p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v); if (v) ub_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v); if (v) l1_ = platformL1_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v); if (v) l0a_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v); if (v) l0b_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v); if (v) l0c_ = static_cast<int64_t>(v);
    }
    static int32_t up(int64_t x, int64_t a) { return static_cast<int32_t>((x + a - 1) / a * a); }
    static int32_t ceil_div(int64_t x, int64_t a) { return static_cast<int32_t>((x + a - 1) / a); }
    // The checks CANN's GetTiling makes on SetFixSplit's parts before it tiles (each against the sizes SetBufferSpace
    // left): baseM x baseK of A within L0A, baseK x baseN of B within L0B, baseM x baseN floats within L0C; and with no
    // baseK, a 32-byte column of each fixed side within L0A / L0B and, for one fixed side alone, 16 columns of it
    // within L0C.
    const char* fixed_base_refused() const {
        const int64_t m = fixM_ > 0 ? fixM_ : -1, n = fixN_ > 0 ? fixN_ : -1, k = fixK_ > 0 ? fixK_ : -1;
        if (m > 0 && k > 0 && m * k * data_type_bits(a_.type) / 8 > l0a_) return "SetFixSplit's baseM x baseK of A exceeds L0A";
        if (k > 0 && n > 0 && k * n * data_type_bits(b_.type) / 8 > l0b_) return "SetFixSplit's baseK x baseN of B exceeds L0B";
        if (m > 0 && n > 0 && m * n * 4 > l0c_) return "SetFixSplit's baseM x baseN x 4 bytes exceeds L0C";
        if (m > 0 && (m * 32 > l0a_ || (n <= 0 && m * core_split_detail::kFractal * 4 > l0c_)))
            return "SetFixSplit's baseM leaves no baseK that fits L0A / L0C";
        if (n > 0 && (n * 32 > l0b_ || (m <= 0 && n * core_split_detail::kFractal * 4 > l0c_)))
            return "SetFixSplit's baseN leaves no baseK that fits L0B / L0C";
        return nullptr;
    }
    // The bias table's bytes a tiling may use: Ascend 910B's and 310B's 1 KB, none elsewhere (CANN's pool).
    static int64_t bias_table_bytes(platform_ascendc::SocVersion soc) {
        return soc == platform_ascendc::SocVersion::ASCEND910B || soc == platform_ascendc::SocVersion::ASCEND310B ? 1024 : 0;
    }
    static constexpr int64_t kBufferAlign = 32;   // SetBufferSpace rounds L1 / L0C / UB down to this
    bool fail(const char* why) const {
        std::fprintf(stderr, "matmul_tiling: GetTiling failed: %s\n", why);
        return false;
    }
    // The split's inputs (core_split_detail::Input) from the settings.
    core_split_detail::Input split_input(int32_t cores, int32_t M, int32_t N, int32_t K, int32_t orgM, int32_t orgN) const {
        core_split_detail::Input in;
        in.cores = cores;
        in.M = M; in.N = N; in.K = K; in.orgM = orgM; in.orgN = orgN;
        in.shapeGiven = m_ > 0 || n_ > 0;
        in.singleM = singleM_; in.singleN = singleN_; in.singleK = singleK_;
        in.aBits = data_type_bits(a_.type); in.bBits = data_type_bits(b_.type);
        in.cBits = data_type_bits(c_.type); in.biasBits = data_type_bits(bias_.type);
        in.aTrans = a_.trans; in.bTrans = b_.trans;
        in.aNz = a_.format == CubeFormat::NZ; in.bNz = b_.format == CubeFormat::NZ; in.cNz = c_.format == CubeFormat::NZ;
        in.bInL1 = b_.pos == TPosition::TSCM;
        in.bias = isBias_;
        in.fixM = fixM_ > 0 ? fixM_ : -1; in.fixN = fixN_ > 0 ? fixN_ : -1;
        in.alignN = alignN_ > 0 ? alignN_ : 1;
        in.splitK = splitK_;
        in.nbuffer33 = schedule_ == ScheduleType::N_BUFFER_33;
        in.outerProduct = schedule_ == ScheduleType::OUTER_PRODUCT;
        in.blockWays = soc_ == platform_ascendc::SocVersion::ASCEND910B || soc_ == platform_ascendc::SocVersion::ASCEND950;
        in.mmConfigType = mmConfigType_; in.batchNum = batch_;
        in.traverse = traverse_;
        in.l1 = l1_; in.l0a = l0a_; in.l0c = l0c_;
        return in;
    }
    bool constrained() const {
        return alignM_ > 0 || alignN_ > 0 || rangeM_[0] > 0 || rangeM_[1] > 0 || rangeN_[0] > 0 || rangeN_[1] > 0;
    }
    bool keeps_constraints(int32_t sM, int32_t sN, int32_t M, int32_t N) const {
        auto inside = [](int32_t v, const int32_t (&range)[2]) {
            return (range[0] <= 0 || v >= range[0]) && (range[1] <= 0 || v <= range[1]);
        };
        return (alignM_ <= 0 || sM % alignM_ == 0 || sM >= M) && (alignN_ <= 0 || sN % alignN_ == 0 || sN >= N) &&
               inside(std::min(sM, M), rangeM_) && inside(std::min(sN, N), rangeN_);
    }
    // SetAlignSplit / SetSingleRange: the API reference says the split keeps to them, but CANN's split (core_split_detail)
    // does not read them (only a B in TSCM keeps SetAlignSplit's N). When its split breaks one, the split is this
    // search instead: the fewest products plus loads per core among the splits that keep them (our own choice).
    bool constrained_split(int32_t cores, int32_t M, int32_t N, int32_t K, int32_t& sM, int32_t& sN) const {
        const int32_t unitM = alignM_ > 0 ? alignM_ : 16, unitN = alignN_ > 0 ? alignN_ : 16;
        int64_t best = -1;
        for (int32_t mDim = 1; mDim <= cores; ++mDim) {
            const int32_t nDim = cores / mDim;
            const int32_t cm = up(ceil_div(M, mDim), unitM), cn = up(ceil_div(N, nDim), unitN);
            if (!keeps_constraints(std::min(cm, M), std::min(cn, N), M, N)) continue;
            const int64_t work = static_cast<int64_t>(cm) * cn + (static_cast<int64_t>(cm) + cn) * K / 8;  // products + loads
            if (best < 0 || work <= best) { best = work; sM = std::min(cm, M); sN = std::min(cn, N); }
        }
        return best >= 0;
    }
    // cores: how many cores share the shape (1 = single core).
    bool compute(optiling::TCubeTiling& t, int32_t cores) {
        const int32_t orgM = orgM_ > 0 ? orgM_ : m_, orgN = orgN_ > 0 ? orgN_ : n_;
        const int32_t orgKa = orgKa_ > 0 ? orgKa_ : k_, orgKb = orgKb_ > 0 ? orgKb_ : k_;
        const int32_t M = m_ > 0 ? m_ : orgM, N = n_ > 0 ? n_ : orgN, K = k_ > 0 ? k_ : orgKa;
        if (M <= 0 || N <= 0 || K <= 0) return fail("SetShape / SetOrgShape give no positive M, N and K");
        if (m_ == 0 || n_ == 0 || k_ == 0) return fail("SetShape gave a zero M, N or K (CANN's singleM / N / K)");
        if (const char* why = fixed_base_refused()) return fail(why);
        if (scaled_) return fail("SetScaleAType / SetScaleBType: mx (fp8 / fp4) matmuls with scales are not on Ascend 910B");
        constexpr int32_t biasTableColumns = 256;   // the bias table holds 16 fractals of columns
        if (isBias_ && fixN_ > biasTableColumns) return fail("with a bias, a fixed baseN may be at most 256 (the bias table)");
        const int32_t sa = data_type_bytes(a_.type), sb = data_type_bytes(b_.type), c0 = 32 / sa;
        // the core counts and the single-core shape: CANN's rule (core_split_detail)
        const core_split_detail::Plan plan = core_split_detail::decide(split_input(cores, M, N, K, orgM, orgN));
        if (plan.error) return fail(plan.error);
        int32_t sM = plan.singleM, sN = plan.singleN, sK = plan.singleK, used = plan.usedCores;
        bool ruleBase = plan.baseDecided;
        if (cores > 1 && singleM_ <= 0 && singleN_ <= 0 && constrained() && !keeps_constraints(sM, sN, M, N)) {
            if (!constrained_split(cores, M, N, K, sM, sN))
                return fail("SetSingleRange / SetAlignSplit leave no split of M and N over the cores");
            used = ceil_div(M, sM) * ceil_div(N, sN);
            ruleBase = false;
        }
        mDim_ = ceil_div(M, sM); nDim_ = ceil_div(N, sN); usedCores_ = used;
        int32_t bM, bN, bK, depthA = 2, depthB = 2, stepM = 1, stepN = 1, stepKa = 1, stepKb = 1;
        int32_t order = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        if (ruleBase) {
            bM = plan.baseM; bN = plan.baseN; bK = plan.baseK;
            depthA = plan.depthA1; depthB = plan.depthB1; stepM = plan.stepM; stepN = plan.stepN;
            stepKa = plan.stepKa; stepKb = plan.stepKb; order = plan.iterateOrder;
        } else {
            // our own base block for the single-core shape: fixed parts as given; L0A / L0B double-buffered, L0C once
            const int32_t cm = std::min(sM, M), cn = std::min(sN, N);
            bM = fixM_ > 0 ? fixM_ : std::min(128, up(cm, 16));
            bN = fixN_ > 0 ? fixN_ : std::min(256, up(cn, 16));
            while (fixN_ <= 0 && static_cast<int64_t>(bM) * bN * 4 > l0c_ && bN > 16) bN = up(bN / 2, 16);
            const int64_t half0 = std::min(l0a_, l0b_) / 2;
            bK = fixK_ > 0 ? fixK_ : static_cast<int32_t>(half0 / (static_cast<int64_t>(std::max(bM, bN)) * sa) / c0 * c0);
            if (fixK_ <= 0) bK = std::max(c0, std::min(bK, up(sK, c0)));
        }
        if (bM % 16 || bN % 16 || bK % c0)
            return fail("baseM and baseN must be multiples of 16, baseK of 32 bytes (16 halves, 32 int8, 8 floats)");
        if (static_cast<int64_t>(bM) * bK * sa > l0a_ || static_cast<int64_t>(bN) * bK * sb > l0b_)
            return fail("the base block does not fit L0A / L0B (64 KB each): make baseM, baseN or baseK smaller");
        if (static_cast<int64_t>(bM) * bN * 4 > l0c_) return fail("baseM x baseN x 4 bytes does not fit L0C (128 KB)");
        const int64_t l1 = static_cast<int64_t>(depthA) * bM * bK * sa + static_cast<int64_t>(depthB) * bN * bK * sb +
                           (isBias_ ? bN * 4 : 0);
        if (l1 > l1_) return fail("the base blocks of A and B (depthA1, depthB1) do not fit L1 (512 KB)");
        baseM_ = bM; baseN_ = bN; baseK_ = bK;
        t = optiling::TCubeTiling();
        t.usedCoreNum = used;
        t.M = orgM; t.N = orgN; t.Ka = orgKa; t.Kb = orgKb;
        t.singleCoreM = sM; t.singleCoreN = sN; t.singleCoreK = sK;
        t.baseM = bM; t.baseN = bN; t.baseK = bK;
        t.depthA1 = depthA; t.depthB1 = depthB; t.stepM = stepM; t.stepN = stepN; t.stepKa = stepKa; t.stepKb = stepKb;
        t.isBias = isBias_ ? 1 : 0;
        t.iterateOrder = order;
        t.shareL1Size = static_cast<int32_t>(l1);
        t.shareL0CSize = bM * bN * 4;
        t.dbL0A = 2; t.dbL0B = 2; t.dbL0C = 1;
        t.transLength = 0;
        t.BatchNum = batch_;
        t.ALayoutInfoB = al_[0]; t.ALayoutInfoS = al_[1]; t.ALayoutInfoN = al_[2]; t.ALayoutInfoG = al_[3]; t.ALayoutInfoD = al_[4];
        t.BLayoutInfoB = bl_[0]; t.BLayoutInfoS = bl_[1]; t.BLayoutInfoN = bl_[2]; t.BLayoutInfoG = bl_[3]; t.BLayoutInfoD = bl_[4];
        t.CLayoutInfoB = cl_[0]; t.CLayoutInfoS1 = cl_[1]; t.CLayoutInfoN = cl_[2]; t.CLayoutInfoG = cl_[3]; t.CLayoutInfoS2 = cl_[4];
        last_ = t;
        tiled_ = true;
        return true;
    }

    MatmulOperand a_, b_, c_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false}, bias_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
    int32_t m_ = -1, n_ = -1, k_ = -1, orgM_ = -1, orgN_ = -1, orgKa_ = -1, orgKb_ = -1;
    int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1, fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t baseM_ = 0, baseN_ = 0, baseK_ = 0, mDim_ = 1, nDim_ = 1, usedCores_ = 1, batch_ = 0;
    int32_t al_[5] = {}, bl_[5] = {}, cl_[5] = {};
    int32_t alignM_ = -1, alignN_ = -1, rangeM_[2] = {-1, -1}, rangeN_[2] = {-1, -1};
    bool aSet_ = false;   // SetAType called (SetFixSplit's baseK unit is float's before)
    bool isBias_ = false, scaled_ = false, sparse_ = false, splitK_ = false, tiled_ = false;
    optiling::TCubeTiling last_;   // what GetTiling gave last (EnableL1BankConflictOptimise judges it)
    DequantType dequant_ = DequantType::SCALAR;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    ScheduleType schedule_ = ScheduleType::INNER_PRODUCT;
    int32_t mmConfigType_ = 1;
    platform_ascendc::SocVersion soc_ = platform_ascendc::SocVersion::ASCEND910B;
    int64_t l1_ = 512 * 1024, l0a_ = 64 * 1024, l0b_ = 64 * 1024, l0c_ = 128 * 1024;
    int64_t ub_ = 192 * 1024 - 256, bt_ = 1024;   // SetBufferSpace's limits (the tiling does not use them)
    int64_t platformL1_ = 512 * 1024;   // the platform's L1 (SetBufferSpace does not change it)
};

// The single-core tiling.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return compute(tiling, 1) ? 0 : -1; }
    bool EnableL1BankConflictOptimise() { return l1_bank_conflict_ok(); }
};

// SetDim(n): the shape is split over n cores (the vector cores of a mixed launch, or the cube cores).
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int32_t SetDim(int32_t dim) { dim_ = dim > 0 ? dim : 1; return 0; }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return compute(tiling, dim_) ? 0 : -1; }
    int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) const { m = lastM_; n = lastN_; k = lastK_; return 0; }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const { dim = usedCores_; mDim = mDim_; nDim = nDim_; return 0; }
    // Split K over the cores too (the search way's K counts; singleCoreK is then a share of K).
    void EnableMultiCoreSplitK(bool flag) { splitK_ = flag; }
    void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }   // the same switch under its older name
    bool EnableL1BankConflictOptimise() { return l1_bank_conflict_ok(); }

private:
    bool compute(optiling::TCubeTiling& t, int32_t cores) {
        if (!MatmulApiTilingBase::compute(t, cores)) return false;
        lastM_ = t.singleCoreM; lastN_ = t.singleCoreN; lastK_ = t.singleCoreK;
        return true;
    }
    int32_t dim_ = 1, lastM_ = 0, lastN_ = 0, lastK_ = 0;
};

// Batched matmul: the layouts and the batch count (set on the base class) go into the tiling's *LayoutInfo* and BatchNum fields.
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int64_t GetTiling(optiling::TCubeTiling& t) override { return compute(t, 1) ? 0 : -1; }
    // The cores of the last tiling (usedCoreNum), M and N over singleCoreM / singleCoreN, and the batch axes' split:
    // a BatchMatmulTiling's batch counts are not settable from outside (CANN keeps SetBatch / SetSingleBatch private,
    // zero), so batchCoreM / batchCoreN are 0, as CANN's division of zero by zero gives.
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN) const {
        dim = last_.usedCoreNum;
        mDim = last_.singleCoreM ? ceil_div(last_.M, last_.singleCoreM) : 0;
        nDim = last_.singleCoreN ? ceil_div(last_.N, last_.singleCoreN) : 0;
        batchCoreM = batchCoreN = 0;
        return 0;
    }
};

// After GetTiling: how much of L1, L0C and UB the tiling uses (its shareL1Size, shareL0CSize, and the larger of
// shareUbSize and twice transLength, the UB an ND-to-NZ conversion takes), each the larger of that and what `bufSize`
// holds already, so that one SysTilingTempBufSize collects the largest of several Matmuls. Always 0 (success).
struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};
}  // namespace matmul_tiling

namespace matmul_tiling_detail {
inline int32_t take_tmp_buf_size(const optiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    s.l1Size = std::max(s.l1Size, t.shareL1Size);
    s.l0cSize = std::max(s.l0cSize, t.shareL0CSize);
    s.ubSize = std::max(s.ubSize, std::max(t.shareUbSize, 2 * t.transLength));
    return 0;
}
}  // namespace matmul_tiling_detail
// The six names CANN declares (extern "C", global): the single-core, multi-core and batch tilings', each for the host's
// optiling::TCubeTiling and (V2) the kernel's AscendC::tiling::TCubeTiling, one struct here.
inline int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    return matmul_tiling_detail::take_tmp_buf_size(t, s);
}
inline int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    return matmul_tiling_detail::take_tmp_buf_size(t, s);
}
inline int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    return matmul_tiling_detail::take_tmp_buf_size(t, s);
}
inline int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    return matmul_tiling_detail::take_tmp_buf_size(t, s);
}
inline int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    return matmul_tiling_detail::take_tmp_buf_size(t, s);
}
inline int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& t, matmul_tiling::SysTilingTempBufSize& s) {
    return matmul_tiling_detail::take_tmp_buf_size(t, s);
}

namespace matmul_tiling {

using MultiCoreMatmulTilingBase = MultiCoreMatmulTiling;

}  // namespace matmul_tiling
#include "ascendcraft_emu/type_macros_pop.h"
