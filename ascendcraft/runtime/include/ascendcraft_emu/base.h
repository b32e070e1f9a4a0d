// AscendCraft CPU emulation of AscendC: address-space qualifiers, scalar types, enums and parameter
// structs. Written from the public AscendC documentation; no vendor code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

// ---- qualifiers of the device compiler: empty on the CPU ------------------------------------
#define __aicore__
#define __global__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __vector__
#define __cube__
#define __mix__(...)
// the pipes a function works on (`__aicore__ inline __inout_pipe__(MTE2) void f()`): a hint to the device compiler
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#define __forceinline__ inline   // as the device compiler spells it in AscendC's own headers
// ENABLE_DETERMINISTIC(): asks CANN's compiler for a deterministic build (atomic accumulations in a fixed order; cann-ops
// conv3d_backprop_filter_v2). Accepted where CANN's compile-feature declaration may stand (function or namespace scope);
// it changes nothing in the emulation.
#define ENABLE_DETERMINISTIC() [[maybe_unused]] constexpr int ascendcraft_enable_deterministic_ = 1
#ifndef likely
#define likely(...) __builtin_expect(!!(__VA_ARGS__), 1)
#define unlikely(...) __builtin_expect(!!(__VA_ARGS__), 0)
#endif

#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

// ASCENDC_CPU_DEBUG and __CCE_KT_TEST__ (CANN's CPU-debug build) are not defined here: a kernel is compiled as the NPU
// build compiles it, unless the setting cpu_debug asks for the CPU-debug build (the build passes -D for both then).
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
// The AI core version of Ascend 910B (A2) that kernels test with `#if __CCE_AICORE__ == 220`.
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif

// ---- scalar types ---------------------------------------------------------------------------
using half = _Float16;  // IEEE binary16; GCC rounds conversions from float to nearest-even

// bfloat16: the upper 16 bits of a float, converted with round-to-nearest-even.
struct bfloat16_t {
    uint16_t bits = 0;
    constexpr bfloat16_t() = default;
    template <typename U, typename = typename std::enable_if<std::is_convertible<U, float>::value &&
                                                             !std::is_same<U, bfloat16_t>::value>::type>
    // constexpr, as the device compiler's built-in bfloat16 is a literal type: a kernel's `static constexpr T T_MIN =
    // ... -3.38953e+38;` with T = bfloat16_t (ATB group_topk) converts at compile time (__builtin_bit_cast: g++ 11)
    constexpr bfloat16_t(U v) : bits(from_float(static_cast<float>(v))) {}
    constexpr operator float() const { return to_float(bits); }
    static constexpr bfloat16_t from_bits(uint16_t b) { bfloat16_t r; r.bits = b; return r; }
    static constexpr uint16_t from_float(float f) {
        const uint32_t u = __builtin_bit_cast(uint32_t, f);
        if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
        const uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
        return static_cast<uint16_t>((u + rounding) >> 16);
    }
    static constexpr float to_float(uint16_t b) { return __builtin_bit_cast(float, static_cast<uint32_t>(static_cast<uint32_t>(b) << 16)); }
};
// The compiler's own bfloat16 type, which bisheng names __bf16 and kernels compare with (std::is_same_v<T, __bf16>):
// the same type as bfloat16_t here. g++ 13 and later have __bf16 built in on x86; before that it is an ordinary name.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
using __bf16 = bfloat16_t;
#endif
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t must be 16 bits");
// The device compiler's spellings of the IEEE types.
using float16_t = half;
// bisheng is a clang: clang takes `__fp16` on every target as a storage-only half (its `half` is the same built-in type,
// values promote to float in arithmetic); a model port's kernel keeps a scale in one (`__fp16 scale; ...
// Muls(halfTensor, halfTensor, scale, n)`, RWKV-Vibe's wkv6). g++ on x86 has no such name; on ARM it is g++'s own
// type, not this half, and is left alone.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__aarch64__) && !defined(__arm__)
using __fp16 = half;
#endif
using float32_t = float;

