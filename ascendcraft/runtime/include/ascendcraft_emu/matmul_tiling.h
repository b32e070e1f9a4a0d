// AscendCraft host side: the matmul tiling API of CANN's tiling/tiling_api.h (namespace matmul_tiling):
// MatmulApiTiling (one core), MultiCoreMatmulTiling (split over SetDim cores) and BatchMatmulTiling fill a
// TCubeTiling for the kernel's Matmul object. The split is our own, chosen for the 910B's buffers: the single-core
// shape divides M and N over the cores (16-aligned), the base block fits L0A/L0B double-buffered and L0C once
// (fp16: 128 x 256 x 64), and L1 holds two base blocks of A and B. A tiling that cannot fit (a fixed base block
// larger than L0, or zero-sized shapes) makes GetTiling return -1, as CANN's does. Written from the public CANN
// documentation; no vendor code.
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

#include <algorithm>
#include <cstdint>
#include <cstdio>

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

// SetMatmulConfigParams' settings in one struct (the kernel's MatmulConfig choice); they steer CANN's search, not the
// numbers, and this tiling keeps them only to accept the call.
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

// What every matmul tiling shares (CANN's abstract MatmulApiTilingBase: host code passes any of the three tilings by a
// reference to it, cann-ops quant_batch_matmul_v3's InitTilingData): the setters and GetTiling, which each kind
// overrides -- MatmulApiTiling one core, MultiCoreMatmulTiling the shape split over SetDim cores first.
class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() = default;
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) { take(p); }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC* p) { if (p) take(*p); }
    explicit MatmulApiTilingBase(const PlatformInfo& p) {
        if (p.l1Size) l1_ = static_cast<int64_t>(p.l1Size);
        if (p.l0ASize) l0a_ = static_cast<int64_t>(p.l0ASize);
        if (p.l0BSize) l0b_ = static_cast<int64_t>(p.l0BSize);
        if (p.l0CSize) l0c_ = static_cast<int64_t>(p.l0CSize);
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat format, DataType type, bool isTrans = false) { a_ = {pos, format, type, isTrans}; return 0; }
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
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) { fixM_ = baseM; fixN_ = baseN; fixK_ = baseK; return 0; }
    int32_t SetBias(bool isBias = false) { isBias_ = isBias; return 0; }
    int32_t EnableBias(bool isBias = false) { return SetBias(isBias); }
    int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1) {
        if (l1 > 0) l1_ = l1;
        if (l0c > 0) l0c_ = l0c;
        (void)ub; (void)bt;
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
    int32_t SetDequantType(DequantType) { return 0; }
    int32_t SetMatmulConfigParams(int32_t = 0, bool = false, ScheduleType = ScheduleType::INNER_PRODUCT,
                                  MatrixTraverse t = MatrixTraverse::NOSET, bool = false) { traverse_ = t; return 0; }
    int32_t SetMatmulConfigParams(const MatmulConfigParams& p) { traverse_ = p.traverse; return 0; }
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
    void take(const platform_ascendc::PlatformAscendC& p) {
        uint64_t v = 0;
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v); if (v) l1_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v); if (v) l0a_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v); if (v) l0b_ = static_cast<int64_t>(v);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v); if (v) l0c_ = static_cast<int64_t>(v);
    }
    static int32_t up(int64_t x, int64_t a) { return static_cast<int32_t>((x + a - 1) / a * a); }
    static int32_t ceil_div(int64_t x, int64_t a) { return static_cast<int32_t>((x + a - 1) / a); }
    bool fail(const char* why) const {
        std::fprintf(stderr, "matmul_tiling: GetTiling failed: %s\n", why);
        return false;
    }
    // cores: how many cores share the shape (1 = single core).
    bool compute(optiling::TCubeTiling& t, int32_t cores) {
        const int32_t orgM = orgM_ > 0 ? orgM_ : m_, orgN = orgN_ > 0 ? orgN_ : n_;
        const int32_t orgKa = orgKa_ > 0 ? orgKa_ : k_, orgKb = orgKb_ > 0 ? orgKb_ : k_;
        const int32_t M = m_ > 0 ? m_ : orgM, N = n_ > 0 ? n_ : orgN, K = k_ > 0 ? k_ : orgKa;
        if (M <= 0 || N <= 0 || K <= 0) return fail("SetShape / SetOrgShape give no positive M, N and K");
        if (scaled_) return fail("SetScaleAType / SetScaleBType: mx (fp8 / fp4) matmuls with scales are not on Ascend 910B");
        const int32_t sa = data_type_bytes(a_.type), c0 = 32 / sa;
        // single-core shape: the given one, else the split of M x N over the cores with the least work per core
        int32_t sM = singleM_ > 0 ? singleM_ : M, sN = singleN_ > 0 ? singleN_ : N;
        const int32_t sK = singleK_ > 0 ? singleK_ : K;
        if (cores > 1 && singleM_ <= 0 && singleN_ <= 0) {
            // (SetAlignSplit: single shapes in multiples of its values; SetSingleRange: single shapes inside its bounds --
            // the API reference's two documented constraints on the split, which the search keeps to)
            const int32_t unitM = alignM_ > 0 ? alignM_ : 16, unitN = alignN_ > 0 ? alignN_ : 16;
            auto inside = [](int32_t v, const int32_t (&range)[2]) {
                return (range[0] <= 0 || v >= range[0]) && (range[1] <= 0 || v <= range[1]);
            };
            int64_t best = -1;
            for (int32_t mDim = 1; mDim <= cores; ++mDim) {
                const int32_t nDim = cores / mDim;
                const int32_t cm = up(ceil_div(M, mDim), unitM), cn = up(ceil_div(N, nDim), unitN);
                if (!inside(std::min(cm, M), rangeM_) || !inside(std::min(cn, N), rangeN_)) continue;
                const int64_t work = static_cast<int64_t>(cm) * cn + (static_cast<int64_t>(cm) + cn) * K / 8;  // products + loads
                // on a tie the split with more cores along M (the official tiling splits M first: asc-devkit's
                // matmul_advanced_api, 512 x 512 x 128 on SetDim(2), reads A at blockIdx * singleCoreM * Ka)
                if (best < 0 || work <= best) { best = work; sM = cm; sN = cn; }
            }
            if (best < 0) return fail("SetSingleRange / SetAlignSplit leave no split of M and N over the cores");
        }
        sM = std::min(sM, M);
        sN = std::min(sN, N);
        mDim_ = ceil_div(M, sM); nDim_ = ceil_div(N, sN);
        // base block: fixed parts as given; L0A / L0B double-buffered, L0C once
        int32_t bM = fixM_ > 0 ? fixM_ : std::min(128, up(sM, 16));
        int32_t bN = fixN_ > 0 ? fixN_ : std::min(256, up(sN, 16));
        while (fixN_ <= 0 && static_cast<int64_t>(bM) * bN * 4 > l0c_ && bN > 16) bN = up(bN / 2, 16);
        const int64_t half0 = std::min(l0a_, l0b_) / 2;
        int32_t bK = fixK_ > 0 ? fixK_ : static_cast<int32_t>(half0 / (static_cast<int64_t>(std::max(bM, bN)) * sa) / c0 * c0);
        if (fixK_ <= 0) bK = std::max(c0, std::min(bK, up(sK, c0)));
        if (bM % 16 || bN % 16 || bK % c0)
            return fail("baseM and baseN must be multiples of 16, baseK of 32 bytes (16 halves, 32 int8, 8 floats)");
        if (static_cast<int64_t>(bM) * bK * sa > l0a_ || static_cast<int64_t>(bN) * bK * sa > l0b_)
            return fail("the base block does not fit L0A / L0B (64 KB each): make baseM, baseN or baseK smaller");
        if (static_cast<int64_t>(bM) * bN * 4 > l0c_) return fail("baseM x baseN x 4 bytes does not fit L0C (128 KB)");
        const int32_t depth = 2, stepK = 1;
        const int64_t l1 = static_cast<int64_t>(depth) * (bM + bN) * bK * sa + (isBias_ ? bN * 4 : 0);
        if (l1 > l1_) return fail("two base blocks of A and B do not fit L1 (512 KB)");
        baseM_ = bM; baseN_ = bN; baseK_ = bK;
        t = optiling::TCubeTiling();
        t.usedCoreNum = mDim_ * nDim_;
        t.M = orgM; t.N = orgN; t.Ka = orgKa; t.Kb = orgKb;
        t.singleCoreM = sM; t.singleCoreN = sN; t.singleCoreK = sK;
        t.baseM = bM; t.baseN = bN; t.baseK = bK;
        t.depthA1 = depth; t.depthB1 = depth; t.stepM = 1; t.stepN = 1; t.stepKa = stepK; t.stepKb = stepK;
        t.isBias = isBias_ ? 1 : 0;
        t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        t.shareL1Size = static_cast<int32_t>(l1);
        t.shareL0CSize = bM * bN * 4;
        t.dbL0A = 2; t.dbL0B = 2; t.dbL0C = 1;
        t.transLength = 0;
        t.BatchNum = batch_;
        t.ALayoutInfoB = al_[0]; t.ALayoutInfoS = al_[1]; t.ALayoutInfoN = al_[2]; t.ALayoutInfoG = al_[3]; t.ALayoutInfoD = al_[4];
        t.BLayoutInfoB = bl_[0]; t.BLayoutInfoS = bl_[1]; t.BLayoutInfoN = bl_[2]; t.BLayoutInfoG = bl_[3]; t.BLayoutInfoD = bl_[4];
        t.CLayoutInfoB = cl_[0]; t.CLayoutInfoS1 = cl_[1]; t.CLayoutInfoN = cl_[2]; t.CLayoutInfoG = cl_[3]; t.CLayoutInfoS2 = cl_[4];
        return true;
    }

    MatmulOperand a_, b_, c_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false}, bias_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
    int32_t m_ = -1, n_ = -1, k_ = -1, orgM_ = -1, orgN_ = -1, orgKa_ = -1, orgKb_ = -1;
    int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1, fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t baseM_ = 0, baseN_ = 0, baseK_ = 0, mDim_ = 1, nDim_ = 1, batch_ = 0;
    int32_t al_[5] = {}, bl_[5] = {}, cl_[5] = {};
    int32_t alignM_ = -1, alignN_ = -1, rangeM_[2] = {-1, -1}, rangeN_[2] = {-1, -1};
    bool isBias_ = false, scaled_ = false, sparse_ = false;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    int64_t l1_ = 512 * 1024, l0a_ = 64 * 1024, l0b_ = 64 * 1024, l0c_ = 128 * 1024;
};

