// AscendCraft CPU emulation: the Matmul high-level API (lib/matmul_intf.h) and the TCubeTiling it reads.
// A Matmul object computes C = A x B (+ bias) for one core's single-core shape, block by block (baseM x baseN),
// with half/bfloat16_t/float inputs accumulating in fp32 and int8 in int32, as the cube core does. On the NPU
// the object on the vector core sends messages to a server on the cube core; here the work runs where it is
// asked for, in the calling block, and trace mode records it as the cube core's MTE2, M and FIX pipe work.
// Why one header (about 1,260 lines): the Matmul class template is one type whose members the kernel instantiates
// with its own MatmulType / MatmulConfig arguments, so it lives in a header whole; the computation is in
// runtime/cube/emu_cube.cpp (matmul_block), the host tiling in matmul_tiling.h.
// Written from the public AscendC documentation; no vendor code.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cube.h"
#include "pipe.h"

#include "cube_tiling.h"

namespace ascendcraft { namespace emu {

// The TCubeTiling fields that decide what a Matmul keeps in L1 and L0.
struct TCubeTilingView {
    int baseM, baseN, baseK, depthA1, depthB1, stepM, stepN, stepKa, stepKb, dbL0A, dbL0B, dbL0C;
};

// One Matmul call as the runtime sees it: a block of C from GM operands.
struct MatmulCall {
    Dt aDt = Dt::none, bDt = Dt::none, cDt = Dt::none, biasDt = Dt::none;
    const void* a = nullptr;  const void* b = nullptr;  const void* bias = nullptr;  void* c = nullptr;
    bool aTrans = false, bTrans = false, atomic = false;
    uint32_t lda = 0, ldb = 0, ldc = 0;   // row strides in elements of A (or A^T), B (or B^T) and C
    uint32_t row0 = 0, col0 = 0;          // first row / column of the block inside the single-core shape
    uint32_t m = 0, n = 0, k = 0;         // block shape
    uint32_t baseM = 0, baseN = 0, baseK = 0;
    bool packed = false;                  // C is the block itself (row0/col0 do not move it)
    bool loadA = true, loadB = true;      // trace: the block's A rows / B columns come from GM (else L1 still holds them)
    const Local* ub = nullptr;            // C goes to this UB tensor (row stride ldc) instead of GM
    uint32_t ubRowPad = 0;                // ... each row followed by this many zeros (GetTensorC<sync, doPad = true>)
    // (de)quantisation on the way out of L0C: 1 = one scale for all of C, 2 = one per column of C (quantVec[col0 + j]);
    // a scale is the float whose bits are the low 32 bits of the uint64 the kernel passes
    uint8_t quant = 0;
    uint64_t quantScalar = 0;
    const uint64_t* quantVec = nullptr;
    bool relu = false;                    // MatmulConfig::enableRelu: max(C, 0) on the way out of L0C, after the scale
    bool int4 = false;                    // A and B are int4b_t (aDt = bDt = int8): two per byte, the even element low
    // an operand in GM in the NZ format (MatmulType<GM, CubeFormat::NZ, ...>): the matrix as stored (A or A^T, B or B^T)
    // in fractals of 16 rows x 32 bytes, column block after column block, each block `aRows` / `bRows` (the stored
    // matrix's rows rounded up to 16) tall; lda / ldb stay the stored row length
    bool aNz = false, bNz = false;
    uint32_t aRows = 0, bRows = 0;
    // A or B from a LocalTensor (SetTensorA/B(LocalTensor): TSCM, i.e. L1, or VECOUT, i.e. UB) instead of GM: the
    // single-core matrix as stored there (a / b point at its first byte, lda / ldb its row length in ND)
    const Local* aLocal = nullptr;
    const Local* bLocal = nullptr;
    // the bias from a LocalTensor (SetBias(LocalTensor): TSCM or VECOUT) instead of GM: `bias` points at its first byte
    const Local* biasLocal = nullptr;
    // C into a user's L0C tensor (`ub` then is that CO1 tensor): the cube's own NZ layout of the block, its columns in
    // groups of 16, each group the block's rows (m rounded up to 16) x 16 elements, group after group (Iterate with a
    // CO1 LocalTensor); `atomic` adds to what L0C holds (enPartialSum)
    bool l0cNz = false;
    bool aOwnRows = false;   // A holds just this block's rows (a MatmulCallBackFunc CopyA1 filled them): row0 does not move into A
    // a 4:2 sparse B (SparseMatmulType + SetSparseIndex): B^T densified (N x K / 2, ldb = K / 2; k stays the logical K)
    // and its index matrix in GM (NZ, 16 x 8-byte fractals, column blocks `sparseRows` = N rounded up to 16 tall)
    const void* sparseIndex = nullptr;
    uint32_t sparseRows = 0;
    // C in GM in the NZ format (C's MatmulType CubeFormat::NZ): column blocks of cNzW columns (16; 8 for float with
    // MatmulConfig::isEnableChannelSplit), each cNzRows (M rounded up to 16) rows x cNzW, one after another
    uint32_t cNzW = 0, cNzRows = 0;
};
void matmul_block(const MatmulCall& call, SrcLoc loc);
// What a Matmul's tiling keeps in the cube core's buffers: depthA1 base blocks of A (baseM x baseK) and depthB1 of B
// (baseN x baseK) in L1 beside the bias, and one base block each in L0A / L0B / L0C. A tiling that does not fit is an
// error at `loc` (the first Iterate / IterateAll). A block of A stays in L1 for the next blocks of C only
// when its whole K panel is there at once (stepKa x baseK >= singleK, and depthA1 holds stepM x stepKa blocks); the
// same for B. The two flags say which operand the trace may reuse across blocks.
struct MatmulL1Plan { bool reuseA = false, reuseB = false; };
MatmulL1Plan matmul_l1_plan(const TCubeTilingView& t, int singleK, uint32_t aBytes, uint32_t bBytes, bool bias, SrcLoc loc);
[[noreturn]] void matmul_misuse(const char* message, const char* hint, SrcLoc loc);

}}  // namespace ascendcraft::emu

// The Matmul configuration types live at global scope, as in AscendC's matmul_config.h / tiling.h (kernels name them
// with or without `AscendC::`); namespace AscendC sees them through using-declarations below.
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class MatmulVersion { NORMAL = 0, MULTI_DATA_LOAD, BASIC_BLOCK, IBSHARE_NORM };

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;
enum class DecompressionMode { DECOMP_NONE = 0b0000, DECOMP_2bitTo8bit = 0b0001, DECOMP_3bitTo8bit = 0b0010,
                               DECOMP_4bitTo8bit = 0b0011, DECOMP_16bitTo64bit = 0b100, DECOMP_1bitTo8bit = 0b0101,
                               DECOMP_1bitTo4bit = 0b0110, DECOMP_2bitTo4bit = 0b0111, DECOMP_3bitTo4bit = 0b1000 };

// The global-scope helpers below name it `::MatmulConfig`: a kernel's project may bring another `MatmulConfig` into the
// global scope with a using-directive (cann-ops' tiling_type.h has `optiling::MatmulConfig`), and a qualified name
// does not follow using-directives when the global namespace declares the name itself.
// The compile-time configuration of a Matmul (which implementation the device code picks). The emulation
// computes the same numbers under every configuration.
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0;
    uint32_t baseMN = 0, singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false, hasAntiQuantOffset = false;
    bool doIBShareNorm = false, doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true, enableGetTensorC = true, enableSetOrgShape = true, enableSetBias = true;
    bool enableSetTail = true, enableQuantVector = true, enableSetDefineData = true;
    uint8_t iterateMode = 0;
    bool enableReuse = true, enableUBReuse = false, enableL1CacheUB = false, intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false, isBiasBatch = true, enableStaticPadZeros = false, isPartialOutput = false;
    bool enableMixDualMaster = false, isA2B2Shared = false, isEnableChannelSplit = false, enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = 64 * 1024;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;      // ReLU on C on its way out of L0C (the emulation applies it)
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
// Any of AscendC's arguments are accepted: they choose a device implementation, not the numbers.
template <typename... Args> constexpr ::MatmulConfig GetNormalConfig(Args...) { return ::MatmulConfig{}; }
template <typename... Args> constexpr ::MatmulConfig GetMDLConfig(Args...) { ::MatmulConfig c; c.doNorm = false; c.doMultiDataLoad = true; return c; }
template <typename... Args> constexpr ::MatmulConfig GetSpecialMDLConfig(Args...) { ::MatmulConfig c; c.doNorm = false; c.doSpecialMDL = true; return c; }
template <typename... Args> constexpr ::MatmulConfig GetBasicConfig(uint32_t m, uint32_t n, uint32_t k, Args...) {
    ::MatmulConfig c; c.doNorm = false; c.doBasicBlock = true; c.basicM = m; c.basicN = n; c.basicK = k; return c;
}
template <typename... Args> constexpr ::MatmulConfig GetIBShareNormConfig(Args...) { ::MatmulConfig c; c.doNorm = false; c.doIBShareNorm = true; return c; }
// The constant-tiling form: a MatmulConfig from the single-core and base shapes known at compile time
// (GetMMConfig<mode>(MatmulShapeParams{...}, ...)), and a whole static tiling from it (GetMatmulApiTiling), which the
// Matmul takes as its MM_CFG and which can stand in for the TCubeTiling (REGIST_MATMUL_OBJ with nullptr).
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
struct MatmulShapeParams {
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0, basicM = 0, basicN = 0, basicK = 0;
};
struct MatmulQuantParams { bool isPerTensor = false; bool hasAntiQuantOffset = false; };
struct MatmulBatchParams { bool isNBatch = false; BatchMode batchMode = BatchMode::NONE; bool isBiasBatch = true;
                           BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH; };
