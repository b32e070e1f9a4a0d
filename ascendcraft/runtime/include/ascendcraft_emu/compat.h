// AscendCraft CPU emulation: small helpers of AscendC that public kernels call besides the documented APIs
// (IsSameType, AscendCUtils::SetMask / GetC0Count, InitOutput) and the tik2 namespace of the 2023 samples.
// Written from the public AscendC documentation and from how the public kernels use them; no vendor code.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "math.h"
#include "pipe.h"
#include "vector.h"

// abs() of a float (or of a 64-bit integer) in kernel code: the device compiler's scalar abs takes the value as it is
// (the devkit's own AscendC::Std::abs<float> returns ::abs(value)), while the host C library's one global abs takes an
// int, which truncates: abs(-0.25f) would be 0 (HWXROS/AscendcS7 PdistGrad skips every pair whose |grad| < 1e-12 that
// way). A template, so that a kernel's own #include <math.h> (libstdc++'s `using std::abs`, the same overloads) adds
// no clash; other types (int, half) keep the C library's abs as before.
template <typename T, typename std::enable_if<std::is_same<T, float>::value || std::is_same<T, long>::value ||
                                              std::is_same<T, long long>::value, int>::type = 0>
inline T abs(T value) {
    if constexpr (std::is_same<T, float>::value) return std::fabs(value);
    else return value < 0 ? -value : value;
}

namespace AscendC {

// All 64 bits of one half of the 128-bit vector mask.
constexpr uint64_t FULL_MASK = 0xffffffffffffffffULL;
// Elements of one 32-byte block for 4-byte and 2-byte types, as the devkit's constants name them.
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
// Element sizes, and elements of one 256-byte repeat, likewise.
constexpr uint8_t B64_BYTE_SIZE = 8;
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint8_t B8_BYTE_SIZE = 1;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr uint32_t HALF_REPEAT_SIZE = 128;
constexpr uint32_t FLOAT_REPEAT_SIZE = 64;
}  // namespace AscendC
namespace ascendcraft { namespace emu {
[[noreturn]] void kernel_trap(SrcLoc loc);   // emu_devkit.cpp
}}  // namespace ascendcraft::emu
namespace AscendC {
// Trap(): stops the kernel (an error naming the line, as the NPU stops its AI Core there).
inline void Trap(SrcLoc loc = {}) { ascendcraft::emu::kernel_trap(loc); }

// The basic API's integer helper a / b rounded up, on uint32_t as AscendC declares it (any integer arguments convert;
// the Matmul library adds a same-type template, lib/matmul_intf.h). Public kernels: cann-ops group_quant, grid_sample.
inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// DropOutShapeInfo (lib/filter) is in math.h, with DropOut.

// Brcb writes each source element into one 32-byte block: 8 elements of 4 bytes (the devkit's constant).
const uint32_t BRCB_BROADCAST_NUMBER = 8;

// The scalar Cast<T, U, roundMode>(value) on the scalar unit (and its older name ScalarCast). A2 has float -> int32_t
// with CAST_ROUND (half away from zero), CAST_CEIL, CAST_FLOOR, CAST_RINT (half to even), and float -> half with
// CAST_ODD (an inexact value takes the neighbouring half whose last mantissa bit is 1); any other pair or mode stops
// with an `unsupported` error at the call.
namespace scalar_cast_detail {
inline int32_t saturate(double r) {   // out-of-range values saturate (NaN gives 0) instead of C++'s undefined cast
    if (r != r) return 0;
    return r >= 2147483647.0 ? 2147483647 : r <= -2147483648.0 ? (-2147483647 - 1) : static_cast<int32_t>(r);
}
inline half half_bits(uint16_t b) { half h; std::memcpy(&h, &b, 2); return h; }
inline half to_half_odd(float v) {
    const half h(v);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    const float back = static_cast<float>(h);
    if (back == v || v != v) return h;   // exact (infinities too), or NaN; an overflow goes to the largest finite half
    if (b & 1u) return h;                                   // the nearest half is already odd
    // the other neighbour of v: one step away from h towards v (the magnitude grows when |v| > |h|)
    const bool away = std::fabs(v) > std::fabs(back);
    return half_bits(static_cast<uint16_t>(away ? b + 1 : b - 1));
}
}  // namespace scalar_cast_detail
template <typename T, typename U, RoundMode roundMode> inline U Cast(T valueIn, SrcLoc loc = {}) {
    if constexpr (std::is_same<T, float>::value && std::is_same<U, int32_t>::value) {
        const double v = valueIn;
        switch (roundMode) {
        case RoundMode::CAST_ROUND: return scalar_cast_detail::saturate(std::round(v));
        case RoundMode::CAST_CEIL: return scalar_cast_detail::saturate(std::ceil(v));
        case RoundMode::CAST_FLOOR: return scalar_cast_detail::saturate(std::floor(v));
        case RoundMode::CAST_RINT: return scalar_cast_detail::saturate(std::nearbyint(v));
        default: break;
        }
    } else if constexpr (std::is_same<T, float>::value && std::is_same<U, half>::value) {
        if (roundMode == RoundMode::CAST_ODD) return scalar_cast_detail::to_half_odd(valueIn);
    }
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Cast,
        "the scalar Cast<T, U, roundMode> on Ascend 910B (A2) converts float -> int32_t (CAST_ROUND, CAST_CEIL, CAST_FLOOR, "
        "CAST_RINT) and float -> half (CAST_ODD) only", "use one of those pairs and modes, or a plain C++ conversion", loc);
}
template <typename T, typename U, RoundMode roundMode> inline U ScalarCast(T valueIn, SrcLoc loc = {}) {
    return Cast<T, U, roundMode>(valueIn, loc);
}