// The single-core tiling.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return compute(tiling, 1) ? 0 : -1; }
};

// SetDim(n): the shape is split over n cores (the vector cores of a mixed launch, or the cube cores).
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int32_t SetDim(int32_t dim) { dim_ = dim > 0 ? dim : 1; return 0; }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return compute(tiling, dim_) ? 0 : -1; }
    int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) const { m = lastM_; n = lastN_; k = lastK_; return 0; }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const { dim = mDim_ * nDim_; mDim = mDim_; nDim = nDim_; return 0; }
    // Split K over cores too: accepted; this tiling splits M and N only (the kernel's own K offsets still work).
    void EnableMultiCoreSplitK(bool flag) { splitK_ = flag; }

private:
    bool compute(optiling::TCubeTiling& t, int32_t cores) {
        if (!MatmulApiTilingBase::compute(t, cores)) return false;
        lastM_ = t.singleCoreM; lastN_ = t.singleCoreN; lastK_ = t.singleCoreK;
        return true;
    }
    int32_t dim_ = 1, lastM_ = 0, lastN_ = 0, lastK_ = 0;
    bool splitK_ = false;
};

// Batched matmul: the layouts and the batch count (set on the base class) go into the tiling's *LayoutInfo* and BatchNum fields.
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int64_t GetTiling(optiling::TCubeTiling& t) override { return compute(t, 1) ? 0 : -1; }
};

using MultiCoreMatmulTilingBase = MultiCoreMatmulTiling;

}  // namespace matmul_tiling
#include "ascendcraft_emu/type_macros_pop.h"