namespace ascendcraft { namespace emu {

// Where an API was called from. Every API function takes `SrcLoc loc = {}` as its last parameter;
// GCC evaluates __builtin_FILE/__builtin_LINE in a default argument at the call site, so each
// diagnostic and trace record names the kernel's own source line. The tag parameter keeps integers
// from converting into a SrcLoc.
struct SrcLoc {
    struct Tag {};
    const char* file;
    int line;
    constexpr SrcLoc(Tag = {}, const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};

}}  // namespace ascendcraft::emu

// complex64 / complex32: the element types the build names for DT_COMPLEX64 / DT_COMPLEX32 (DTYPE_<NAME>). A2 has no
// complex vector instructions; kernels treat the data as pairs of float (half) lanes. Real part first.
// A kernel that declares its own complex64 (hicann ops-math tile: `using complex64 = uint64_t;`; the official A2 headers
// declare none) gets ASCENDCRAFT_KERNEL_COMPLEX64 from the build (emu.OWN_COMPLEX64_RE), and this one stays out.
#ifndef ASCENDCRAFT_KERNEL_COMPLEX64
struct complex64 { float real = 0.0f, imag = 0.0f; };
static_assert(sizeof(complex64) == 8, "complex element size");
#endif
struct complex32 { half real = half(0), imag = half(0); };
static_assert(sizeof(complex32) == 4, "complex element size");

// ---- global enums of the AscendC programming model ------------------------------------------
enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX };
enum event_t : int32_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

// The kernel types of KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE, at global scope as AscendC declares them (kernels
// name them unqualified without `using namespace AscendC`: cann-ops mmad). The emulator lays out the first six (A2).
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY = 0, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_AICORE, KERNEL_TYPE_VECTORCORE, KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE, KERNEL_TYPE_MAX
};

// The kernel binary's metadata records (type-length-value: a 16-bit type and length, then the value) that CANN's build
// writes into an `.ascend.meta.<kernel>` section for the runtime to read: the kernel's core type, its cross-core sync,
// the AIC:AIV ratio of a mixed kernel. Kernels built outside CANN's op build write them themselves (ATB's
// gmm_deq_swiglu_quant_gmm_deq: `static const struct FunLevelMixCoreType ..._mix_aic_section __attribute__((used,
// section(".ascend.meta...."))) = {{{F_TYPE_KTYPE, sizeof(unsigned int)}, K_TYPE_MIX_AIC_MAIN}, {{...}, 1, 1}};`). The
// emulator's launch takes the core type from the kernel's code, not from these, so they are only declared. (The devkit
// names the K_TYPE_ enumeration KernelType; here that name is AscendC's alias of the launch kernel types, so the
// enumeration has no name of its own.)
enum : unsigned int {
    K_TYPE_AICORE = 1, K_TYPE_AIC = 2, K_TYPE_AIV = 3, K_TYPE_MIX_AIC_MAIN = 4, K_TYPE_MIX_AIV_MAIN = 5,
    K_TYPE_AIC_ROLLBACK = 6, K_TYPE_AIV_ROLLBACK = 7, K_TYPE_MAX
};
enum FuncMetaType {
    F_TYPE_KTYPE = 1, F_TYPE_CROSS_CORE_SYNC = 2, F_TYPE_MIX_TASK_RATION = 3, F_TYPE_L0_EXCEPTION_DFX = 4,
    F_TYPE_L0_EXCEPTION_DFX_ARGSINFO = 5, F_TYPE_L0_EXCEPTION_DFX_IS_TIK = 6, F_TYPE_DETERMINISTIC_INFO = 13,
    F_TYPE_FUNCTION_ENTRY_INFO = 14, F_TYPE_BLOCK_NUM_INFO = 15, F_TYPE_MAX
};
enum CrossCoreSyncType { C_TYPE_USE_SYNC = 1, C_TYPE_MAX };
struct BaseTlv { unsigned short type; unsigned short len; };
struct FunMetaKType { BaseTlv head; unsigned int ktype; };
struct FunMetaCrossCoreType { BaseTlv head; unsigned int usedCrossCoreSync; };
struct FunMetaMixCoreType { BaseTlv head; unsigned short taskRation0; unsigned short taskRation1; };
struct FunLevelKType { FunMetaKType ktypeMeta; };
struct FunLevelCrossCoreType { FunMetaKType ktypeMeta; FunMetaCrossCoreType crossCoreType; };
struct FunLevelMixCoreType { FunMetaKType ktypeMeta; FunMetaMixCoreType mixCoreType; };
static_assert(sizeof(FunLevelMixCoreType) == 16, "two TLV records of 8 bytes");
// The run configuration an op's binary holds in GM for its L2-cache hints (its offset of the cache-bypassing address
// range). Kernels define the global themselves (ATB's gmm_deq_swiglu_quant_gmm_deq, in its cube pass:
// `__gm__ struct OpSystemRunCfg g_opSystemRunCfg{0};`); the emulated GM has no L2, so nothing reads it.
struct OpSystemRunCfg { uint64_t l2Cacheoffset; };