// AscendC's type-trait helper, as kernels spell it.
template <typename T, typename U> struct IsSameType : std::is_same<T, U> {};
// ... and its boolean tag types: a compile-time true / false as a type (`Type` names itself), which kernels compare
// with IsSameType in member-detection traits (cann-ops conv3dv2's conv_framework_util.h: decltype(..., TrueType())).
template <bool b> struct BoolInst {
    using Type = BoolInst<b>;
    static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;

// ---- scalar bit operations (the scalar unit's counting instructions) and their older Scalar* names --------------------
// GetBitCount<v>: how many of the 64 bits equal v (0 or 1); CountLeadingZero: zeros above the highest set bit (64 for
// 0); CountBitsCntSameAsSignBit: how many bits below the sign bit, from the top, equal it before the first that does
// not (-1 for 0 and -1); GetSFFValue<v>: the index of the lowest bit equal to v, -1 when there is none.
template <int countValue> inline int64_t GetBitCount(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetBitCount<countValue>: countValue is 0 or 1");
    const int64_t ones = __builtin_popcountll(valueIn);
    return countValue ? ones : 64 - ones;
}
template <int countValue> inline int64_t ScalarGetCountOfValue(uint64_t valueIn) { return GetBitCount<countValue>(valueIn); }
inline int64_t CountLeadingZero(uint64_t valueIn) { return valueIn ? __builtin_clzll(valueIn) : 64; }
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
    const uint64_t v = static_cast<uint64_t>(valueIn);
    const uint64_t rest = (v >> 63) ? ~v : v;   // bits equal to the sign become zeros
    return (rest << 1) ? __builtin_clzll(rest << 1) : -1;   // 0 and -1 (all bits as the sign): -1
}
template <int countValue> inline int64_t GetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetSFFValue<countValue>: countValue is 0 or 1");
    const uint64_t v = countValue ? valueIn : ~valueIn;
    return v ? __builtin_ctzll(v) : -1;
}
template <int countValue> inline int64_t ScalarGetSFFValue(uint64_t valueIn) { return GetSFFValue<countValue>(valueIn); }