struct MatmulFuncParams {
    bool intrinsicsCheck = false, enVecND2NZ = false, enableDoubleCache = false, enableL1CacheUB = false;
    uint32_t doMTE2Preload = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableReuse = true, enableUBReuse = false, isPartialOutput = false, isA2B2Shared = false;
    bool isEnableChannelSplit = false, enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false, enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams { bool enableSetBias = true; };
namespace matmul_detail {
constexpr void apply(::MatmulConfig&) {}
// (declared first: the shape overload's call on the rest finds it by ordinary lookup; the parameter structs live in the
// global namespace, so argument-dependent lookup would not)
template <class P, class... Rest> constexpr void apply(::MatmulConfig& c, const P&, const Rest&... rest);
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulQuantParams& q, const Rest&... rest);
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulBatchParams& b, const Rest&... rest);
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulFuncParams& f, const Rest&... rest);
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulBiasParams& b, const Rest&... rest);
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulShapeParams& s, const Rest&... rest) {
    c.singleCoreM = s.singleCoreM; c.singleCoreN = s.singleCoreN; c.singleCoreK = s.singleCoreK;
    c.basicM = s.basicM; c.basicN = s.basicN; c.basicK = s.basicK;
    apply(c, rest...);
}
// Each parameter struct sets its own fields of the MatmulConfig, in any order, as AscendC's GetMMConfig does (a kernel's
// MatmulBatchParams{true, ...} is what makes the Matmul's isNBatch, MatmulFuncParams' enableRelu its ReLU on the way out).
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulQuantParams& q, const Rest&... rest) {
    c.isPerTensor = q.isPerTensor; c.hasAntiQuantOffset = q.hasAntiQuantOffset;
    apply(c, rest...);
}
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulBatchParams& b, const Rest&... rest) {
    c.isNBatch = b.isNBatch; c.batchMode = b.batchMode; c.isBiasBatch = b.isBiasBatch; c.bmmOutMode = b.bmmOutMode;
    apply(c, rest...);
}
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulFuncParams& f, const Rest&... rest) {
    c.intrinsicsCheck = f.intrinsicsCheck; c.enVecND2NZ = f.enVecND2NZ; c.enableDoubleCache = f.enableDoubleCache;
    c.enableL1CacheUB = f.enableL1CacheUB; c.doMTE2Preload = f.doMTE2Preload; c.iterateOrder = f.iterateOrder;
    c.scheduleType = f.scheduleType; c.enableReuse = f.enableReuse; c.enableUBReuse = f.enableUBReuse;
    c.isPartialOutput = f.isPartialOutput; c.isA2B2Shared = f.isA2B2Shared; c.isEnableChannelSplit = f.isEnableChannelSplit;
    c.enableKdimReorderLoad = f.enableKdimReorderLoad; c.enableL1BankConflictOptimise = f.enableL1BankConflictOptimise;
    c.enableRelu = f.enableRelu; c.decompMode = f.decompMode;
    apply(c, rest...);
}
template <class... Rest> constexpr void apply(::MatmulConfig& c, const MatmulBiasParams& b, const Rest&... rest) {
    c.enableSetBias = b.enableSetBias;
    apply(c, rest...);
}
template <class P, class... Rest> constexpr void apply(::MatmulConfig& c, const P&, const Rest&... rest) { apply(c, rest...); }
}  // namespace matmul_detail
template <MatmulConfigMode mode, class... Args> constexpr ::MatmulConfig GetMMConfig(const Args&... args) {
    ::MatmulConfig c;
    c.doNorm = mode == MatmulConfigMode::CONFIG_NORM;
    c.doMultiDataLoad = mode == MatmulConfigMode::CONFIG_MDL;
    c.doSpecialMDL = mode == MatmulConfigMode::CONFIG_SPECIALMDL;
    c.doIBShareNorm = mode == MatmulConfigMode::CONFIG_IBSHARE;
    matmul_detail::apply(c, args...);
    return c;
}
struct MatmulApiStaticTiling {
#define ASCENDCRAFT_STATIC_FIELD(name) int32_t name = -1;
    ASCENDCRAFT_TCUBE_FIELDS(ASCENDCRAFT_STATIC_FIELD)
#undef ASCENDCRAFT_STATIC_FIELD
    ::MatmulConfig cfg = ::MatmulConfig{};
};
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const ::MatmulConfig& cfg, int32_t l1Size = 512 * 1024) {
    (void)l1Size;
    MatmulApiStaticTiling t;
    t.cfg = cfg;
    if (cfg.singleCoreM && cfg.singleCoreN && cfg.singleCoreK && cfg.basicM && cfg.basicN && cfg.basicK) {
        t.singleCoreM = static_cast<int32_t>(cfg.singleCoreM); t.singleCoreN = static_cast<int32_t>(cfg.singleCoreN);
        t.singleCoreK = static_cast<int32_t>(cfg.singleCoreK);
        t.M = t.singleCoreM; t.N = t.singleCoreN; t.Ka = t.Kb = t.singleCoreK;
        t.baseM = static_cast<int32_t>(cfg.basicM); t.baseN = static_cast<int32_t>(cfg.basicN); t.baseK = static_cast<int32_t>(cfg.basicK);
        t.depthA1 = t.depthB1 = 2; t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
        t.iterateOrder = 0; t.dbL0A = t.dbL0B = 2; t.dbL0C = 1; t.usedCoreNum = 1; t.isBias = 0;
    }
    return t;
}
// The MatmulConfig inside a Matmul's MM_CFG, which may be a MatmulConfig or a constant tiling (MatmulApiStaticTiling).
inline constexpr ::MatmulConfig ToMatmulConfig(const ::MatmulConfig& cfg) { return cfg; }
inline constexpr ::MatmulConfig ToMatmulConfig(const MatmulApiStaticTiling& cfg) { return cfg.cfg; }
constexpr ::MatmulConfig CFG_NORM = GetNormalConfig();
constexpr ::MatmulConfig CFG_MDL = GetMDLConfig();
constexpr ::MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr ::MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
// Which of Iterate / IterateAll / IterateBatch / IterateNBatch a kernel calls (MatmulConfig's iterateMode).
enum IterateMode : uint8_t { ITERATE_MODE_NORMAL = 0b00000001, ITERATE_MODE_ALL = 0b00000010, ITERATE_MODE_BATCH = 0b00000100,
                             ITERATE_MODE_N_BATCH = 0b00001000, ITERATE_MODE_DEFAULT = 0b11111111 };
// GetOffsetC's answer (reserved fields in AscendC; zero here).
struct MatrixOffset { int32_t offset = 0, row = 0, col = 0, height = 0, width = 0; };

struct int4b_t;   // compat.h: the 4-bit integer, two per byte (the even element in the low 4 bits)
namespace AscendC {
using ::CubeFormat; using ::LayoutMode; using ::BatchMode; using ::IterateOrder; using ::ScheduleType; using ::BatchOutMode;
using ::MatmulVersion; using ::MatmulConfig; using ::MatmulConfigMode; using ::MatmulShapeParams; using ::MatmulQuantParams;
using ::MatmulBatchParams; using ::MatmulFuncParams; using ::MatmulBiasParams; using ::MatmulApiStaticTiling; using ::GetMatmulApiTiling;
using ::GetNormalConfig; using ::GetMDLConfig; using ::GetSpecialMDLConfig; using ::GetBasicConfig; using ::GetIBShareNormConfig;
using ::GetMMConfig; using ::ToMatmulConfig; using ::IterateMode; using ::MatrixOffset; using ::DecompressionMode;
// (CFG_NORM, CFG_MDL, MM_CFG_BB and CFG_IBSHARE_NORM stay global only, as in AscendC: kernels define their own
// AscendC::CFG_MDL, cann-ops matmul_all_reduce, and a using-declaration here would clash with it.)

// An operand's place, format, element type and transposition.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition srcPos = SRCPOS;
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

// B of a 4:2 sparse Matmul (B densified: 2 of every 4 elements along K, their places in an index matrix that
// SetSparseIndex gives; INDEX_POSITION is where that matrix lives).
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
    constexpr static TPosition indexPosition = INDEX_POSITION;
};
template <class T, class = void> struct IsSparseMatmulType : std::false_type {};
template <class T> struct IsSparseMatmulType<T, std::void_t<decltype(T::indexPosition)>> : std::true_type {};

// The user's copy functions that replace the Matmul's own: C from L0C to GM, A and B from GM to L1, one base block a
// call. CopyA1 runs (the Matmul calls it for each baseM x baseK block of A, row / col the block's index along M and K,
// into its L1 buffer, which it then computes from as NZ); DataCopyOut and CopyB1 are not emulated yet: one that is set
// stops the first Iterate / IterateAll with an error that names it, rather than computing with the default copies.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr> struct MatmulCallBackFunc {
    static constexpr bool kDataCopyOut = !std::is_same<decltype(DataCopyOut), std::nullptr_t>::value;
    static constexpr bool kCopyA1 = !std::is_same<decltype(CopyA1), std::nullptr_t>::value;
    static constexpr bool kCopyB1 = !std::is_same<decltype(CopyB1), std::nullptr_t>::value;
    static constexpr auto copyA1 = CopyA1;
};
// What the Matmul hands a DataCopyOut callback about the block of C (bursts, strides, the block's place): the struct's
// fields as AscendC's matmul_utils.h has them, so that a kernel's callback compiles.
struct DataCopyOutParams {
    DataCopyOutParams() = default;
    DataCopyOutParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint32_t dstStrideIn,
                      const uint16_t nSize, const bool unitFlag, const int curMPos, const int curNPos)
        : cBurstNum(count), burstLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), oriNSize(nSize),
          enUnitFlag(unitFlag), curM(curMPos), curN(curNPos) {}
    uint8_t quantMode = 0;
    uint16_t cBurstNum = 0, burstLen = 0, srcStride = 0;
    uint32_t dstStride = 0;
    uint16_t oriNSize = 0;
    bool enUnitFlag = false;
    uint64_t quantScalar = 0;
    int curM = 0, curN = 0;
    uint64_t cbufWorkspaceAddr = 0;
};
// The callbacks of a MatmulCallBackFunc the emulation does not run (DataCopyOut, CopyB1), by name; null when none.
template <class CB, class = void> struct CallBackNames { static constexpr const char* value = nullptr; };
template <class CB> struct CallBackNames<CB, std::void_t<decltype(CB::kDataCopyOut)>> {
    static constexpr const char* value =
        CB::kDataCopyOut ? (CB::kCopyB1 ? "DataCopyOut and CopyB1" : "DataCopyOut") : (CB::kCopyB1 ? "CopyB1" : nullptr);
};
template <class CB, class = void> struct HasCopyA1 : std::false_type {};
template <class CB> struct HasCopyA1<CB, std::void_t<decltype(CB::kCopyA1)>> : std::bool_constant<CB::kCopyA1> {};

// The Matmul library's integer helpers, which kernels that include it call unqualified (cann-ops matmul_all_reduce):
// a / b rounded up, and a rounded up to a multiple of b, in the arguments' own type.
template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>> inline T Ceil(T a, T b) { return (a + b - 1) / b; }
template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>> inline T CeilAlign(T a, T b) { return Ceil(a, b) * b; }
// ... and the batch Matmul's 16-bit pair (cann-ops batch_mat_mul_v3 calls CeilDiv on uint32_t counts: they convert).
inline uint16_t CeilDiv(uint16_t a, uint16_t b) { return static_cast<uint16_t>((a + b - 1) / b); }
inline uint16_t CeilAlign(uint16_t a, uint16_t b) { return static_cast<uint16_t>(CeilDiv(a, b) * b); }
// ... and a rounded up / down to a multiple of b (0 when b is 0), which ops-transformer's mla_prolog calls unqualified
// before its own namespace's Align is declared
template <typename T> constexpr T Align(T a, T b) { return b == 0 ? 0 : (a + b - 1) / b * b; }
template <typename T> constexpr T AlignDown(T a, T b) { return b == 0 ? 0 : a / b * b; }

// The L0C element type of a Matmul on inputs of type T: fp32 for half / bfloat16_t / float, int32 for int8.
template <typename T> struct GetMmDstType { using Type = float; };
template <> struct GetMmDstType<int8_t> { using Type = int32_t; };
template <> struct GetMmDstType<::int4b_t> { using Type = int32_t; };

// Which operand a Matmul module works on, and an operand's type as the modules see it: the MatmulType with its tag and
// the element type it has in L1 (TRANS_T), as AscendC's module interface spells them.
enum class InputTypeTag : uint8_t { A = 0, B = 1, C = 2, scaleA = 3, scaleB = 4 };
template <class INPUT_TYPE, typename TRANS_TYPE = typename INPUT_TYPE::T> struct MatmulInputAType : INPUT_TYPE {
    using TRANS_T = TRANS_TYPE;
    constexpr static InputTypeTag TAG = InputTypeTag::A;
};
template <class INPUT_TYPE, typename TRANS_TYPE = typename INPUT_TYPE::T> struct MatmulInputBType : INPUT_TYPE {
    using TRANS_T = TRANS_TYPE;
    constexpr static InputTypeTag TAG = InputTypeTag::B;
};
template <class INPUT_TYPE, typename TRANS_TYPE = typename INPUT_TYPE::T> struct MatmulInputCType : INPUT_TYPE {
    using TRANS_T = TRANS_TYPE;
    constexpr static InputTypeTag TAG = InputTypeTag::C;
};