namespace AscendC {

using ascendcraft::emu::SrcLoc;

enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
    C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
    MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
    MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

using TEventID = int8_t;
constexpr TEventID INVALID_TEVENTID = static_cast<TEventID>(-1);   // no event id (the SDK's kernel_tpipe_base.h)

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
// L2 cache hints of GlobalTensor::SetL2CacheHint (no effect in the emulation).
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
using KernelType = ::KernelMetaType;   // the kernel types are global, as in AscendC; also reachable as AscendC::
using ::KERNEL_TYPE_AIV_ONLY; using ::KERNEL_TYPE_AIC_ONLY; using ::KERNEL_TYPE_MIX_AIV_1_0; using ::KERNEL_TYPE_MIX_AIC_1_0;
using ::KERNEL_TYPE_MIX_AIC_1_1; using ::KERNEL_TYPE_MIX_AIC_1_2; using ::KERNEL_TYPE_AICORE; using ::KERNEL_TYPE_VECTORCORE;
using ::KERNEL_TYPE_MIX_AICORE; using ::KERNEL_TYPE_MIX_VECTOR_CORE;
enum class TanhAlgo : uint8_t { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig { TanhAlgo algo = TanhAlgo::INTRINSIC; };
constexpr TanhConfig DEFAULT_TANH_CONFIG = {};
struct ErfConfig { bool highPrecision = false; };
constexpr ErfConfig defaultErfConfig = {};
struct SinConfig { bool highPrecision = false; };
constexpr SinConfig defaultSinConfig = {};
struct CosConfig { bool highPrecision = false; };
constexpr CosConfig defaultCosConfig = {};

// ---- sizes every kernel uses ----------------------------------------------------------------
// ONE_BLK_SIZE, BLOCK_CUBE and CUBE_MAX_SIZE are declared on both sides of AscendC, the kernel's and the host tiling's
// (tiling/tiling_api.h, unsigned there): each under its ASCC_PARAM_<name> guard, so a unit that includes both (an op_host
// tiling header in the kernel's build) has the first one it saw.
#ifndef ASCC_PARAM_ONE_BLK_SIZE
#define ASCC_PARAM_ONE_BLK_SIZE
constexpr int32_t ONE_BLK_SIZE = 32;              // bytes in a datablock
#endif
#ifndef ASCC_PARAM_CUBE_MAX_SIZE
#define ASCC_PARAM_CUBE_MAX_SIZE
constexpr int32_t CUBE_MAX_SIZE = 256;            // elements of one cube fractal (16 x 16)
#endif
constexpr int32_t HALF_FACTOR = 2;                // halving factor kernels size buffers with (TOTAL_UB_SIZE / HALF_FACTOR)
constexpr uint32_t CACHE_LINE_SIZE = 64;          // bytes in a data-cache line: DataCacheCleanAndInvalid's SINGLE_CACHE_LINE
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;     // bytes in one vector repeat
constexpr int32_t DEFAULT_BLK_NUM = 8;            // datablocks in a repeat
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;          // a repeat stride of 4 blocks (half of one repeat)
constexpr uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr int32_t MAX_REPEAT_TIMES = 255;
// AscendC's integer helpers (kernels call them unqualified): a / b rounded up, and a rounded up to a multiple of b.
constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t ONE_BLK_HALF_NUM = 16;         // elements of one datablock (32 bytes)
constexpr uint32_t ONE_BLK_FLOAT_NUM = 8;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = 128;    // elements of one repeat (256 bytes)
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = 64;
#ifndef ASCC_PARAM_BLOCK_CUBE
#define ASCC_PARAM_BLOCK_CUBE
constexpr int32_t BLOCK_CUBE = 16;
#endif
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr int32_t QUE_MAX_EVENT = 8;
// The bit patterns of float's infinities and quiet NaN, and the DropOut API's mask modes (byte / bit mask, source
// aligned or not), as the SDK's kernel_utils_constants.h names them in AscendC (hicann ops-transformer's kernels use them)
constexpr int32_t ONE_BYTE_BIT_SIZE = 8;   // bits in a byte (a bit mask's bytes: flash_attention_score's drop mask)
constexpr uint32_t F32_INF = 0x7f800000;
constexpr uint32_t F32_NEG_INF = 0xff800000;
constexpr uint32_t F32_NAN = 0x7fc00000;
constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

// ---- parameter structs ----------------------------------------------------------------------
// DataCopy bursts. Lengths and gaps are in 32-byte blocks (for DataCopyPad's legacy form, blockLen
// is in bytes).
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union { uint16_t srcStride = 0; uint16_t srcGap; };
    union { uint16_t dstStride = 0; uint16_t dstGap; };
    DataCopyParams() {}
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};

// DataCopyPad bursts: blockLen in bytes; a stride is in bytes on the GM side and in 32-byte blocks
// on the UB side.
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() {}
    // All five fields, as in AscendC: {count, len, srcStride, dstStride} without rsv does not compile.
    DataCopyExtParams(uint16_t blockCount, uint32_t blockLen, uint32_t srcStride, uint32_t dstStride, uint32_t rsv)
        : blockCount(blockCount), blockLen(blockLen), srcStride(srcStride), dstStride(dstStride), rsv(rsv) {}
};