// The mask helpers kernels reach through AscendCUtils: SetMask<T>(len) covers the first len lanes,
// SetMask<T>(high, low) sets the 128 mask bits; GetC0Count(bytes) is the elements of one 32-byte block.
struct AscendCUtils {
    // the reserved-count register: how many elements the core's last GatherMask kept (its rsvdCnt)
    static int64_t GetRsvdCnt() { return ascendcraft::emu::gather_mask_rsvd_cnt(); }
    template <typename T, bool isSetMask = true> static void SetMask(const int32_t len, SrcLoc loc = {}) {
        if (isSetMask) SetVectorMask<T, MaskMode::NORMAL>(len, loc);
    }
    template <typename T, bool isSetMask = true>
    static void SetMask(const uint64_t maskHigh, const uint64_t maskLow, SrcLoc loc = {}) {
        if (isSetMask) SetVectorMask<T, MaskMode::NORMAL>(maskHigh, maskLow, loc);
    }
    static constexpr int32_t GetC0Count(const int32_t dtypeSize) { return 32 / dtypeSize; }
    static constexpr int32_t GetC0Size() { return 32; }
    static constexpr int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
    // The mask register's mode (counter / normal) and its reset to all 128 lanes, as the devkit's helpers set them.
    template <typename T> static void SetMaskCount(SrcLoc loc = {}) { AscendC::SetMaskCount(loc); }
    template <typename T> static void SetMaskNorm(SrcLoc loc = {}) { AscendC::SetMaskNorm(loc); }
    template <bool isSetMask = true> static void ResetMask(SrcLoc loc = {}) {
        if (isSetMask) SetVectorMask<half, MaskMode::NORMAL>(FULL_MASK, FULL_MASK, loc);
    }
    // A2's overflow mode, CTRL bit 48: 1 inf / nan results, 0 saturation. The bit is kept (get_ctrl reads it back); the
    // emulation's float arithmetic is IEEE either way (raw_intrinsics.h).
    static void SetOverflow(uint64_t ctrlValue, SrcLoc loc = {}) {
        const uint64_t bit = uint64_t{1} << 48, ctrl = ascendcraft::emu::ctrl_read();
        ascendcraft::emu::ctrl_write(ctrlValue == 1 ? (ctrl | bit) : (ctrl & ~bit), loc);
    }
};

// The core type the code runs on, as kernels test it: `if (g_coreType == AIV)`.
constexpr int AIC = 1;
constexpr int AIV = 2;

// The older name of InitGlobalMemory: fill `size` elements of a GM tensor with `value`.
template <typename T>
inline void InitOutput(const GlobalTensor<T>& gmWorkspaceAddr, const uint32_t size, const T value = 0, SrcLoc loc = {}) {
    InitGlobalMemory(gmWorkspaceAddr, static_cast<uint64_t>(size), value, loc);
}
// The pinned devkit's name for it (lib/utils/init_global_memory.h): zero C before split-K Matmuls add into it.
template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value, SrcLoc loc = {}) {
    InitGlobalMemory(gmWorkspaceAddr, size, value, loc);
}

}  // namespace AscendC

namespace ascendcraft { namespace emu {
bool kernel_on_aic();
// The raw intrinsic vcadd: with a dst, one sum per repeat (WholeReduceSum under the mask register); with nullptr,
// the sum of every repeat's lanes into the accumulator that get_acc_val / GetAccVal read (as float bits).
void vcadd_raw(Dt dt, void* dst, const void* src, uint32_t repeats, uint32_t dstRepStride, uint32_t srcBlkStride,
               uint32_t srcRepStride, SrcLoc loc);
uint64_t acc_value_bits(Dt dt);
}}
// The device compiler's raw mask-register intrinsics, which kernels ported from the devkit's implementations call:
// counter / normal mode and the 128-bit mask (in counter mode its low word is the element count).
inline void set_mask_count(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetMaskCount(loc); }
inline void set_mask_norm(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetMaskNorm(loc); }
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::SetVectorMask<half>(maskHigh, maskLow, loc);
}