// The Matmul's policy (its last template argument): the modules its device implementation is put together from -- the
// context, the GM -> L1 copies of A and B and their L1 buffers, the L0C buffer and the copy of C out of it, the
// schedulers -- each a nested type of the policy. The emulation computes the numbers itself, not through modules: the
// built-in policies name the emulation's own stages (EmulatedModule) and compute as before, the triangular ones only
// the base blocks on or above (upper) / on or below (lower) the block diagonal -- block row <= block column, resp.
// >= -- leaving the others of C untouched. A kernel's own policy (ops-transformer's prompt_flash_attention derives one
// from MatmulPolicy and replaces the context and A's and B's L1 copies and buffers) compiles: its modules are class
// templates written against the module macros below, which the emulation never instantiates; a Matmul whose policy
// replaces a module stops at its first Iterate / IterateAll / IterateBatch with an error that names the replaced
// modules, rather than computing what the default modules would. A policy that only derives from a built-in one, with
// nothing replaced, is that policy.
namespace Impl {
constexpr int32_t QUEUE_DEPTH = 1;   // the Matmul's own queues are single-buffered (kernels size their CO1 queue by it)
namespace Detail {
enum class EmulatedStage { Context, CopyCubeInA, CopyCubeInB, CubeInBufferA, CubeInBufferB, CubeOutBuffer, CopyCubeOut,
                           Scheduler, BatchScheduler, BiasScheduler };
template <EmulatedStage S> struct EmulatedModule {};
template <const auto& MM_CFG, typename... IMPL_AND_TYPES> struct MatmulPolicy {
    using Context = EmulatedModule<EmulatedStage::Context>;
    using CopyCubeInA = EmulatedModule<EmulatedStage::CopyCubeInA>;
    using CopyCubeInB = EmulatedModule<EmulatedStage::CopyCubeInB>;
    using CubeInBufferA = EmulatedModule<EmulatedStage::CubeInBufferA>;
    using CubeInBufferB = EmulatedModule<EmulatedStage::CubeInBufferB>;
    using CubeOutBuffer = EmulatedModule<EmulatedStage::CubeOutBuffer>;
    using CopyCubeOut = EmulatedModule<EmulatedStage::CopyCubeOut>;
    using Scheduler = EmulatedModule<EmulatedStage::Scheduler>;
    using BatchScheduler = EmulatedModule<EmulatedStage::BatchScheduler>;
    using BiasScheduler = EmulatedModule<EmulatedStage::BiasScheduler>;
    using UserDefDataType = uint64_t;   // what SetSelfDefineData keeps
    constexpr static int emuTriangle = 0;   // 0 every base block of C, 1 the upper triangle, 2 the lower
};
template <const auto& MM_CFG, typename... IMPL_AND_TYPES>
struct NBuffer33MatmulPolicy : MatmulPolicy<MM_CFG, IMPL_AND_TYPES...> {};
template <const auto& MM_CFG, typename... IMPL_AND_TYPES>
struct TrianUpperMatmulPolicy : MatmulPolicy<MM_CFG, IMPL_AND_TYPES...> { constexpr static int emuTriangle = 1; };
template <const auto& MM_CFG, typename... IMPL_AND_TYPES>
struct TrianLowerMatmulPolicy : MatmulPolicy<MM_CFG, IMPL_AND_TYPES...> { constexpr static int emuTriangle = 2; };

// The modules a policy P replaces, one bit each in EmulatedStage's order (0: none): a nested type that is not the
// emulation's own stage. A constant, so a Matmul of a built-in policy pays nothing for the check.
template <class M, EmulatedStage S> constexpr uint32_t ReplacedBit() {
    return std::is_same<M, EmulatedModule<S>>::value ? 0u : 1u << static_cast<uint32_t>(S);
}
template <class P> constexpr uint32_t ReplacedModules() {
    return ReplacedBit<typename P::Context, EmulatedStage::Context>() |
           ReplacedBit<typename P::CopyCubeInA, EmulatedStage::CopyCubeInA>() |
           ReplacedBit<typename P::CopyCubeInB, EmulatedStage::CopyCubeInB>() |
           ReplacedBit<typename P::CubeInBufferA, EmulatedStage::CubeInBufferA>() |
           ReplacedBit<typename P::CubeInBufferB, EmulatedStage::CubeInBufferB>() |
           ReplacedBit<typename P::CubeOutBuffer, EmulatedStage::CubeOutBuffer>() |
           ReplacedBit<typename P::CopyCubeOut, EmulatedStage::CopyCubeOut>() |
           ReplacedBit<typename P::Scheduler, EmulatedStage::Scheduler>() |
           ReplacedBit<typename P::BatchScheduler, EmulatedStage::BatchScheduler>() |
           ReplacedBit<typename P::BiasScheduler, EmulatedStage::BiasScheduler>();
}
// What the Matmul needs to know of its policy: the triangle and the replaced modules. The default MatmulPolicy is
// known without instantiating it (a kernel like incre_flash_attention has hundreds of Matmul types, whose compile
// memory each policy instantiation adds to); any other policy is looked into.
template <template <const auto&, typename...> class P> struct IsDefaultPolicy : std::false_type {};
template <> struct IsDefaultPolicy<MatmulPolicy> : std::true_type {};
template <bool isDefault, class Policy, class Base> struct PolicyFacts {
    static constexpr int triangle = 0;
    static constexpr uint32_t replaced = 0;
};
template <class Policy, class Base> struct PolicyFacts<false, Policy, Base> {
    static_assert(std::is_base_of<Base, Policy>::value,
                  "Matmul: a MATMUL_POLICY of one's own derives from AscendC::Impl::Detail::MatmulPolicy<MM_CFG, IMPL, A_TYPE, "
                  "B_TYPE, C_TYPE, BIAS_TYPE> (the Matmul takes every module it does not replace from there)");
    static constexpr int triangle = Policy::emuTriangle;
    static constexpr uint32_t replaced = ReplacedModules<Policy>();
};
// Their names, "A, B and C" (one function for every Matmul: only a policy that replaces a module calls it; the
// emulation's own helper, not an AscendC name).
namespace matmul_detail {
inline std::string ReplacedModuleNames(uint32_t bits) {
    static const char* const names[] = {"Context", "CopyCubeInA", "CopyCubeInB", "CubeInBufferA", "CubeInBufferB",
                                        "CubeOutBuffer", "CopyCubeOut", "Scheduler", "BatchScheduler", "BiasScheduler"};
    std::vector<const char*> replaced;
    for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) if (bits & (1u << i)) replaced.push_back(names[i]);
    std::string out;
    for (size_t i = 0; i < replaced.size(); ++i)
        out += (i == 0 ? "" : i + 1 == replaced.size() ? " and " : ", ") + std::string(replaced[i]);
    return out;
}
}  // namespace matmul_detail
}  // namespace Detail
}  // namespace Impl

// How a kernel's own module reaches the other modules of its Matmul. A module is a class template whose first argument,
// IMPL, is the Matmul, which derives from every module of its policy: MATMUL_USE_MODULE(Name) declares the module's
// accessor of the Matmul's module Name (a pointer to it), MATMUL_USE_MODULE_ON(Name, args...) the same for a module that
// comes once per operand (Name<InputTypeTag::A>), MATMUL_MODULE(Name) calls the accessor. The emulation accepts modules
// written this way and does not run them (the policy comment above).
#ifndef MATMUL_MODULE
#define MATMUL_MODULE(NAME) cast_to_##NAME()
#define MATMUL_CAST_TO_IMPL() static_cast<IMPL*>(this)
#define MATMUL_CAST_TO_CONST_IMPL() static_cast<const IMPL*>(this)
#define MATMUL_CAST_TO_IMPL_OF(...) (static_cast<typename IMPL::__VA_ARGS__*>(MATMUL_CAST_TO_IMPL()))
#define MATMUL_CAST_TO_CONST_IMPL_OF(...) (static_cast<const typename IMPL::__VA_ARGS__*>(MATMUL_CAST_TO_CONST_IMPL()))
#define MATMUL_USE_MODULE(NAME)                                                                   \
    inline decltype(auto) MATMUL_MODULE(NAME) { return MATMUL_CAST_TO_IMPL_OF(NAME); }            \
    inline decltype(auto) MATMUL_MODULE(NAME) const { return MATMUL_CAST_TO_CONST_IMPL_OF(NAME); }
#define MATMUL_USE_MODULE_ON(NAME, ...)                                                                                     \
    inline decltype(auto) MATMUL_MODULE(NAME) { return MATMUL_CAST_TO_IMPL_OF(template NAME<__VA_ARGS__>); }             \
    inline decltype(auto) MATMUL_MODULE(NAME) const { return MATMUL_CAST_TO_CONST_IMPL_OF(template NAME<__VA_ARGS__>); }