template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;   // elements
    uint8_t rightPadding = 0;  // elements
    T paddingValue = T(0);
    DataCopyPadExtParams() {}
    DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() {}
    DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

// Level-0 strides: block strides in 32-byte blocks within a repeat, repeat strides in 32-byte
// blocks between repeats.
struct BinaryRepeatParams {
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    BinaryRepeatParams() {}
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep, uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk),
          dstRepStride(dstRep), src0RepStride(src0Rep), src1RepStride(src1Rep) {}
};

struct UnaryRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false, halfBlock = false;
    UnaryRepeatParams() {}
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep, bool halfBlockIn)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep), halfBlock(halfBlockIn) {}
};

// Brcb: each source element fills one 32-byte block of dst. Only the dst strides are used.
struct BrcbRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8, dstBlkStride = 1;
    uint8_t src0BlkStride = 1, src1BlkStride = 1, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    BrcbRepeatParams() {}
    BrcbRepeatParams(uint16_t dstBlk, uint16_t dstRep) : dstRepStride(dstRep), dstBlkStride(dstBlk) {}
};

// Gatherb: one byte offset per 32-byte block of dst. Only the dst strides are used.
struct GatherRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8, dstBlkStride = 1;
    uint8_t src0BlkStride = 1, src1BlkStride = 1, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    GatherRepeatParams() {}
    GatherRepeatParams(uint16_t dstBlk, uint16_t dstRep) : dstRepStride(dstRep), dstBlkStride(dstBlk) {}
};

}  // namespace AscendC