template <typename T>
inline void vcadd(T* dst, T* src, uint32_t repeat, uint32_t dstRepStride, uint32_t srcBlkStride, uint32_t srcRepStride,
                  bool /*mode*/, ::ascendcraft::emu::SrcLoc loc = {}) {
    ::ascendcraft::emu::vcadd_raw(::ascendcraft::emu::dt_of<T>(), dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <typename T>
inline void vcadd(std::nullptr_t, T* src, uint32_t repeat, uint32_t dstRepStride, uint32_t srcBlkStride, uint32_t srcRepStride,
                  bool /*mode*/, ::ascendcraft::emu::SrcLoc loc = {}) {
    ::ascendcraft::emu::vcadd_raw(::ascendcraft::emu::dt_of<T>(), nullptr, src, repeat, dstRepStride, srcBlkStride, srcRepStride, loc);
}
namespace ascendcraft { namespace emu { uint64_t maxmin_register(SrcLoc loc); }}
// The raw special-register read behind GetReduceMaxMinCount: the last max/min reduction's value bits (low half) and
// index (high 32 bits).
inline int64_t get_max_min_cnt(::ascendcraft::emu::SrcLoc loc = {}) {
    return static_cast<int64_t>(::ascendcraft::emu::maxmin_register(loc));
}
// The device compiler's builtin for the launch's parameter area: an 8-byte word per kernel parameter in the entry's
// order (addresses, the workspace, the tiling), the tiling bytes right after them. CANN's launch wrappers and some
// public kernels read their arguments from it (hicann ops-math gcd: `((GM_ADDR*)get_para_base())[i]`, its tiling
// at `+ 5`).
inline int64_t get_para_base(::ascendcraft::emu::SrcLoc loc = {}) { return ::ascendcraft::emu::launch_param_base(loc); }
inline uint64_t get_acc_val() { return ::ascendcraft::emu::acc_value_bits(::ascendcraft::emu::Dt::f32); }
namespace AscendC {
inline uint64_t GetAccVal() { return ::ascendcraft::emu::acc_value_bits(::ascendcraft::emu::Dt::f32); }
// The devkit's form (GetReduceRepeatSumSpr's older name): the accumulator's first sizeof(T) bytes as a T
// (hicann ops-nn add_layer_norm: `value = GetAccVal<float>();` after an accumulating ReduceSum).
template <typename T> inline T GetAccVal() {
    const uint64_t bits = ::ascendcraft::emu::acc_value_bits(
        std::is_same<T, half>::value ? ::ascendcraft::emu::Dt::f16 : ::ascendcraft::emu::Dt::f32);
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
}
#define g_coreType (::ascendcraft::emu::kernel_on_aic() ? ::AscendC::AIC : ::AscendC::AIV)

// Member templates chosen by core type, catlass style: `template <int32_t CORE_TYPE = g_coreType> void operator()(P&);`
// with in-class explicit specialisations `template <> void operator()<AscendC::AIC>(P&) {...}`. The device compiler
// builds the kernel once per core type, so g_coreType is a constant there; here it is known when the code runs, and
// g++ refuses explicit specialisations in a class. emu.core_type_templates rewrites the source: each specialisation
// becomes an overload taking CoreTag<AIC> (or <AIV>) first, a primary with a body one taking any CoreTag<C>, and the
// primary's declaration a forwarding template that picks the overload of the running core (core_dispatch) or, given
// an explicit core type, that one.
namespace ascendcraft { namespace emu {
template <int C> struct CoreTag { static constexpr int value = C; };
constexpr int kCoreRuntime = -1;   // the default core type of a rewritten primary: the core the code runs on
template <class T> struct IsCoreTag : std::false_type {};
template <int C> struct IsCoreTag<CoreTag<C>> : std::true_type {};
template <class... A> struct FirstIsCoreTag : std::false_type {};
template <class F, class... A> struct FirstIsCoreTag<F, A...> : IsCoreTag<typename std::decay<F>::type> {};
[[noreturn]] void no_core_version(const char* name, bool aic, SrcLoc loc);
template <int C, class F> decltype(auto) core_call(F& f, const char* name, SrcLoc loc) {
    if constexpr (std::is_invocable<F&, CoreTag<C>>::value) return f(CoreTag<C>{});
    else no_core_version(name, C == ::AscendC::AIC, loc);
}
template <int C, class F> decltype(auto) core_dispatch(F&& f, const char* name, SrcLoc loc = {}) {
    if constexpr (C == kCoreRuntime) {
        if (kernel_on_aic()) return core_call<::AscendC::AIC>(f, name, loc);
        return core_call<::AscendC::AIV>(f, name, loc);
    } else {
        return core_call<C>(f, name, loc);
    }
}
}}  // namespace ascendcraft::emu

// The device compiler's scalar min/max builtins, which kernels call unqualified in device code
// (`uint32_t m = min(baseM, rowNum);`). The unused trailing pack makes them less specialised than any two-parameter
// min/max template a kernel or library declares (std::min, catlass's tla::min), so those win where both are visible.
template <typename A, typename B, typename... None> inline typename std::common_type<A, B>::type min(A a, B b, None...) {
    using C = typename std::common_type<A, B>::type;
    return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template <typename A, typename B, typename... None> inline typename std::common_type<A, B>::type max(A a, B b, None...) {
    using C = typename std::common_type<A, B>::type;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}

// The device compiler's built-in variables block_idx and block_num (what GetBlockIdx / GetBlockNum return), which
// kernels read unqualified; a kernel's own variable of that name hides them, as on the device.
struct AscendcraftBlockIdx { operator int64_t() const { return AscendC::GetBlockIdx(); } };
struct AscendcraftBlockNum { operator int64_t() const { return AscendC::GetBlockNum(); } };
inline constexpr AscendcraftBlockIdx block_idx{};
inline constexpr AscendcraftBlockNum block_num{};

// The 2023 samples (CANN 6.x) spell the namespace tik2.
namespace tik2 = AscendC;

// The device compiler's bit-pattern builtin: a scalar's bits as the unsigned integer of its size (half -> uint16_t,
// float -> uint32_t), e.g. for a padding value register.
namespace ascendcraft { namespace emu {
template <size_t N> struct UintOfSize;
template <> struct UintOfSize<1> { using type = uint8_t; };
template <> struct UintOfSize<2> { using type = uint16_t; };
template <> struct UintOfSize<4> { using type = uint32_t; };
template <> struct UintOfSize<8> { using type = uint64_t; };
}}  // namespace ascendcraft::emu
template <typename T, typename U = typename ::ascendcraft::emu::UintOfSize<sizeof(T)>::type>
inline U GetScalarBitcodeValue(T value) {
    static_assert(sizeof(T) == sizeof(U), "GetScalarBitcodeValue: the result type has the scalar's size");
    U bits;
    std::memcpy(&bits, &value, sizeof(U));
    return bits;
}

// The 4-bit signed integer of the quantisation kernels (two per byte in memory). Here it is a type kernels can name
// and test (IsSameType<yDtype, int4b_t>); the emulated vector APIs do not take int4b_t tensors.
struct int4b_t {
    uint8_t storage = 0;
    int4b_t() = default;
    int4b_t(int32_t v) : storage(static_cast<uint8_t>(v) & 0xF) {}
    operator int8_t() const { return static_cast<int8_t>((storage & 0x8) ? (storage | 0xF0) : storage); }
};
// AscendC declares it in its namespace (the devkit's examples write AscendC::int4b_t); kernels also name it unqualified.
namespace AscendC { using ::int4b_t; }
namespace AscendC {
// The bits one element of T takes in memory: 8 per byte of its type, but 4 for int4b_t, which is stored two to a byte
// (catlass sizes its int4 fractals and layouts with it: 64 elements to a 32-byte C0 block).
template <typename T> struct SizeOfBits { static constexpr uint32_t value = sizeof(T) * 8; };
template <> struct SizeOfBits<int4b_t> { static constexpr uint32_t value = 4; };
}  // namespace AscendC
// The 8-bit (and packed 4-bit) float types of Ascend 950 are plain bytes on A2, as the devkit declares them for every other
// architecture (at global scope, and fp8_e8m0_t in AscendC too): kernels built for both name them in type traits and
// template specialisations (sgl-kernel-npu's sparse_attention_score: `TagToLayout<AscendC::fp8_e8m0_t, layout::zZ>`).
using fp4x2_e2m1_t = uint8_t;
using fp4x2_e1m2_t = uint8_t;
using fp8_e5m2_t = uint8_t;
using fp8_e4m3fn_t = uint8_t;
using fp8_e8m0_t = uint8_t;
namespace AscendC { using fp8_e8m0_t = uint8_t; }

// ASSERT_MSG(expr, fmt, ...): the devkit's assertion with a printf-style message; a failing one stops the run at the
// kernel line with the message, as ascendc_assert does.
#define ASSERT_MSG(expr, ...) ascendc_assert(expr, __VA_ARGS__)