#endif

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class MatmulImpl {
    // The policy as AscendC instantiates it (its modules' first argument is the Matmul itself), and what it decides here
    using Policy = MATMUL_POLICY<MM_CFG, MatmulImpl, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>;
    using PolicyFacts = Impl::Detail::PolicyFacts<Impl::Detail::IsDefaultPolicy<MATMUL_POLICY>::value, Policy,
                                                  Impl::Detail::MatmulPolicy<MM_CFG, MatmulImpl, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>>;
    static constexpr int kTriangle = PolicyFacts::triangle;   // 0 full, 1 upper, 2 lower
    using A = typename A_TYPE::T;
    using B = typename B_TYPE::T;
    using C = typename C_TYPE::T;
    using Bias = typename BIAS_TYPE::T;
    static constexpr bool kInt4 = std::is_same<A, ::int4b_t>::value;   // two per byte in GM, accumulated in int32
    static_assert(std::is_same<A, B>::value || (std::is_same<A, int8_t>::value && std::is_same<B, int8_t>::value),
                  "Matmul: A and B must have the same element type");
    static_assert(ascendcraft::emu::OneOf<A, half, bfloat16_t, float, int8_t, ::int4b_t>::value,
                  "Matmul on Ascend 910B (A2) takes half, bfloat16_t, float, int8_t or int4b_t inputs");
    static_assert(ascendcraft::emu::OneOf<C, half, bfloat16_t, float, int32_t, int8_t>::value,
                  "Matmul on Ascend 910B (A2) writes half, bfloat16_t, float, int32_t or (quantised) int8_t");

public:
    MatmulImpl() {}
    void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr, SrcLoc loc = {}) {
        (void)tpipe;
        if (!cubeTiling) ascendcraft::emu::matmul_misuse("Matmul::Init with a null TCubeTiling", "pass &tilingData.cubeTilingData", loc);
        tiling_ = *cubeTiling;
        inited_ = true;
        singleM_ = tiling_.singleCoreM; singleN_ = tiling_.singleCoreN; singleK_ = tiling_.singleCoreK;
        orgM_ = tiling_.M; orgN_ = tiling_.N; orgKa_ = tiling_.Ka; orgKb_ = tiling_.Kb; orgKc_ = tiling_.N;
        if (tiling_.baseM <= 0 || tiling_.baseN <= 0 || tiling_.baseK <= 0 || singleM_ <= 0 || singleN_ <= 0 || singleK_ <= 0)
            ascendcraft::emu::matmul_misuse("Matmul::Init with a TCubeTiling whose single-core or base shape is not positive",
                                            "fill the tiling with the host tiling function (MultiCoreMatmulTiling::GetTiling) "
                                            "and copy it in with GET_TILING_DATA", loc);
        hasBias_ = tiling_.isBias != 0;
    }
    // A constant tiling (GetMatmulApiTiling as the MM_CFG) with its shapes: Init from it; otherwise wait for Init.
    void emuInitStatic() {
        using Cfg = std::decay_t<decltype(MM_CFG)>;
        if constexpr (std::is_same<Cfg, MatmulApiStaticTiling>::value) {
            if (MM_CFG.baseM <= 0 || MM_CFG.singleCoreM <= 0) return;
            TCubeTiling t;
#define ASCENDCRAFT_STATIC_COPY(name) t.name = MM_CFG.name < 0 ? 0 : MM_CFG.name;
            ASCENDCRAFT_TCUBE_FIELDS(ASCENDCRAFT_STATIC_COPY)
#undef ASCENDCRAFT_STATIC_COPY
            Init(&t);
        }
    }
    // REGIST_MATMUL_OBJ with (TCubeTiling*)nullptr: AscendC's Init takes the constant tiling of MM_CFG then. On an AIV of
    // a mixed launch (the client, `index`-th object of its REGIST_MATMUL_OBJ) the cube core's server does the work with
    // the tiling its own REGIST_MATMUL_OBJ named, which this object, computing in place, takes (matmul_server_tiling_get).
    void emuInitNullTiling(TPipe* pipe, int index = -1, SrcLoc loc = {}) {
        using Cfg = std::decay_t<decltype(MM_CFG)>;
        if constexpr (std::is_same<Cfg, MatmulApiStaticTiling>::value) {
            if (MM_CFG.baseM > 0 && MM_CFG.singleCoreM > 0) { emuInitStatic(); return; }
        }
        TCubeTiling server;
        if (index >= 0 && ascendcraft::emu::matmul_server_tiling_get(index, &server, sizeof server)) {
            Init(&server, pipe, loc);
            return;
        }
        Init(nullptr, pipe, loc);   // no constant tiling to stand in: the null-tiling misuse
    }
    template <class T> void SetSubBlockIdx(T) {}
    // How many batches of C one IterateNBatch step leaves in L0C (a batch Matmul's MULTI_BATCH output mode); kept, not
    // read: the emulated IterateNBatch writes C to the workspace either way. A member of the batch Matmul only: A's
    // layout is not LayoutMode::NONE.
    template <class AT = A_TYPE, std::enable_if_t<AT::layout != LayoutMode::NONE, int> = 0>
    void SetNBatchOutNum(int32_t nBatchOutNum) { nBatchOutNum_ = nBatchOutNum; }
    void SetOrgShape(int orgM, int orgN, int orgK) { orgM_ = orgM; orgN_ = orgN; orgKa_ = orgKb_ = orgK; orgKc_ = orgN; }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        orgM_ = orgM; orgN_ = orgN; orgKa_ = orgKa; orgKb_ = orgKb; orgKc_ = orgKc ? orgKc : orgN;
    }
    void SetSingleShape(int singleM, int singleN, int singleK) { singleM_ = singleM; singleN_ = singleN; singleK_ = singleK; }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) singleM_ = tailM;
        if (tailN > 0) singleN_ = tailN;
        if (tailK > 0) singleK_ = tailK;
    }
    // A new A or B starts the next Iterate over (AscendC's Matmul client marks its next Iterate as the first one there):
    // an asynchronous Iterate<false>() whose blocks GetTensorC took begins again for the new matrices.
    void SetTensorA(const GlobalTensor<A>& gm, bool isTransposeA = false) {
        a_ = gm.address_; aTrans_ = isTransposeA || A_TYPE::isTrans; localA_ = scalarA_ = false; iterating_ = false;
    }
    void SetTensorB(const GlobalTensor<B>& gm, bool isTransposeB = false) {
        b_ = gm.address_; bTrans_ = isTransposeB || B_TYPE::isTrans; localB_ = scalarB_ = false; iterating_ = false;
    }
    void SetBias(const GlobalTensor<Bias>& gm) { bias_ = gm.address_; hasBias_ = true; localBias_ = false; }
    void ClearBias() { bias_ = nullptr; hasBias_ = false; localBias_ = false; }
    void DisableBias() { ClearBias(); }
    // Where the asynchronous GetTensorC() leaves C's blocks (the whole GM buffer, or `size` bytes from `addr`).
    template <class T> void SetWorkspace(const GlobalTensor<T>& gm) {
        workspace_ = reinterpret_cast<uint8_t*>(gm.address_);
        workspaceBytes_ = static_cast<uint64_t>(gm.GetSize()) * sizeof(T);
    }
    template <class T> void SetWorkspace(__gm__ T* addr, int size) {
        workspace_ = reinterpret_cast<uint8_t*>(addr);
        workspaceBytes_ = size > 0 ? static_cast<uint64_t>(size) : 0;
    }
    // HF32 mode for fp32 operands (transMode 0: to nearest even, 1: away from zero): the cube core's HF32 register
    void SetHF32(bool enableHF32 = false, int32_t transMode = 0, SrcLoc loc = {}) {
        (void)transMode;
        ascendcraft::emu::cube_set_hf32(enableHF32, loc);
    }

    // The whole single-core C, block by block.
    template <bool sync = true>
    void IterateAll(const GlobalTensor<C>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, bool waitIterateAll = false,
                    bool fakeMsg = false, SrcLoc loc = {}) {
        (void)enSequentialWrite; (void)waitIterateAll; (void)fakeMsg;
        start(loc);
        while (next()) emit(gm.address_, enAtomic != 0, false, loc);
        iterating_ = false;
    }
    // The batch of an operand with `count` of the product's `batches` batches that product i reads (IterateBatch):
    // (b, n, g) its own layout info, (ob, on, og) the other operand's.
    template <bool laid>
    static uint32_t shared_batch(uint32_t i, uint32_t count, uint32_t batches, int b, int n, int g, int ob, int on, int og) {
        if (count >= batches) return i;
        if constexpr (!laid) {
            return i / (batches / count);
        } else {
            if (g == 1 && og > 1) return i / static_cast<uint32_t>(og);
            if (n == 1 && on > 1) return i % static_cast<uint32_t>(og > 0 ? og : 1) + i / static_cast<uint32_t>((og > 0 ? og : 1) * on);
            if (b == 1 && ob > 1) return i % static_cast<uint32_t>((og > 0 ? og : 1) * (on > 0 ? on : 1));
            return i % count;
        }
    }
    // max(batchA, batchB) products C[i] = A[ia] x B[ib] (+ bias), one after another (batches in the NORMAL layout: matrix
    // after matrix, `matrixStride*` elements apart, or the whole matrix when 0). The operand with fewer batches is shared
    // as the API's batch offsets share it: in the NORMAL layout by consecutive products (ib = i / (batches / batchB):
    // grouped-query attention's N2 x G query heads over N2 key heads); in BSNGD / SBNGD by the axis its layout info has
    // as 1 where the other's has more (G: i / G; N: i % G + i / (G * N); B: i % (G * N)).
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<C>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      const bool enPartialSum = false, const uint8_t enAtomic = 0, SrcLoc loc = {}) {
        (void)enSequentialWrite; (void)enPartialSum;
        // The cube core's Matmul (AscendC's MatmulImpl) has only IterateBatch(gm, enPartialSum, enAtomic,
        // enSequentialWrite, strides) after SetBatchNum; a kernel that spells its flags as integers there
        // (`mm.IterateBatch(c, 0, 0, 0, strideA, strideB)`, cann-ops BatchMatMulMultiBatchKernel) lands here with a
        // "count" of 0, which no batch has: with SetBatchNum's counts set it is that form, its integers converted as C++
        // converts them to bool and uint8_t.
        if ((batchA == 0 || batchB == 0) && batchA_ > 0 && batchB_ > 0)
            return IterateBatch<sync, waitIterateBatch>(gm, static_cast<uint32_t>(batchA_), static_cast<uint32_t>(batchB_),
                                                        enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
                                                        batchA != 0, static_cast<uint8_t>(batchB), loc);
        if (batchA == 0 || batchB == 0 || (batchA != batchB && batchA != 1 && batchB != 1 && batchA % batchB && batchB % batchA))
            ascendcraft::emu::matmul_misuse("Matmul::IterateBatch with batch counts that do not broadcast",
                                            "batchA and batchB are equal, or one divides the other", loc);
        if (localA_ || localB_)
            ascendcraft::emu::matmul_misuse("Matmul::IterateBatch with A or B from a LocalTensor (TSCM / VECOUT) is not "
                                            "emulated yet", "keep the batched A and B in GM", loc);
        const A* a0 = a_;
        const B* b0 = b_;
        const uint64_t sa = matrixStrideA ? matrixStrideA : static_cast<uint64_t>(orgM_) * orgKa_;
        const uint64_t sb = matrixStrideB ? matrixStrideB : static_cast<uint64_t>(orgKb_) * orgN_;
        const uint64_t sc = matrixStrideC ? matrixStrideC : static_cast<uint64_t>(orgM_) * orgKc_;
        const uint32_t batches = batchA > batchB ? batchA : batchB;
        // BSNGD / SBNGD operands (the tiling's *LayoutInfo* fields: B, S, N, G, D): batch i is the matrix of (b, n, g)
        // = (i / (N * G), i % (N * G)), whose rows are S apart by a whole N * G * D row of the tensor (B * N * G * D in
        // SBNGD), its columns D wide; in BSNGD the batches of one b are D apart and the next b starts S rows on, in
        // SBNGD the batches are D apart throughout. A leading dimension, and the offset of each batch's first element.
        const int saveKa = orgKa_, saveKb = orgKb_, saveN = orgN_, saveKc = orgKc_, saveM = orgM_;
        auto strided = [](LayoutMode mode, uint64_t b, uint64_t s, uint64_t n, uint64_t g, uint64_t d, uint32_t i,
                          uint64_t& ld) -> uint64_t {
            const uint64_t ng = (n ? n : 1) * (g ? g : 1);
            if (mode == LayoutMode::SBNGD) { ld = (b ? b : 1) * ng * d; return i * d; }
            ld = ng * d;
            return (i / ng) * s * ng * d + (i % ng) * d;
        };
        constexpr bool aLaid = A_TYPE::layout == LayoutMode::BSNGD || A_TYPE::layout == LayoutMode::SBNGD;
        constexpr bool bLaid = B_TYPE::layout == LayoutMode::BSNGD || B_TYPE::layout == LayoutMode::SBNGD;
        constexpr bool cLaid = C_TYPE::layout == LayoutMode::BSNGD || C_TYPE::layout == LayoutMode::SBNGD;
        for (uint32_t i = 0; i < batches; ++i) {
            // (IterateNBatch's step `nBatchStep_` takes the batches after those of the steps before it)
            const uint32_t ia = nBatchStep_ * batchA + shared_batch<aLaid>(i, batchA, batches, tiling_.ALayoutInfoB, tiling_.ALayoutInfoN,
                                                                          tiling_.ALayoutInfoG, tiling_.BLayoutInfoB,
                                                                          tiling_.BLayoutInfoN, tiling_.BLayoutInfoG);
            const uint32_t ib = nBatchStep_ * batchB + shared_batch<bLaid>(i, batchB, batches, tiling_.BLayoutInfoB, tiling_.BLayoutInfoN,
                                                                          tiling_.BLayoutInfoG, tiling_.ALayoutInfoB,
                                                                          tiling_.ALayoutInfoN, tiling_.ALayoutInfoG);
            const uint32_t ic = nBatchStep_ * batches + i;
            uint64_t ld = 0, offA = ia * sa, offB = ib * sb, offC = ic * sc;
            if constexpr (aLaid) {
                offA = strided(A_TYPE::layout, tiling_.ALayoutInfoB, tiling_.ALayoutInfoS, tiling_.ALayoutInfoN,
                               tiling_.ALayoutInfoG, tiling_.ALayoutInfoD, ia, ld);
                (aTrans_ ? orgM_ : orgKa_) = static_cast<int>(ld);
            }
            if constexpr (bLaid) {
                offB = strided(B_TYPE::layout, tiling_.BLayoutInfoB, tiling_.BLayoutInfoS, tiling_.BLayoutInfoN,
                               tiling_.BLayoutInfoG, tiling_.BLayoutInfoD, ib, ld);
                (bTrans_ ? orgKb_ : orgN_) = static_cast<int>(ld);
            }
            if constexpr (cLaid) {
                offC = strided(C_TYPE::layout, tiling_.CLayoutInfoB, tiling_.CLayoutInfoS1, tiling_.CLayoutInfoN,
                               tiling_.CLayoutInfoG, tiling_.CLayoutInfoS2, ic, ld);
                orgKc_ = static_cast<int>(ld);
            }
            a_ = a0 + offA;
            b_ = b0 + offB;
            start(loc);
            while (next()) emit(gm.address_ + offC, enAtomic != 0, false, loc);
            iterating_ = false;
            orgKa_ = saveKa; orgKb_ = saveKb; orgN_ = saveN; orgKc_ = saveKc; orgM_ = saveM;
        }
        a_ = a0;
        b_ = b0;
        batchPending_ = !sync;   // IterateBatch<false>: the kernel waits for it with WaitIterateBatch()
    }
    // The end of an asynchronous IterateBatch<false>: the emulation computes the batch at the call, so C is complete
    // here; as in AscendC (which asserts it), only after an IterateBatch<false> that was not waited for yet.
    void WaitIterateBatch(SrcLoc loc = {}) {
        if (!batchPending_)
            ascendcraft::emu::matmul_misuse("Matmul::WaitIterateBatch without an asynchronous IterateBatch<false> before it",
                                            "call IterateBatch<false>(...) first; a synchronous IterateBatch needs no wait", loc);
        batchPending_ = false;
    }
    // The next baseM x baseN block of C (false when every block is done).
    // Iterate<false>() (asynchronous, the vector core's Matmul): the first call computes the whole single-core C, whose
    // blocks each GetTensorC then takes in order (`mm.template Iterate<false>(); for (...) { mm.template
    // GetTensorC<false>(ub); mm.WaitGetTensorC(); }`); a further Iterate<false>() only counts them, true once per block
    // (`while (mm.template Iterate<false>()) { ... }`), as AscendC's Matmul client does.
    template <bool sync = true> bool Iterate(bool enPartialSum = false, SrcLoc loc = {}) {
        (void)enPartialSum;
        if constexpr (!sync) {
            if (iterating_ && async_) {
                if (--asyncLeft_ > 0) return true;
                iterating_ = false;
                async_ = false;
                return false;
            }
            start(loc);
            async_ = true;
            asyncLeft_ = block_count();
            if (next()) return true;
            iterating_ = false;
            async_ = false;
            return false;
        }
        async_ = false;
        if (!iterating_) start(loc);
        if (next()) return true;
        iterating_ = false;
        return false;
    }
    // The current block into C in GM: at its place in C, or (enSequentialWrite, the GetTensorC page's sequential write:
    // "[baseM, baseN]", the kernel choosing where each block goes) the block alone at the tensor's start.
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<C>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, SrcLoc loc = {}) {
        if (!block_) ascendcraft::emu::matmul_misuse("Matmul::GetTensorC before Iterate() returned true",
                                                      "call GetTensorC inside `while (mm.Iterate()) { ... }`", loc);
        emit(gm.address_, enAtomic != 0, enSequentialWrite, loc);
    }
    // The current block into a UB tensor (VECIN / VECCALC), row-major baseM x baseN (row stride baseN), for the
    // vector core's epilogue.
    // doPad (AscendC marks it and the four sizes after it for removal; ignored without it): the block's rows as a
    // padded copy makes them, `height` rows of `width` elements read one after another from the block, each row
    // followed by zeros up to a whole 32 bytes and then `dstGap` empty 32-byte blocks (ops-transformer's
    // prompt_flash_attention takes a head size that is not a multiple of 16 so). Emulated when height x width is the
    // block itself and srcGap is 0; other sizes are a named error.
    template <bool sync = true, bool doPad = false>
    void GetTensorC(const LocalTensor<C>& ub, uint8_t enAtomic = 0, bool enSequentialWrite = false, uint32_t height = 0,
                    uint32_t width = 0, uint32_t srcGap = 0, uint32_t dstGap = 0, SrcLoc loc = {}) {
        (void)enSequentialWrite;
        if (!block_) ascendcraft::emu::matmul_misuse("Matmul::GetTensorC before Iterate() returned true",
                                                      "call GetTensorC inside `while (mm.Iterate()) { ... }`", loc);
        if constexpr (doPad) {
            ascendcraft::emu::MatmulCall call = block_call(enAtomic != 0);
            if (height != call.m || width != call.n || srcGap != 0) {
                static thread_local std::string said;
                said = "Matmul::GetTensorC<sync, doPad = true> of " + std::to_string(height) + " x " + std::to_string(width) +
                       " (srcGap " + std::to_string(srcGap) + ") from a " + std::to_string(call.m) + " x " +
                       std::to_string(call.n) + " block of C is not emulated yet (only the whole block, srcGap 0)";
                ascendcraft::emu::matmul_misuse(said.c_str(), "pass the block's own height and width (the single-core "
                                                "M and N of a one-block Matmul), or copy C out unpadded", loc);
            }
            const uint32_t perBlock = 32 / sizeof(C);
            const uint32_t rowLen = (width + perBlock - 1) / perBlock * perBlock;
            call.ub = &ub.emu();
            call.c = nullptr;
            call.ldc = rowLen + dstGap * perBlock;
            call.ubRowPad = rowLen - width;
            call.packed = true;
            run_block(call, loc);
        } else {
            (void)height; (void)width; (void)srcGap; (void)dstGap;
            emit_ub(ub, enAtomic != 0, loc);
        }
        if (async_) next();   // after Iterate<false>(): each call takes the next block
    }
    // The wait for an asynchronous GetTensorC's copy into UB before vector code reads it (AscendC: an MTE2 -> V flag).
    // The emulation copies the block at the call, so there is nothing left to wait for.
    void WaitGetTensorC() {}
    // The whole single-core C into a LocalTensor. The API reference takes a TSCM or VECIN tensor (and advises Iterate for
    // VECIN). On Atlas A2 the vector core's Matmul (the mixed form's client) has the cube core write C as IterateAll(gm)
    // writes it, into the GM behind the tensor, and copies the tensor's elements from there once C is complete; its
    // asserts ask for the synchronous form and enAtomic 0, the only form that fills the tensor. Here each block goes
    // straight to its place in the tensor: row i of C at i x N elements (C's N the row stride, as into GM). A C in L1
    // (TSCM) or in NZ, and the cube core's own Matmul (ASCENDC_CUBE_ONLY: no UB there), are named errors.
    template <bool sync = true>
    void IterateAll(const LocalTensor<C>& ub, uint8_t enAtomic = 0, SrcLoc loc = {}) {
#ifdef ASCENDC_CUBE_ONLY
        (void)ub; (void)enAtomic;
        ascendcraft::emu::matmul_misuse("Matmul::IterateAll into a LocalTensor on the cube core's Matmul (ASCENDC_CUBE_ONLY: "
                                        "C in L1 or L0C) is not emulated yet",
                                        "IterateAll into GM, or Iterate with your own CO1 tensor (mm.Iterate(false, co1))", loc);
#else
        constexpr bool inUb = C_TYPE::pos == TPosition::VECIN || C_TYPE::pos == TPosition::VECCALC ||
                              C_TYPE::pos == TPosition::VECOUT;
        if constexpr (!inUb)
            ascendcraft::emu::matmul_misuse("Matmul::IterateAll into a LocalTensor whose C_TYPE is not in UB (TSCM: C in "
                                            "L1) is not emulated yet", "make C_TYPE's position TPosition::VECIN", loc);
        if constexpr (C_TYPE::format == CubeFormat::NZ)
            ascendcraft::emu::matmul_misuse("Matmul::IterateAll into a LocalTensor with C in CubeFormat::NZ is not emulated "
                                            "yet", "use CubeFormat::ND for C", loc);
        if constexpr (!sync)
            ascendcraft::emu::matmul_misuse("Matmul::IterateAll<false> into a LocalTensor: AscendC's Matmul copies C into "
                                            "the tensor only in the synchronous form (its client asserts sync == true)",
                                            "call mm.IterateAll(ubTensor) (sync = true)", loc);
        if (enAtomic != 0)
            ascendcraft::emu::matmul_misuse("Matmul::IterateAll into a LocalTensor with enAtomic: AscendC's client asserts "
                                            "enAtomic == 0 there (atomic accumulation is for C in GM)",
                                            "pass enAtomic 0, or IterateAll into GM with enAtomic 1", loc);
        start(loc);
        while (next()) {
            ascendcraft::emu::MatmulCall call = block_call(false);
            call.ub = &ub.emu();
            call.c = nullptr;
            constexpr int kAlignC = static_cast<int>(32 / sizeof(C));
            call.ldc = C_TYPE::format == CubeFormat::ND_ALIGN ? (orgKc_ + kAlignC - 1) / kAlignC * kAlignC : orgKc_;
            call.packed = false;   // at the block's place in C (row0, col0)
            run_block(call, loc);
        }
        iterating_ = false;
#endif
    }
    void WaitIterateAll() {}
    template <class T> void SetLocalWorkspace(const LocalTensor<T>&) {}
    // What the Matmul hands its MatmulCallBackFunc callbacks: dataPtr (SetSelfDefineData) and tilingPtr (SetUserDefInfo)
    template <class T> void SetSelfDefineData(T v) { selfDefineData_ = static_cast<uint64_t>(v); }
    template <class T> void SetUserDefInfo(T v) { userDefInfo_ = static_cast<uint64_t>(v); }
    // Quantisation / dequantisation of C on its way out of L0C: C = acc x scale, the scale being the float whose bits
    // are the low 32 bits of the argument (one for all of C, or one per column of C from a uint64 vector in GM).
    void SetQuantScalar(const uint64_t quantScalar) { quant_ = 1; quantScalar_ = quantScalar; }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) { quant_ = 2; quantVec_ = quantTensor.address_; }
    void SetQuantVector(const LocalTensor<uint64_t>&, SrcLoc loc = {}) {
        ascendcraft::emu::matmul_misuse("Matmul::SetQuantVector from a LocalTensor is not emulated yet",
                                        "pass the per-channel scales as a GlobalTensor<uint64_t>", loc);
    }
    // The anti-quantisation of an int8 B on its way into L1 (A half, B int8): the API reference lists it for the Atlas
    // inference series' AI Core only, not for Atlas A2 / A3 or Ascend 950. CANN's A2 Matmul on the cube core
    // (ASCENDC_CUBE_ONLY) compiles the call and asserts at run time ("not support set anti-quant mode"): here the call
    // stops at its line with that rule. The vector core's Matmul (the mixed form's client) has no such member: a
    // compile error that says so.
    template <class T> struct anti_quant_not_on_a2 : std::false_type {};
#ifdef ASCENDC_CUBE_ONLY
    template <class T> void SetAntiQuantScalar(const T, const T, SrcLoc loc = {}) {
        ascendcraft::emu::matmul_misuse("Matmul::SetAntiQuantScalar: the Matmul's anti-quantisation of an int8 B is not "
                                        "supported on Atlas A2 (the API reference: Atlas inference series AI Core only)",
                                        "dequantise B with Cast/Muls in the vector unit before the Matmul", loc);
    }
    template <class T> void SetAntiQuantVector(const LocalTensor<T>&, const LocalTensor<T>&, SrcLoc loc = {}) {
        ascendcraft::emu::matmul_misuse("Matmul::SetAntiQuantVector: the Matmul's anti-quantisation of an int8 B is not "
                                        "supported on Atlas A2 (the API reference: Atlas inference series AI Core only)",
                                        "dequantise B with Cast/Muls in the vector unit before the Matmul", loc);
    }
#else
    template <class T> void SetAntiQuantScalar(const T, const T) {
        static_assert(anti_quant_not_on_a2<T>::value,
                      "Matmul::SetAntiQuantScalar: the vector core's Matmul (the mixed form's client) has no such member "
                      "on Atlas A2, whose Matmul does not support the anti-quantisation of an int8 B (the API reference: "
                      "Atlas inference series AI Core only); dequantise B with Cast/Muls in the vector unit");
    }
    template <class T> void SetAntiQuantVector(const LocalTensor<T>&, const LocalTensor<T>&) {
        static_assert(anti_quant_not_on_a2<T>::value,
                      "Matmul::SetAntiQuantVector: the vector core's Matmul (the mixed form's client) has no such member "
                      "on Atlas A2, whose Matmul does not support the anti-quantisation of an int8 B (the API reference: "
                      "Atlas inference series AI Core only); dequantise B with Cast/Muls in the vector unit");
    }
#endif
    // The MX Matmul's scale matrices of A and B (fp8_e8m0_t, MatmulTypeWithScale): Ascend 950 only (the API reference:
    // not on Atlas A2 / A3; CANN's headers declare them only for that chip's build, so an A2 kernel that calls them
    // does not compile). Declared here so that the compile error says so, rather than "no member named".
    template <class T> struct mx_scale_is_950_only : std::false_type {};
    template <class Tensor> void SetTensorScaleA(const Tensor&, bool = false) {
        static_assert(mx_scale_is_950_only<Tensor>::value,
                      "Matmul::SetTensorScaleA (the MX Matmul's scale of A) is Ascend 950 only: the API reference does "
                      "not support it on Atlas A2 / A3 (Ascend 910B / 910C); an A2 Matmul takes half, bfloat16_t, float, "
                      "int8_t or int4b_t without scales");
    }
    template <class Tensor> void SetTensorScaleB(const Tensor&, bool = true) {
        static_assert(mx_scale_is_950_only<Tensor>::value,
                      "Matmul::SetTensorScaleB (the MX Matmul's scale of B) is Ascend 950 only: the API reference does "
                      "not support it on Atlas A2 / A3 (Ascend 910B / 910C); an A2 Matmul takes half, bfloat16_t, float, "
                      "int8_t or int4b_t without scales");
    }
    // The index matrix of a 4:2 sparse B (B's MatmulType a SparseMatmulType): for each row of B^T, four 2-bit indices a
    // byte, in NZ (the API reference: uint2 packed into uint8, NZ only); B itself is B^T densified, N x K / 2.
    void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal, SrcLoc loc = {}) {
        if constexpr (!IsSparseMatmulType<B_TYPE>::value)
            ascendcraft::emu::matmul_misuse("Matmul::SetSparseIndex on a Matmul whose B is not a SparseMatmulType",
                                            "declare B as SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, "
                                            "int8_t, true>", loc);
        sparseIndex_ = indexGlobal.address_;
    }
    // A or B from a LocalTensor: TSCM (L1; the matrix is already there, no GM -> L1 copy) or VECOUT (UB), holding the
    // single-core matrix in the operand's MatmulType format. A or B as a scalar is accepted as the API spells it;
    // running it is not emulated yet and stops with a named error at the Iterate.
    void SetTensorA(const LocalTensor<A>& t, bool isTransposeA = false) {
        a_ = nullptr; aLocalT_ = t; aTrans_ = isTransposeA || A_TYPE::isTrans; localA_ = true; scalarA_ = false; iterating_ = false;
    }
    void SetTensorB(const LocalTensor<B>& t, bool isTransposeB = false) {
        b_ = nullptr; bLocalT_ = t; bTrans_ = isTransposeB || B_TYPE::isTrans; localB_ = true; scalarB_ = false; iterating_ = false;
    }
    void SetTensorA(A) { a_ = nullptr; localA_ = false; scalarA_ = true; }
    void SetTensorB(B) { b_ = nullptr; localB_ = false; scalarB_ = true; }
    // The bias from a LocalTensor (the SetBias page: TPosition TSCM or VECOUT, at least singleN elements): element j is
    // the bias of the single-core shape's column j, as biasGm[offset] would give it.
    void SetBias(const LocalTensor<Bias>& t) { bias_ = nullptr; biasLocalT_ = t; hasBias_ = true; localBias_ = true; }
    // Batched calls with the counts set beforehand (the second IterateBatch form).
    void SetBatchNum(int32_t batchA, int32_t batchB) { batchA_ = batchA; batchB_ = batchB; }
    template <class P, typename std::enable_if<std::is_same<P, bool>::value, int>::type = 0>
    void IterateBatch(const GlobalTensor<C>& gm, P enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      SrcLoc loc = {}) {
        if (batchA_ <= 0 || batchB_ <= 0)
            ascendcraft::emu::matmul_misuse("Matmul::IterateBatch(gm, enPartialSum, enAtomic, ...) before SetBatchNum",
                                            "call SetBatchNum(batchA, batchB) first, or pass the counts: IterateBatch(gm, batchA, batchB, ...)", loc);
        IterateBatch(gm, static_cast<uint32_t>(batchA_), static_cast<uint32_t>(batchB_), enSequentialWrite, matrixStrideA,
                     matrixStrideB, matrixStrideC, enPartialSum, enAtomic, loc);
    }
    template <class... Args> void IterateBatch(const LocalTensor<C>&, Args...) {
        ascendcraft::emu::matmul_misuse("Matmul::IterateBatch into a LocalTensor is not emulated yet",
                                        "IterateBatch into GM, then copy the part the vector core needs", SrcLoc{});
    }
    // batchLoop IterateBatch computations, one after another, into the workspace SetWorkspace gave (the API reference's
    // IterateNBatch): step s takes A's batches s x batchA .. and B's s x batchB .. (in the layout's order, or
    // matrixStrideA / B apart) and writes its max(batchA, batchB) C matrices after those of the steps before it, in C's
    // layout. The synchronous form; IterateNBatch<false> followed by WaitIterateBatch, or by GetBatchTensorC per step.
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                       SrcLoc loc = {}) {
        if (!workspace_)
            ascendcraft::emu::matmul_misuse("Matmul::IterateNBatch writes C to the workspace, and none was given",
                                            "call mm.SetWorkspace(workspaceGm) before IterateNBatch", loc);
        nBatchAsync_ = !sync;   // GetBatchTensorC reads the steps back, from the first, after an asynchronous one
        nBatchRead_ = 0;
        GlobalTensor<C> ws;
        ws.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(workspace_), workspaceBytes_ / sizeof(C));
        for (uint32_t step = 0; step < batchLoop; ++step) {
            nBatchStep_ = step;
            IterateBatch<sync, waitIterateBatch>(ws, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB,
                                                 matrixStrideC, false, 0, loc);
        }
        nBatchStep_ = 0;
    }
    // IterateNBatch<false>'s C read back one step at a time (the API reference's GetBatchTensorC; GetBatchC is its older
    // name): each call gives the next step's max(batchA, batchB) matrices of singleCoreM x singleCoreN elements, where
    // they follow one another in the workspace, as a GlobalTensor over them. As in AscendC, only after an asynchronous
    // IterateNBatch (sync = false) of a Matmul whose MatmulConfig has isNBatch.
    template <bool sync = true>
    GlobalTensor<C> GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false, SrcLoc loc = {}) {
        (void)enSequentialWrite;
        const uint64_t count = batch_slice(batchA, batchB, "GetBatchTensorC", loc);
        GlobalTensor<C> out;
        out.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(workspace_ + nBatchRead_), count);
        nBatchRead_ += count * sizeof(C);
        return out;
    }
    // ... and the LocalTensor form: the step's matrices copied into UB, one after another. Emulated where C's batches
    // follow one another whole (the NORMAL layout, or BSNGD with N x G = 1) with rows of whole 32-byte blocks
    // (singleCoreN x sizeof(C)); AscendC pads other rows (ND_ALIGN) and gathers other layouts, named errors here.
    template <bool sync = true>
    void GetBatchTensorC(const LocalTensor<C>& ub, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                         SrcLoc loc = {}) {
        const bool whole = C_TYPE::layout == LayoutMode::NORMAL || C_TYPE::layout == LayoutMode::NONE ||
                           (C_TYPE::layout == LayoutMode::BSNGD &&
                            static_cast<int64_t>(tiling_.CLayoutInfoN ? tiling_.CLayoutInfoN : 1) *
                            (tiling_.CLayoutInfoG ? tiling_.CLayoutInfoG : 1) == 1);
        if (!whole)
            ascendcraft::emu::matmul_misuse("Matmul::GetBatchTensorC into a LocalTensor with C's batches interleaved (an "
                                            "SBNGD / BNGS1S2 layout, or BSNGD with N x G > 1) is not emulated yet",
                                            "read the step from GM: GetBatchTensorC(batchA, batchB)", loc);
        if (static_cast<uint64_t>(tiling_.singleCoreN) * sizeof(C) % 32 != 0)
            ascendcraft::emu::matmul_misuse("Matmul::GetBatchTensorC into a LocalTensor with rows of singleCoreN elements "
                                            "that are not whole 32-byte blocks is not emulated yet (AscendC pads them, ND_ALIGN)",
                                            "read the step from GM: GetBatchTensorC(batchA, batchB)", loc);
        GlobalTensor<C> step = GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite, loc);
        DataCopy(ub, step, static_cast<uint32_t>(step.GetSize()));
    }
    template <bool sync = true>
    GlobalTensor<C> GetBatchC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false, SrcLoc loc = {}) {
        return GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite, loc);
    }
    template <bool sync = true>
    void GetBatchC(const LocalTensor<C>& ub, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                   SrcLoc loc = {}) {
        GetBatchTensorC<sync>(ub, batchA, batchB, enSequentialWrite, loc);
    }
    // The asynchronous GetTensorC into UB under its older name (the API reference: GetTensorC<false> covers it): the
    // next block of C after Iterate<false>().
    void AsyncGetTensorC(const LocalTensor<C>& ub, SrcLoc loc = {}) {
        if (!async_)
            ascendcraft::emu::matmul_misuse("Matmul::AsyncGetTensorC without an asynchronous Iterate<false>() before it "
                                            "(AscendC asserts the asynchronous mode)",
                                            "call mm.template Iterate<false>() first, or use GetTensorC(ub) inside "
                                            "`while (mm.Iterate()) { ... }`", loc);
        GetTensorC<false>(ub, 0, false, 0, 0, 0, 0, loc);
    }
    // The next block of C into the user's L0C tensor (the API reference's "user-managed CO1" Iterate): the block as the
    // cube leaves it in L0C, NZ (16-column groups of the block's rows rounded up to 16), float or int32_t, not
    // quantised (a Fixpipe the kernel calls takes it out); enPartialSum adds it to what the tensor holds. False when
    // every block of the single-core C is done.
    template <bool sync = true, typename T>
    bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix, SrcLoc loc = {}) {
        constexpr bool kCo1Form = C_TYPE::pos == TPosition::CO1 && C_TYPE::format == CubeFormat::NZ &&
                                  std::is_same<T, C>::value && (std::is_same<T, float>::value || std::is_same<T, int32_t>::value);
        if (!kCo1Form)
            ascendcraft::emu::matmul_misuse("Matmul::Iterate(enPartialSum, LocalTensor<T>) needs C's MatmulType to be "
                                            "TPosition::CO1, CubeFormat::NZ, and T to be C's type, float or int32_t (the "
                                            "API reference's constraint for the user-managed CO1 form)",
                                            "declare C as MatmulType<TPosition::CO1, CubeFormat::NZ, float>", loc);
        async_ = false;
        if (!iterating_) start(loc);
        if (!next()) { iterating_ = false; return false; }
        ascendcraft::emu::MatmulCall call = block_call(enPartialSum);
        call.ub = &localCmatrix.emu();
        call.c = nullptr;
        call.packed = true;
        call.l0cNz = true;
        call.quant = 0;
        call.relu = false;
        run_block(call, loc);
        return true;
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<C>& gm, const LocalTensor<C>& co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    SrcLoc loc = {}) {   // the block to GM and to a UB copy
        GetTensorC<sync>(gm, enAtomic, enSequentialWrite, loc);
        GetTensorC<sync>(co2Local, enAtomic, enSequentialWrite, 0, 0, 0, 0, loc);
    }
    uint8_t GetSubBlockIdx() { return 0; }
    template <bool isTurnOnDebug = true> MatrixOffset GetOffsetC() { return MatrixOffset{}; }
#ifndef ASCENDC_CUBE_ONLY
    // The asynchronous form (after Iterate<false>()): the current block of C goes to the workspace (SetWorkspace), packed
    // as its rows (m x n, row stride n) in the next slot of baseM x baseN elements, and comes back as a GlobalTensor
    // there; the next call takes the next block. Only the vector core's Matmul (the client, without ASCENDC_CUBE_ONLY)
    // has this form, as in AscendC (cann-ops quant_batch_matmul_v3 dequantises each block from it).
    template <bool sync = true>
    GlobalTensor<C> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false, SrcLoc loc = {}) {
        (void)enSequentialWrite;
        if (!block_) ascendcraft::emu::matmul_misuse("Matmul::GetTensorC() with no block of C left (after Iterate<false>() "
                                                     "every block is taken once)",
                                                     "call mm.template Iterate<false>() first, and GetTensorC() once per block", loc);
        if (!workspace_) ascendcraft::emu::matmul_misuse("Matmul::GetTensorC() returning the block needs the workspace it "
                                                         "leaves the block in", "call mm.SetWorkspace(workspaceGm) before Iterate", loc);
        const uint64_t slot = static_cast<uint64_t>(tiling_.baseM) * tiling_.baseN * sizeof(C);
        if (workspaceBytes_ && cOffset_ + slot > workspaceBytes_)
            ascendcraft::emu::matmul_misuse("Matmul::GetTensorC(): the workspace given to SetWorkspace has no room for "
                                            "this block of C (each takes baseM x baseN elements)",
                                            "size the workspace for every block of the single-core C", loc);
        ascendcraft::emu::MatmulCall call = block_call(enAtomic != 0);
        call.c = workspace_ + cOffset_;
        call.ldc = call.n;
        call.packed = true;
        run_block(call, loc);
        GlobalTensor<C> out;
        out.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(workspace_ + cOffset_), static_cast<uint64_t>(tiling_.baseM) * tiling_.baseN);
        cOffset_ += slot;
        next();   // the next block for the next call; Iterate<false>() counts the blocks (async_)
        return out;
    }
#endif
    void End() { iterating_ = false; block_ = false; }

private:
    // How many elements of C the next GetBatchTensorC step holds (max(batchA, batchB) x singleCoreM x singleCoreN), after
    // the checks AscendC asserts: isNBatch, an asynchronous IterateNBatch before it, and (here) a step it wrote.
    uint64_t batch_slice(uint32_t batchA, uint32_t batchB, const char* api, const SrcLoc& loc) {
        static thread_local std::string said;
        if (!config().isNBatch) {
            said = std::string("Matmul::") + api + " of a Matmul whose MatmulConfig does not set isNBatch (AscendC returns "
                   "nothing then)";
            ascendcraft::emu::matmul_misuse(said.c_str(), "make the MatmulConfig with isNBatch = true (GetMMConfig with "
                                            "MatmulBatchParams{true, ...}) and read IterateNBatch's steps", loc);
        }
        if (!nBatchAsync_) {
            said = std::string("Matmul::") + api + " without an asynchronous IterateNBatch<false> before it (AscendC "
                   "supports only the asynchronous mode)";
            ascendcraft::emu::matmul_misuse(said.c_str(), "call mm.template IterateNBatch<false>(...) first; after the "
                                            "synchronous form C is in the workspace already", loc);
        }
        const uint64_t count = static_cast<uint64_t>(batchA > batchB ? batchA : batchB) * tiling_.singleCoreM *
                               tiling_.singleCoreN;
        if (workspaceBytes_ && nBatchRead_ + count * sizeof(C) > workspaceBytes_) {
            said = std::string("Matmul::") + api + " past the end of the workspace IterateNBatch wrote (" +
                   std::to_string(nBatchRead_ / sizeof(C)) + " of " + std::to_string(workspaceBytes_ / sizeof(C)) +
                   " elements read, this step takes " + std::to_string(count) + ")";
            ascendcraft::emu::matmul_misuse(said.c_str(), "call it once per IterateNBatch step, with that step's batchA "
                                            "and batchB", loc);
        }
        return count;
    }
    // The MatmulConfig behind MM_CFG (itself, or the one a constant tiling carries).
    static constexpr MatmulConfig config() {
        if constexpr (std::is_same<std::decay_t<decltype(MM_CFG)>, MatmulApiStaticTiling>::value) return MM_CFG.cfg;
        else return MM_CFG;
    }
    void start(const SrcLoc& loc) {
        if constexpr (CallBackNames<MM_CB>::value != nullptr) {
            static const std::string said = std::string("Matmul with the MatmulCallBackFunc copy callback(s) ") +
                                            CallBackNames<MM_CB>::value + " is not emulated yet (CopyA1 is)";
            ascendcraft::emu::matmul_misuse(said.c_str(),
                                            "use nullptr in that place of MatmulCallBackFunc (the Matmul's own copy) "
                                            "on the emulator", loc);
        }
        if constexpr (PolicyFacts::replaced != 0) {
            static const std::string said = "Matmul with a MATMUL_POLICY that replaces its module(s) " +
                                            Impl::Detail::matmul_detail::ReplacedModuleNames(PolicyFacts::replaced) +
                                            " is not emulated yet (the emulated Matmul does not run a policy's modules)";
            ascendcraft::emu::matmul_misuse(said.c_str(),
                                            "use a built-in policy (MatmulPolicy, TrianUpperMatmulPolicy, ...) on the emulator", loc);
        }
        if (!inited_) ascendcraft::emu::matmul_misuse("Matmul used before Init (or REGIST_MATMUL_OBJ with its tiling)",
                                                       "call REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling) first", loc);
        if (scalarA_ || scalarB_)
            ascendcraft::emu::matmul_misuse("Matmul: A or B as a scalar (SetTensorA/B(value)) is not emulated yet",
                                            "keep A and B in GM or in a TSCM LocalTensor (SetTensorA/B(tensor))", loc);
        if ((!a_ && !localA_) || (!b_ && !localB_)) ascendcraft::emu::matmul_misuse("Matmul::Iterate/IterateAll before SetTensorA and SetTensorB",
                                                         "set both input matrices first", loc);
        if constexpr (IsSparseMatmulType<B_TYPE>::value)
            if (!sparseIndex_)
                ascendcraft::emu::matmul_misuse("Matmul with a SparseMatmulType B before SetSparseIndex",
                                                "call mm.SetSparseIndex(indexGm) before Iterate / IterateAll", loc);
        if (hasBias_ && !bias_ && !localBias_) ascendcraft::emu::matmul_misuse("Matmul: the tiling says isBias = 1 but SetBias was not called",
                                                                 "call SetBias(biasGm), or set isBias = 0 in the tiling", loc);
        l1_ = ascendcraft::emu::matmul_l1_plan(ascendcraft::emu::TCubeTilingView{tiling_.baseM, tiling_.baseN, tiling_.baseK,
                                                  tiling_.depthA1, tiling_.depthB1, tiling_.stepM, tiling_.stepN, tiling_.stepKa,
                                                  tiling_.stepKb, tiling_.dbL0A, tiling_.dbL0B, tiling_.dbL0C},
                                              singleK_, sizeof(A), sizeof(B), hasBias_, loc);
        mBlocks_ = (singleM_ + tiling_.baseM - 1) / tiling_.baseM;
        nBlocks_ = (singleN_ + tiling_.baseN - 1) / tiling_.baseN;
        index_ = -1;
        cOffset_ = 0;
        iterating_ = true;
        block_ = false;
    }
    // How many blocks of C the iteration visits (next() returns true this many times).
    int32_t block_count() const {
        int32_t count = 0;
        for (int32_t i = 0; i < mBlocks_ * nBlocks_; ++i) {
            const int32_t bm = tiling_.iterateOrder == 1 ? i / nBlocks_ : i % mBlocks_;
            const int32_t bn = tiling_.iterateOrder == 1 ? i % nBlocks_ : i / mBlocks_;
            if (!((kTriangle == 1 && bm > bn) || (kTriangle == 2 && bm < bn))) ++count;
        }
        return count;
    }
    bool next() {
        for (;;) {
            if (++index_ >= mBlocks_ * nBlocks_) { block_ = false; return false; }
            // iterateOrder 0: along M first, then N; 1: along N first
            if (tiling_.iterateOrder == 1) { bm_ = index_ / nBlocks_; bn_ = index_ % nBlocks_; }
            else { bm_ = index_ % mBlocks_; bn_ = index_ / mBlocks_; }
            if ((kTriangle == 1 && bm_ > bn_) || (kTriangle == 2 && bm_ < bn_)) continue;   // outside the triangle
            block_ = true;
            return true;
        }
    }
    ascendcraft::emu::MatmulCall block_call(bool atomic) const {
        ascendcraft::emu::MatmulCall call;
        using AIn = std::conditional_t<kInt4, int8_t, A>;
        using BIn = std::conditional_t<kInt4, int8_t, B>;
        call.aDt = ascendcraft::emu::dt_of<AIn>(); call.bDt = ascendcraft::emu::dt_of<BIn>();
        call.cDt = ascendcraft::emu::dt_of<C>(); call.biasDt = ascendcraft::emu::dt_of<Bias>();
        call.a = a_; call.b = b_; call.bias = hasBias_ ? bias_ : nullptr;
        if (hasBias_ && localBias_) { call.bias = biasLocalT_.emu().addr; call.biasLocal = &biasLocalT_.emu(); }
        // A / B from a LocalTensor (TSCM or VECOUT): the API reference's SetTensorA/B ask for at least singleM x singleK
        // (singleK x singleN) elements there -- the single-core matrix, as stored (transposed or not, ND or NZ)
        if (localA_) { call.a = aLocalT_.emu().addr; call.aLocal = &aLocalT_.emu(); }
        if (localB_) { call.b = bLocalT_.emu().addr; call.bLocal = &bLocalT_.emu(); }
        call.int4 = kInt4;
        call.aTrans = aTrans_; call.bTrans = bTrans_; call.atomic = atomic;
        call.lda = aTrans_ ? orgM_ : orgKa_;
        call.ldb = bTrans_ ? orgKb_ : orgN_;
        call.aNz = A_TYPE::format == CubeFormat::NZ;
        call.bNz = B_TYPE::format == CubeFormat::NZ;
        call.aRows = static_cast<uint32_t>(((aTrans_ ? orgKa_ : orgM_) + 15) / 16 * 16);
        call.bRows = static_cast<uint32_t>(((bTrans_ ? orgN_ : orgKb_) + 15) / 16 * 16);
        if (localA_) {
            call.lda = static_cast<uint32_t>(aTrans_ ? singleM_ : singleK_);
            call.aRows = static_cast<uint32_t>(((aTrans_ ? singleK_ : singleM_) + 15) / 16 * 16);
        }
        if (localB_) {
            call.ldb = static_cast<uint32_t>(bTrans_ ? singleK_ : singleN_);
            call.bRows = static_cast<uint32_t>(((bTrans_ ? singleN_ : singleK_) + 15) / 16 * 16);
        }
        call.row0 = bm_ * tiling_.baseM; call.col0 = bn_ * tiling_.baseN;
        const int restM = singleM_ - static_cast<int>(call.row0), restN = singleN_ - static_cast<int>(call.col0);
        call.m = static_cast<uint32_t>(restM < tiling_.baseM ? restM : tiling_.baseM);
        call.n = static_cast<uint32_t>(restN < tiling_.baseN ? restN : tiling_.baseN);
        call.k = singleK_;
        call.baseM = tiling_.baseM; call.baseN = tiling_.baseN; call.baseK = tiling_.baseK;
        call.quant = quant_; call.quantScalar = quantScalar_; call.quantVec = quantVec_;
        if constexpr (IsSparseMatmulType<B_TYPE>::value) {
            call.sparseIndex = sparseIndex_;
            call.sparseRows = static_cast<uint32_t>((orgN_ + 15) / 16 * 16);
            call.ldb = static_cast<uint32_t>(orgKb_ / 2);
        }
        call.relu = config().enableRelu;
        // L1 reuse (trace only): an L1 tile holds stepM rows of A blocks and stepN columns of B blocks, so A's rows are
        // fetched once per stepN block columns and B's columns once per stepM block rows -- when the whole K panel of
        // the operand fits in L1 (matmul_l1_plan); otherwise every block streams its K panel through L1 again
        call.loadA = !l1_.reuseA || tiling_.stepN <= 1 || bn_ % tiling_.stepN == 0;
        call.loadB = !l1_.reuseB || tiling_.stepM <= 1 || bm_ % tiling_.stepM == 0;
        return call;
    }
    void emit(void* c, bool atomic, bool sequential, const SrcLoc& loc) {
        ascendcraft::emu::MatmulCall call = block_call(atomic);
        if (sequential) {  // the block alone at `c`, its rows as wide as the block, one after another
            call.c = c;
            call.ldc = call.n;
            call.packed = true;
            run_block(call, loc);
            return;
        }
        call.c = c;
        // CubeFormat::ND_ALIGN: C's rows are N rounded up to 32 bytes apart (the Matmul guide's output aligned in the N
        // direction); the padding columns hold no result (the guide: invalid data) and are left as they are
        constexpr int kAlignC = static_cast<int>(32 / sizeof(C));
        call.ldc = C_TYPE::format == CubeFormat::ND_ALIGN ? (orgKc_ + kAlignC - 1) / kAlignC * kAlignC : orgKc_;
        // CubeFormat::NZ: the C fractals are 16 x 16 (16 x 8 with MatmulConfig's isEnableChannelSplit, which the
        // reference allows for a float C in NZ to GM only), column block after column block, each M rounded up to 16 tall
        if constexpr (C_TYPE::format == CubeFormat::NZ) {
            if (sizeof(C) == 1)
                ascendcraft::emu::matmul_misuse("Matmul: an int8_t C in CubeFormat::NZ to GM (the channel merge of 16 x 32 "
                                                "fractals) is not emulated yet", "write C in ND, or Fixpipe it from L0C", loc);
            if (config().isEnableChannelSplit && !std::is_same<C, float>::value)
                ascendcraft::emu::matmul_misuse("MatmulConfig::isEnableChannelSplit with a C that is not float: the API "
                                                "reference allows the channel split for a float C in NZ to GM only",
                                                "turn isEnableChannelSplit off, or make C float", loc);
            call.cNzW = config().isEnableChannelSplit ? 8 : 16;
            call.cNzRows = static_cast<uint32_t>((orgM_ + 15) / 16 * 16);
        }
        run_block(call, loc);
    }

    // One block of C: with a CopyA1 callback, the block's A first comes into the Matmul's L1 buffer through it, base
    // block by base block along K (each an NZ block of the block's rows rounded up to 16 x baseK, one after another, so
    // that together they are the rows' whole K panel in NZ), and the product reads A there.
    void run_block(ascendcraft::emu::MatmulCall& call, const SrcLoc& loc) {
        if constexpr (HasCopyA1<MM_CB>::value) {
            if (aTrans_ || localA_)
                ascendcraft::emu::matmul_misuse("Matmul: a MatmulCallBackFunc CopyA1 with a transposed A or an A from a "
                                                "LocalTensor is not emulated yet", "use CopyA1 with A in GM, not transposed", loc);
            constexpr uint32_t c0 = 32 / sizeof(A);
            const uint32_t rows = (call.m + 15) / 16 * 16;
            if (!cbA1Ready_) {
                const uint64_t bytes = static_cast<uint64_t>((tiling_.baseM + 15) / 16 * 16) *
                                       ((singleK_ + c0 - 1) / c0 * c0) * sizeof(A);
                GetTPipePtr()->InitBuffer(cbA1_, 1, static_cast<uint32_t>(bytes));
                cbA1Stage_ = cbA1_.template AllocTensor<int8_t>();
                cbA1Ready_ = true;
            }
            const int kBlocks = (singleK_ + tiling_.baseK - 1) / tiling_.baseK;
            for (int kb = 0; kb < kBlocks; ++kb) {
                const int useK = std::min(tiling_.baseK, singleK_ - kb * tiling_.baseK);
                const uint64_t at = static_cast<uint64_t>(kb) * tiling_.baseK * rows * sizeof(A);
                MM_CB::copyA1(cbA1Stage_[static_cast<uint32_t>(at)], reinterpret_cast<const __gm__ void*>(a_), bm_, kb,
                              static_cast<int>(call.m), useK, userDefInfo_, selfDefineData_);
            }
            call.a = cbA1Stage_.emu().addr;
            call.aLocal = &cbA1Stage_.emu();
            call.aNz = true;
            call.aRows = rows;
            call.aOwnRows = true;
        }
        ascendcraft::emu::matmul_block(call, loc);
    }

    void emit_ub(const LocalTensor<C>& ub, bool atomic, const SrcLoc& loc) {
        ascendcraft::emu::MatmulCall call = block_call(atomic);
        call.ub = &ub.emu();
        call.c = nullptr;
        call.ldc = tiling_.baseN;
        call.packed = true;
        run_block(call, loc);
    }

    TCubeTiling tiling_;
    ascendcraft::emu::MatmulL1Plan l1_;
    uint8_t quant_ = 0;
    uint64_t quantScalar_ = 0;
    const uint64_t* quantVec_ = nullptr;
    bool localA_ = false, localB_ = false, localBias_ = false, scalarA_ = false, scalarB_ = false;
    LocalTensor<A> aLocalT_;
    LocalTensor<Bias> biasLocalT_;
    LocalTensor<B> bLocalT_;
    uint64_t userDefInfo_ = 0, selfDefineData_ = 0;
    const uint8_t* sparseIndex_ = nullptr;   // SetSparseIndex's index matrix (a SparseMatmulType B)
    TQue<TPosition::A1, 1> cbA1_;       // the L1 buffer a CopyA1 callback fills (allocated from the TPipe at first use)
    LocalTensor<int8_t> cbA1Stage_;
    bool cbA1Ready_ = false;
    int32_t batchA_ = 0, batchB_ = 0, nBatchOutNum_ = 0;
    uint32_t nBatchStep_ = 0;   // the IterateNBatch step an IterateBatch computes (0 outside IterateNBatch)
    bool nBatchAsync_ = false;  // the last IterateNBatch was asynchronous: GetBatchTensorC reads its steps
    uint64_t nBatchRead_ = 0;   // ... the bytes of the workspace read so far
    uint8_t* workspace_ = nullptr;
    uint64_t workspaceBytes_ = 0, cOffset_ = 0;
    bool inited_ = false, iterating_ = false, block_ = false, hasBias_ = false, aTrans_ = false, bTrans_ = false;
    bool batchPending_ = false;   // an IterateBatch<false> not waited for yet (WaitIterateBatch)
    bool async_ = false;          // the current iteration began with Iterate<false>(): GetTensorC takes block after block
    int32_t asyncLeft_ = 0;       // how many more times Iterate<false>() returns true
    const A* a_ = nullptr;
    const B* b_ = nullptr;
    const Bias* bias_ = nullptr;
    int singleM_ = 0, singleN_ = 0, singleK_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
    int mBlocks_ = 0, nBlocks_ = 0, index_ = -1, bm_ = 0, bn_ = 0;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

// REGIST_MATMUL_OBJ(&pipe, workspace, mm1, &tiling1, mm2, &tiling2, ...): Init each Matmul with its tiling
// (a null tiling leaves the object for a later Init).
namespace matmul_detail {
inline int& regist_index() { static thread_local int index = 0; return index; }   // the next object's place in the list
inline void regist(TPipe*) {}
// (declared first: each form passes the rest of the list to whichever form fits it)
template <class MM, class V, class... Rest,
          typename std::enable_if<std::is_same<typename std::remove_cv<V>::type, void>::value, int>::type = 0>
void regist(TPipe* pipe, MM& mm, V* tiling, Rest&&... rest);
// A typed null tiling (`(TCubeTiling*)nullptr`, as the constant-tiling examples write it) is AscendC's way of saying
// "the Matmul's MM_CFG holds the tiling": Init runs with it; without a constant tiling that is a misuse at Init.
template <class MM, class... Rest> inline void regist(TPipe* pipe, MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
    const int index = regist_index()++;
    if (tiling) mm.Init(tiling, pipe);
    else mm.emuInitNullTiling(pipe, index);
    regist(pipe, rest...);
}
// AscendC deduces the tiling's type from the argument (GetCurTiling(T* t, ...)), which a bare nullptr does not have.
template <class T> struct regist_bare_nullptr : std::false_type {};
template <class MM, class... Rest> inline void regist(TPipe*, MM&, std::nullptr_t, Rest&&...) {
    static_assert(regist_bare_nullptr<MM>::value,
                  "REGIST_MATMUL_OBJ: a bare nullptr has no tiling type (AscendC: no matching function for call to "
                  "'GetCurTiling(std::nullptr_t&)'); write (TCubeTiling*)nullptr for a constant tiling in MM_CFG");
}
template <class MM> inline void regist(TPipe*, MM& mm) { ++regist_index(); mm.emuInitStatic(); }
// The tiling as an untyped pointer (`(void*)&tiling`, cann-ops rfft1_d): in the mixed form the AIVs hand the address to
// the cube core's server, which reads a TCubeTiling there, so CANN accepts it; the cube-only form passes it to
// Matmul::Init (const TCubeTiling*), which C++ does not convert a void* to.
template <class T> struct regist_void_tiling : std::false_type {};
template <class MM, class V, class... Rest,
          typename std::enable_if<std::is_same<typename std::remove_cv<V>::type, void>::value, int>::type>
void regist(TPipe* pipe, MM& mm, V* tiling, Rest&&... rest) {
#ifdef ASCENDC_CUBE_ONLY
    static_assert(regist_void_tiling<MM>::value,
                  "REGIST_MATMUL_OBJ under ASCENDC_CUBE_ONLY: a void* tiling does not convert to Matmul::Init's "
                  "const TCubeTiling* (AscendC: invalid conversion from 'void*'); pass the TCubeTiling's address itself");
    (void)pipe; (void)mm; (void)tiling;
#else
    regist(pipe, mm, static_cast<const TCubeTiling*>(tiling), rest...);
#endif
}
// The server's side: the tilings the AIC's REGIST_MATMUL_OBJ names, kept by each object's place in the list for the
// AIV clients registered with a null tiling (emuInitNullTiling). The same forms as `regist`.
inline void serve(int) {}
template <class MM> inline void serve(int, MM&) {}
// (declared first, as `regist`'s: the typed form passes the rest of the list on to an untyped or null tiling's form)
template <class MM, class V, class... Rest,
          typename std::enable_if<std::is_same<typename std::remove_cv<V>::type, void>::value, int>::type = 0>
void serve(int index, MM& mm, V* tiling, Rest&&... rest);
template <class MM, class... Rest> void serve(int index, MM&, std::nullptr_t, Rest&&... rest);
template <class MM, class... Rest> inline void serve(int index, MM&, const TCubeTiling* tiling, Rest&&... rest) {
    ascendcraft::emu::matmul_server_tiling_put(index, tiling, sizeof(TCubeTiling));
    serve(index + 1, rest...);
}
template <class MM, class V, class... Rest,
          typename std::enable_if<std::is_same<typename std::remove_cv<V>::type, void>::value, int>::type>
inline void serve(int index, MM& mm, V* tiling, Rest&&... rest) { serve(index, mm, static_cast<const TCubeTiling*>(tiling), rest...); }
template <class MM, class... Rest> inline void serve(int index, MM&, std::nullptr_t, Rest&&... rest) { serve(index + 1, rest...); }
}  // namespace matmul_detail
// In a mixed launch the AIC that reaches it becomes the server of its AIVs' Matmul calls (which the emulation runs in
// place on the AIVs, with the tilings it names: `serve`), unless ASCENDC_CUBE_ONLY says the Matmul runs on the cube
// core itself.
#ifdef ASCENDC_CUBE_ONLY
#define ASCENDCRAFT_MATMUL_SERVER(...) ((void)0)
#else
#define ASCENDCRAFT_MATMUL_SERVER(...)                                          \
    do {                                                                        \
        if (::ascendcraft::emu::kernel_mixed_aic()) {                           \
            ::AscendC::matmul_detail::serve(0, __VA_ARGS__);                    \
            ::ascendcraft::emu::matmul_server();                                \
        }                                                                       \
    } while (0)
#endif
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                             \
    do {                                                                                                     \
        (void)(workspace);                                                                                   \
        ASCENDCRAFT_MATMUL_SERVER(__VA_ARGS__);                                                              \
        ::AscendC::matmul_detail::regist_index() = 0;                                                        \
        ::AscendC::matmul_detail::regist((tpipe), __VA_ARGS__);                                              \
    } while (0)
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ

}  // namespace AscendC

// AscendC declares the system workspace's getter at global scope; kernels call it unqualified from their own namespaces.
using AscendC::GetSysWorkSpacePtr;
// The device compiler's mark of the Matmul's workspace parameter in a kernel entry (`__kfc_workspace__ __gm__ uint8_t* ws`).
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

// Older kernels name the API through `matmul::`.
namespace matmul {
using namespace AscendC;
}
