// AscendCraft CPU emulation: the cube core (AIC) of Ascend 910B. GM -> L1 copies with the ND -> NZ conversion,
// LoadData (L1 -> L0A/L0B), Mmad (L0A x L0B -> L0C) and Fixpipe (L0C -> GM), on the fractal layouts the
// hardware uses, so that data in the wrong layout gives wrong numbers as on the NPU. (Cross-core flags for mixed AIC/AIV
// kernels: sync_cross.h.) Written from the public AscendC documentation; no vendor code.
//
// Layouts (one fractal = 512 bytes; C0 = 32 bytes / sizeof(T): 16 halves, 32 int8, 8 floats):
//   L1 (NZ): fractals of 16 rows x C0 columns, row-major inside, column-major between fractals.
//   L0A (ZZ): A (m x k) as fractals of 16 x C0, row-major inside and between fractals.
//   L0B (ZN): B (k x n) as fractals of C0 x 16, column-major inside, row-major between fractals.
//   L0C (NZ): C (m x n) as fractals of 16 x 16 fp32/int32, row-major inside, column-major between fractals.
//
// Why one header (about 900 lines): it is the cube API as kernel_operator.h exposes it, one declaration (or inline
// wrapper) per documented call, in the order of the data's path; the work is done in runtime/cube/.
#pragma once

#include "tensor.h"

// The quantisation of Fixpipe (a compiler builtin on the NPU): which conversion L0C -> output applies.
// The fp32 -> half / bfloat16_t pre-quantisations (scalar QF322F16_PRE / QF322BF16_PRE, vector VQF...) are names A2
// kernels spell in constant tables (sgl-kernel-npu's attention templates); Fixpipe with them is not emulated yet (a
// named error at the call, as for the other quantisations it does not make).
enum QuantMode_t : uint8_t { NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8,
                             QF322F16_PRE = 11, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE };
// The padding mode of the GM -> L1 copy instruction (a compiler builtin on the NPU, as unscoped as the NPU's):
// DataCopyEnhancedParams carries one (padMode, a reserved field that AscendC does not use).
enum pad_t : uint8_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };

namespace ascendcraft { namespace emu {

struct Nd2NzSpec {
    uint32_t ndNum = 1, nValue = 0, dValue = 0;
    uint64_t srcNdMatrixStride = 0, srcDValue = 0;
    uint32_t dstNzC0Stride = 0, dstNzNStride = 0, dstNzMatrixStride = 0;
};
struct Load2DSpec {
    uint32_t startIndex = 0, repeatTimes = 0, srcStride = 0, dstGap = 0;
    bool transpose = false;
};
struct MmadSpec {
    uint32_t m = 0, n = 0, k = 0;
    bool initZero = true;     // cmatrixInitVal: start from 0, else accumulate onto L0C
    bool fromBias = false;    // cmatrixSource: start from the bias table
    bool kAlign16 = false;    // kDirectionAlign (float): A and B hold K rounded up to 16 in L0, not to 8
    bool int4 = false;        // A and B are int4b_t (aDt = bDt = i8 then): two per byte, the even element in the low half;
                              // a fractal is 16 x 64 of them (C0 = 64), k is even
    bool biasFormInitVal = false;   // the form with a bias tensor: its cmatrixInitVal, which C follows when the bias is in
                                    // L0C (cmatrixSource = false then, as without a bias)
};
struct FixpipeSpec {
    uint32_t nSize = 0, mSize = 0, srcStride = 0, dstStride = 0;
    uint8_t quant = 0;
    bool relu = false;
    uint32_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
    uint8_t layout = 1;       // AscendC::CO2Layout
    // NZ to GM with float in and out: each 16 x 16 fractal goes out as two 16 x 8 ones (isChannelSplit / channelSplit)
    bool channelSplit = false;
    uint64_t deqScalar = 0;   // the scalar quantisation parameter (DEQF16): a float in the low 32 bits
    // the per-channel vector of VDEQF16 (uint64_t a channel, each as deqScalar): a cbufWorkspace in L1, else (null) the one
    // SetFixPipeConfig put in the Fixpipe buffer
    const uint8_t* quantVec = nullptr;
    uint32_t quantVecBytes = 0;
};

void cube_copy_nd2nz(Dt dt, const Local& dst, const void* gm, const Local* l1src, const Nd2NzSpec& p, SrcLoc loc);
void cube_load2d(Dt dt, const Local& dst, const Local& src, const Load2DSpec& p, SrcLoc loc);
// LoadData (2D) from GM: repeat r copies the 512-byte fractal startIndex + r * srcStride of `gm` to fractal r * (1 + dstGap)
// of dst (A1 / B1 / A2 / B2); MTE2. No transpose on this path.
void cube_load2d_gm(Dt dt, const Local& dst, const void* gm, const Load2DSpec& p, SrcLoc loc);
// Fill / InitConstValue: repeatTimes x blockNum blocks of dst (32 bytes in L1, 512-byte fractals in L0A / L0B) set to the
// `size`-byte value, dstGap blocks skipped between repeats.
void cube_fill(Dt dt, const Local& dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap, const void* value,
               uint32_t size, SrcLoc loc);
// LoadDataWithTranspose: each repeat transposes one square (b16: a 16 x 16 fractal; b8: 32 x 32 bytes, two 16 x 32
// fractals stacked; b4: 64 x 64 elements, four 16 x 64 fractals stacked; b32: 16 x 16 words, two 16 x 8 fractals side by
// side) into 1 / 2 / 4 / 2 fractals of dst.
struct Load2DTransposeSpec {
    uint32_t startIndex = 0, repeatTimes = 0, srcStride = 0, dstGap = 0, dstFracGap = 0;
    bool decrement = false;   // addrMode: each repeat's source square srcStride squares before the previous one
    bool int4 = false;        // int4b_t (dt is then i8): 64 x 64 4-bit squares of four 16 x 64 fractals, into L0B only
};
void cube_load2d_transpose(Dt dt, const Local& dst, const Local& src, const Load2DTransposeSpec& p, SrcLoc loc);
// LoadData with LoadData3DParamsV2 (img2col): the feature map in L1 (NC1HWC0, C0 = 32 bytes) unrolled into the matrix
// whose row m is output position m (row-major over the Ho x Wo outputs) and whose column (c1 * Hk * Wk + kh * Wk + kw) * C0
// + c0 is channel c1 * C0 + c0 under kernel tap (kh, kw); the mExtension x kExtension block at (mStartPt, kStartPt) goes
// to L0A as ZZ (its transpose as ZZ with enTranspose) or to L0B as ZN (B = the block: its rows are the product's k).
struct Load3DSpec {
    uint32_t l1H = 0, l1W = 0, channelSize = 0, kExtension = 0, mExtension = 0, kStartPt = 0, mStartPt = 0;
    uint32_t strideW = 1, strideH = 1, filterW = 1, filterH = 1, dilationW = 1, dilationH = 1;
    uint8_t pad[4] = {0, 0, 0, 0};      // left, right, top, bottom
    bool transpose = false;
    bool fromRegisters = false;         // isSetFMatrix = false: l1H, l1W and padList from SetFmatrix
    bool padFromRegister = false;       // isSetPadding = false: the pad value from SetLoadDataPaddingValue
    uint8_t padValue[4] = {0, 0, 0, 0};
};
void cube_load3d(Dt dt, const Local& dst, const Local& src, const Load3DSpec& p, SrcLoc loc);
void cube_set_fmatrix(uint16_t l1H, uint16_t l1W, const uint8_t pad[4], SrcLoc loc);
void cube_set_load3d_pad(const void* value, uint32_t size, SrcLoc loc);
void cube_set_load3d_repeat(uint16_t repeatStride, uint8_t repeatTime, uint8_t repeatMode, SrcLoc loc);
void cube_set_load3d_boundary(uint32_t bytes, SrcLoc loc);
void cube_mmad(Dt cDt, Dt aDt, Dt bDt, const Local& c, const Local& a, const Local& b, const MmadSpec& p, SrcLoc loc,
               const Local* bias = nullptr);
void cube_copy_bias(Dt dstDt, Dt srcDt, const Local& dst, const Local& src, const CopyShape& shape, SrcLoc loc);
// The Fixpipe registers that DataCopy L0C -> GM reads: SetFixpipeNz2ndFlag (ndNum, srcNdStride, dstNdStride) and
// SetFixpipePreQuantFlag (the scalar quantisation parameter); cube_fixpipe_registers fills them into a FixpipeSpec.
void cube_set_nz2nd(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride, SrcLoc loc);
void cube_set_quant_pre(uint64_t config, SrcLoc loc);
// SetFixPipeConfig (the FPC register): a C2PIPE2GM tensor is the quantisation vector in the Fixpipe buffer that VDEQF16
// reads; a CO1 one only resets the unit flags
void cube_set_fpc(const Local& t, bool unitFlag, SrcLoc loc);
// a cbufWorkspace (the per-channel quantisation vector in L1) checked and put into `spec`
void cube_fixpipe_workspace(FixpipeSpec& spec, const Local& workspace, SrcLoc loc);
void cube_fixpipe_registers(FixpipeSpec& spec, bool nz2nd);
// SetHF32Mode: this core's fp32 Mmads (and Matmuls) take HF32 inputs from now on (not emulated: a warning at the Mmad)
void cube_set_hf32(bool on, SrcLoc loc);
void cube_fixpipe(Dt dstDt, Dt srcDt, void* gm, const Local* localDst, const Local& src, const FixpipeSpec& p, SrcLoc loc);

template <typename C, typename A, typename B> struct MmadTypes {
    static constexpr bool value = (std::is_same<A, half>::value && std::is_same<B, half>::value && std::is_same<C, float>::value) ||
                                  (std::is_same<A, bfloat16_t>::value && std::is_same<B, bfloat16_t>::value && std::is_same<C, float>::value) ||
                                  (std::is_same<A, float>::value && std::is_same<B, float>::value && std::is_same<C, float>::value) ||
                                  (std::is_same<A, int8_t>::value && std::is_same<B, int8_t>::value && std::is_same<C, int32_t>::value);
};

}}  // namespace ascendcraft::emu

namespace AscendC {

// ---- the 910B (dav-2201) core's buffer sizes in bytes, under AscendC's names (kernels size their splits with them;
// TOTAL_UB_SIZE / TOTAL_VEC_LOCAL_SIZE are below). L1 leaves the last KFC_L1_RESERVER_SIZE bytes (128 unless the build sets it) to the Matmul server's messages.
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
const uint32_t TOTAL_L0A_SIZE = 64 * 1024;
const uint32_t TOTAL_L0B_SIZE = 64 * 1024;
const uint32_t TOTAL_L0C_SIZE = 128 * 1024;
const uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;
const uint32_t TMP_UB_OFFSET = 184 * 1024;
const uint32_t TMP_UB_SIZE = 8 * 1024;

// ---- HF32: fp32 Mmad inputs rounded to the shorter HF32 format (twice the fp32 rate). The emulation keeps fp32 and
// warns at the first fp32 Mmad in HF32 mode (hf32-not-emulated): the A2 format's mantissa width is not documented.
enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };
inline void SetHF32Mode(HF32Mode mode, SrcLoc loc = {}) { ascendcraft::emu::cube_set_hf32(mode == HF32Mode::ENABLE, loc); }
inline void SetHF32Mode(bool hf32Mode, SrcLoc loc = {}) { ascendcraft::emu::cube_set_hf32(hf32Mode, loc); }
inline void SetHF32TransMode(HF32TransMode, SrcLoc = {}) {}   // the rounding of HF32 mode (toward zero / to nearest even)
inline void SetHF32TransMode(bool, SrcLoc = {}) {}
// The order in which the cube produces an Mmad's results (true: along N first, then M; false: along M first). It changes
// when each part of L0C is ready, not the values; the emulation computes an Mmad whole, so the order has no effect.
inline void SetMMLayoutTransform(bool mmLayoutMode, SrcLoc = {}) { (void)mmLayoutMode; }
inline void SetMMRowMajor(SrcLoc = {}) {}
inline void SetMMColumnMajor(SrcLoc = {}) {}

// ---- parameter structs (field names and orders as in AscendC) ------------------------------------
struct Nd2NzParams {
    Nd2NzParams() {}
    Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint32_t dValueIn, const uint64_t srcNdMatrixStrideIn,
                const uint64_t srcDValueIn, const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
                const uint32_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn), srcDValue(srcDValueIn),
          dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn), dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint32_t dValue = 0;
    uint64_t srcNdMatrixStride = 0;
    uint64_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint32_t dstNzMatrixStride = 0;
};

struct LoadData2DParams {
    LoadData2DParams() {}
    LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn, const uint8_t sidIn,
                     const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = 0;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct MmadParams {
    MmadParams() {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
               const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn), enWinogradA(enWinogradAIn),
          enWinogradB(enWinogradBIn) {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn, const bool cmatrixSourceIn,
               const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn), cmatrixInitVal(cmatrixInitValIn) {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;   // true: the initial C comes from the bias table
    bool cmatrixInitVal = true;   // true: C starts from 0; false: Mmad accumulates onto L0C
};

// Buffer sizes of the 910B (A2) core, as the devkit names them: the UB (TOTAL_UB_SIZE) and the part of it kernels and
// the Matmul API's local workspace (SetLocalWorkspace) may take (TOTAL_VEC_LOCAL_SIZE).
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
constexpr int32_t DEFAULT_C0_SIZE = 32;   // bytes of one C0 row of a fractal (16 halves, 32 int8, 8 floats)
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig { CO2Layout format; };
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn, const uint32_t dstStrideIn,
                      const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn, const uint32_t dstStrideIn,
                      const bool reluEnIn, const QuantMode_t quantPreIn, const int64_t deqScalarIn, const uint16_t ndNumIn,
                      const uint16_t srcNdStrideIn, const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn) {}
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;   // L0C: distance between fractal columns, in 16-row units (mSize rounded up to 16)
    uint32_t dstStride = 0;   // ROW_MAJOR: elements from one output row to the next
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};
using FixpipeParams220 = FixpipeParamsV220;

namespace cube_detail {
inline ascendcraft::emu::Nd2NzSpec nd2nz(const Nd2NzParams& p) {
    ascendcraft::emu::Nd2NzSpec s;
    s.ndNum = p.ndNum; s.nValue = p.nValue; s.dValue = p.dValue; s.srcNdMatrixStride = p.srcNdMatrixStride;
    s.srcDValue = p.srcDValue; s.dstNzC0Stride = p.dstNzC0Stride; s.dstNzNStride = p.dstNzNStride;
    s.dstNzMatrixStride = p.dstNzMatrixStride;
    return s;
}
}  // namespace cube_detail

// ---- GM -> L1 with the ND -> NZ conversion (MTE2) ----------------------------------------------------
// int4b_t data moves as bytes (two elements each): its dValue and srcDValue count bytes, as for int8_t, so a kernel
// passes half its column counts there.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, SrcLoc loc = {}) {
    static_assert(ascendcraft::emu::OneOf<T, int8_t, uint8_t, half, bfloat16_t, float, int32_t, uint32_t, int16_t, uint16_t,
                                          int4b_t>::value,
                  "DataCopy with Nd2NzParams on Ascend 910B (A2) supports int4b_t, int8/uint8, int16/uint16, half, bfloat16_t, "
                  "int32/uint32 and float");
    const ascendcraft::emu::Dt dt = std::is_same<T, int4b_t>::value ? ascendcraft::emu::Dt::i8 : ascendcraft::emu::dt_of<T>();
    ascendcraft::emu::cube_copy_nd2nz(dt, dst.emu(), src.address_, nullptr, cube_detail::nd2nz(p), loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p, SrcLoc loc = {}) {
    ascendcraft::emu::cube_copy_nd2nz(ascendcraft::emu::dt_of<T>(), dst.emu(), nullptr, &src.emu(), cube_detail::nd2nz(p), loc);
}

// ---- LoadData (2D): L1 -> L0A / L0B, whole 512-byte fractals (MTE1) ------------------------------------
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, SrcLoc loc = {}) {
    if (p.addrMode != 0)   // addr_cal_mode_t: inc (0) is the emulated order
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::LoadData,
                                           "LoadData (2D) with addrMode = dec (each repeat's source fractal before the "
                                           "previous one) is not emulated yet",
                                           "load with addrMode = inc (0) and a source that runs forward", loc);
    ascendcraft::emu::Load2DSpec s;
    s.startIndex = p.startIndex; s.repeatTimes = p.repeatTimes; s.srcStride = p.srcStride; s.dstGap = p.dstGap;
    // int4b_t: whole 512-byte fractals (16 x 64 elements) as for int8_t; its load has no transposing form (ifTranspose is
    // not read for it)
    constexpr bool int4 = std::is_same<T, int4b_t>::value;
    s.transpose = !int4 && p.ifTranspose;
    ascendcraft::emu::cube_load2d(int4 ? ascendcraft::emu::Dt::i8 : ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), s, loc);
}

// ---- LoadData (2D) from GM: GM -> A1 / B1 (or straight to L0A / L0B), whole 512-byte fractals (MTE2) ----------------
// As the A2 build: ifTranspose is not read on this path; int4b_t stops with a named error, as does addrMode dec (not
// emulated yet).
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p, SrcLoc loc = {}) {
    if (std::is_same<T, int4b_t>::value)   // the official A2 build compiles it and asserts when it runs
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::LoadData,
                                           "LoadData with LoadData2DParams from GM does not support int4b_t on A2",
                                           "copy int4b_t data GM -> L1 with DataCopy (Nd2NzParams)", loc);
    if (p.addrMode != 0)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::LoadData,
                                           "LoadData (2D) from GM with addrMode = dec (each repeat's source fractal before "
                                           "the previous one) is not emulated yet",
                                           "load with addrMode = inc (0) and a source that runs forward", loc);
    ascendcraft::emu::Load2DSpec s;
    s.startIndex = p.startIndex; s.repeatTimes = p.repeatTimes; s.srcStride = p.srcStride; s.dstGap = p.dstGap;
    constexpr bool int4 = std::is_same<T, int4b_t>::value;
    ascendcraft::emu::cube_load2d_gm(int4 ? ascendcraft::emu::Dt::i8 : ascendcraft::emu::dt_of<T>(), dst.emu(), src.address_, s, loc);
}

// ---- LoadData with LoadData2DParamsV2: the Load2Dv2 form (Ascend 950) ----------------------------------------------
// The struct is declared, with the fields the Load2D page names, so that A2 code which keeps a 950 branch beside its own
// (asc-devkit's 06_compatibility_guide: the 950 path in a template member that A2 never instantiates, the choice made
// by `#if __NPU_ARCH__`) compiles as with CANN's headers; a call stops with a named error, as A2 has no such load.
struct LoadData2DParamsV2 {
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};
template <typename T>
inline void LoadData(const LocalTensor<T>& /*dst*/, const LocalTensor<T>& /*src*/, const LoadData2DParamsV2& /*p*/, SrcLoc loc = {}) {
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::LoadData,
                                       "LoadData with LoadData2DParamsV2 (Load2Dv2) is an Ascend 950 form; the emulated A2 "
                                       "has no such load",
                                       "on A2 load A1 -> A2 / B1 -> B2 with LoadData2DParams", loc);
}
template <typename T>
inline void LoadData(const LocalTensor<T>& /*dst*/, const GlobalTensor<T>& /*src*/, const LoadData2DParamsV2& /*p*/, SrcLoc loc = {}) {
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::LoadData,
                                       "LoadData with LoadData2DParamsV2 (Load2Dv2) from GM is an Ascend 950 form; the "
                                       "emulated A2 has no such load",
                                       "on A2 load GM -> A1 / B1 with LoadData2DParams or DataCopy (Nd2NzParams)", loc);
}

// ---- Fill (InitConstValue, its older name): set blocks of an L1 / L0A / L0B tensor to one value -----------------------
// repeatTimes repeats of blockNum blocks each -- 32-byte blocks in L1 (A1 / B1), 512-byte fractals in L0A / L0B -- with
// dstGap blocks left as they are between one repeat's last block and the next one's first. 0 repeats or 0 blocks do
// nothing. Ascend 910B fills int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float.
template <typename T> struct InitConstValueParams {
    InitConstValueParams() {}
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    InitConstValueParams(uint16_t repeatTimesIn, T initValueIn) : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = 0;
};
template <typename T, typename U = T>
inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, SrcLoc loc = {}) {
    static_assert(std::is_same<T, U>::value, "Fill: the InitConstValueParams value type is the tensor's element type");
    if (!ascendcraft::emu::OneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>::value)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::Fill, ascendcraft::emu::dt_of<T>(),
                                           "int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or float", loc);
    const U value = p.initValue;
    ascendcraft::emu::cube_fill(ascendcraft::emu::dt_of<T>(), dst.emu(), p.repeatTimes, p.blockNum, p.dstGap, &value, sizeof(U), loc);
}
template <typename T, typename U = T>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, SrcLoc loc = {}) { Fill(dst, p, loc); }

// ---- LoadData 3D (img2col: a convolution's feature map in L1 -> L0A / L0B, MTE1) ---------------------------------
// LoadData3DParamsV2<T>, with the Fmatrix / padding / repeat registers that SetFmatrix, SetLoadDataPaddingValue,
// SetLoadDataRepeat and SetLoadDataBoundary set and the IsResetLoad3dConfig template argument (false members: the load
// takes l1H / l1W / padList, or padValue, from those registers). See ascendcraft::emu::Load3DSpec for the layout.
constexpr int32_t PAD_SIZE = 4;   // padList: left, right, top, bottom
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };
template <typename T> struct LoadData3DParamsV2 {
    LoadData3DParamsV2() {}
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn, uint16_t kExtensionIn,
                       uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn, uint8_t strideWIn, uint8_t strideHIn,
                       uint8_t filterWIn, uint8_t filterHIn, uint8_t dilationFilterWIn, uint8_t dilationFilterHIn,
                       bool enTransposeIn, bool enSmallKIn, T padValueIn, bool filterSizeWIn = false, bool filterSizeHIn = false,
                       bool fMatrixCtrlIn = false)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn), enTranspose(enTransposeIn),
          enSmallK(enSmallKIn), padValue(padValueIn), filterSizeW(filterSizeWIn), filterSizeH(filterSizeHIn),
          fMatrixCtrl(fMatrixCtrlIn) {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
    uint16_t l1H = 0, l1W = 0, channelSize = 0, kExtension = 0, mExtension = 0, kStartPt = 0, mStartPt = 0;
    uint8_t strideW = 1, strideH = 1, filterW = 1, filterH = 1, dilationFilterW = 1, dilationFilterH = 1;
    bool enTranspose = false, enSmallK = false;
    T padValue = 0;
    bool filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
};
struct LoadDataRepeatParam {
    LoadDataRepeatParam() {}
    LoadDataRepeatParam(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint8_t reserved = 0;
};
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE], const FmatrixMode& fmatrixMode,
                       SrcLoc loc = {}) {
    (void)fmatrixMode;   // A2 keeps one Fmatrix for both sides (FMATRIX_LEFT)
    ascendcraft::emu::cube_set_fmatrix(l1H, l1W, padList, loc);
}
template <typename T> inline void SetLoadDataPaddingValue(const T padValue, SrcLoc loc = {}) {
    ascendcraft::emu::cube_set_load3d_pad(&padValue, sizeof(T), loc);
}
inline void SetLoadDataBoundary(uint32_t boundaryValue, SrcLoc loc = {}) { ascendcraft::emu::cube_set_load3d_boundary(boundaryValue, loc); }
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams, SrcLoc loc = {}) {
    ascendcraft::emu::cube_set_load3d_repeat(repeatParams.repeatStride, repeatParams.repeatTime, repeatParams.repeatMode, loc);
}
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p, SrcLoc loc = {}) {
    static_assert(sizeof(U) == sizeof(T), "LoadData3DParamsV2's padValue has the tensors' type");
    ascendcraft::emu::Load3DSpec s;
    s.l1H = p.l1H; s.l1W = p.l1W; s.channelSize = p.channelSize; s.kExtension = p.kExtension; s.mExtension = p.mExtension;
    s.kStartPt = p.kStartPt; s.mStartPt = p.mStartPt; s.strideW = p.strideW; s.strideH = p.strideH;
    s.filterW = p.filterW + (p.filterSizeW ? 256u : 0u); s.filterH = p.filterH + (p.filterSizeH ? 256u : 0u);
    s.dilationW = p.dilationFilterW; s.dilationH = p.dilationFilterH;
    for (int i = 0; i < PAD_SIZE; ++i) s.pad[i] = p.padList[i];
    s.transpose = p.enTranspose;
    s.fromRegisters = !defaultConfig.isSetFMatrix;
    s.padFromRegister = !defaultConfig.isSetPadding;
    const T pv = static_cast<T>(p.padValue);
    std::memcpy(s.padValue, &pv, sizeof(T));
    ascendcraft::emu::cube_load3d(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), s, loc);
}
// LoadDataImpl: the function behind this LoadData in AscendC's own headers, which kernels (cann-ops' conv3d backprops)
// call by name.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T>
inline void LoadDataImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p, SrcLoc loc = {}) {
    LoadData<T, defaultConfig, U>(dst, src, p, loc);
}

// LoadData3DParamsV2Pro: the same load with its fields packed as the instruction takes them. extConfig holds kExtension
// (bits 0..15), mExtension (16..31), kStartPt (32..47) and mStartPt (48..63); filterConfig strideW, strideH, filterW,
// filterH, dilationFilterW and dilationFilterH, 8 bits each from bit 0 (default 1 each). l1H, l1W and padList always come
// from the Fmatrix register (SetFmatrix, or Load3DSetFMatrixCal), the pad value from SetLoadDataPaddingValue's.
struct LoadData3DParamsV2Pro {
    LoadData3DParamsV2Pro() {}
    LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn, const bool filterSizeWIn,
                          const bool filterSizeHIn, const bool fMatrixCtrlIn, const uint64_t extConfigIn, const uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn), filterConfig(filterConfigIn) {}
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    uint64_t filterConfig = 0X10101010101;
};
// Load3DSetFMatrixCal: the Fmatrix register's l1H, l1W and padList, as SetFmatrix (AscendC's implementation name).
inline void Load3DSetFMatrixCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE], SrcLoc loc = {}) {
    ascendcraft::emu::cube_set_fmatrix(l1H, l1W, padList, loc);
}
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p, SrcLoc loc = {}) {
    ascendcraft::emu::Load3DSpec s;
    const auto field = [](uint64_t word, uint32_t shift, uint64_t mask) { return static_cast<uint32_t>((word >> shift) & mask); };
    s.channelSize = p.channelSize;
    s.kExtension = field(p.extConfig, 0, 0xFFFF); s.mExtension = field(p.extConfig, 16, 0xFFFF);
    s.kStartPt = field(p.extConfig, 32, 0xFFFF); s.mStartPt = field(p.extConfig, 48, 0xFFFF);
    s.strideW = field(p.filterConfig, 0, 0xFF); s.strideH = field(p.filterConfig, 8, 0xFF);
    s.filterW = field(p.filterConfig, 16, 0xFF) + (p.filterSizeW ? 256u : 0u);
    s.filterH = field(p.filterConfig, 24, 0xFF) + (p.filterSizeH ? 256u : 0u);
    s.dilationW = field(p.filterConfig, 32, 0xFF); s.dilationH = field(p.filterConfig, 40, 0xFF);
    s.transpose = p.enTranspose;
    s.fromRegisters = true;
    s.padFromRegister = true;
    ascendcraft::emu::cube_load3d(ascendcraft::emu::dt_of<T>(), dst.emu(), src.emu(), s, loc);
}

// ---- LoadDataWithTranspose: L1 -> L0A / L0B transposing whole squares of fractals (MTE1) -------------------------
// For 8- and 32-bit data, where a 16 x 16-element fractal is not square: B^T of int8 / float matmuls.
struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p,
                                  SrcLoc loc = {}) {
    ascendcraft::emu::Load2DTransposeSpec s;
    s.startIndex = p.startIndex; s.repeatTimes = p.repeatTimes; s.srcStride = p.srcStride; s.dstGap = p.dstGap;
    s.dstFracGap = p.dstFracGap; s.decrement = p.addrMode != 0;
    s.int4 = std::is_same<T, int4b_t>::value;   // two elements a byte: moved as bytes, transposed as nibbles
    ascendcraft::emu::cube_load2d_transpose(s.int4 ? ascendcraft::emu::Dt::i8 : ascendcraft::emu::dt_of<T>(), dst.emu(),
                                            src.emu(), s, loc);
}

// ---- Mmad: L0C (+)= L0A x L0B (M) ------------------------------------------------------------------------
template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p,
                 SrcLoc loc = {}) {
    // AscendC's headers accept other element types and check them when the call runs: so does the emulator.
    // (int32_t, int4b_t, int4b_t) is an A2 Mmad too: fractals of 16 x 64 4-bit elements, k even.
    static_assert(ascendcraft::emu::OneOf<T, half, float, bfloat16_t, int8_t, int32_t>::value &&
                      ascendcraft::emu::OneOf<U, half, float, bfloat16_t, int8_t, int32_t, int4b_t>::value &&
                      ascendcraft::emu::OneOf<S, half, float, bfloat16_t, int8_t, int32_t, int4b_t>::value,
                  "Mmad on Ascend 910B (A2) takes (L0C, L0A, L0B) as (float, half, half), (float, bfloat16_t, bfloat16_t), "
                  "(float, float, float), (int32_t, int8_t, int8_t) or (int32_t, int4b_t, int4b_t)");
    constexpr bool int4 = std::is_same<T, int32_t>::value && std::is_same<U, int4b_t>::value && std::is_same<S, int4b_t>::value;
    if (!ascendcraft::emu::MmadTypes<T, U, S>::value && !int4)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::Mmad, ascendcraft::emu::dt_of<T>(),
                                           "(L0C, L0A, L0B) as (float, half, half), (float, bfloat16_t, bfloat16_t), "
                                           "(float, float, float), (int32_t, int8_t, int8_t) or (int32_t, int4b_t, int4b_t)", loc);
    ascendcraft::emu::MmadSpec s;
    s.m = p.m; s.n = p.n; s.k = p.k; s.initZero = p.cmatrixInitVal && !p.isBias; s.fromBias = p.cmatrixSource;
    s.kAlign16 = p.kDirectionAlign; s.int4 = int4;
    const ascendcraft::emu::Dt in = int4 ? ascendcraft::emu::Dt::i8 : ascendcraft::emu::Dt::none;
    ascendcraft::emu::cube_mmad(ascendcraft::emu::dt_of<T>(), int4 ? in : ascendcraft::emu::dt_of<U>(),
                                int4 ? in : ascendcraft::emu::dt_of<S>(), dst.emu(), fm.emu(), filter.emu(), s, loc);
}
// With the bias table (C2): C starts from the bias row, broadcast over C's rows, then adds A x B (cmatrixSource = 1).
// With the bias in L0C (CO1), as AscendC's MmadImpl takes it: cmatrixSource = 0, C as without a bias (cube_mmad).
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const LocalTensor<V>& bias,
                 const MmadParams& p, SrcLoc loc = {}) {
    static_assert(std::is_same<V, T>::value, "Mmad's bias table tensor has the L0C type (float, or int32_t for int8)");
    if (!ascendcraft::emu::MmadTypes<T, U, S>::value)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::Mmad, ascendcraft::emu::dt_of<T>(),
                                           "(L0C, L0A, L0B) as (float, half, half), (float, bfloat16_t, bfloat16_t), "
                                           "(float, float, float) or (int32_t, int8_t, int8_t)", loc);
    ascendcraft::emu::MmadSpec s;
    s.m = p.m; s.n = p.n; s.k = p.k; s.initZero = false; s.fromBias = true; s.kAlign16 = p.kDirectionAlign;
    s.biasFormInitVal = p.cmatrixInitVal;
    const ascendcraft::emu::Local b = bias.emu();
    ascendcraft::emu::cube_mmad(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), ascendcraft::emu::dt_of<S>(),
                                dst.emu(), fm.emu(), filter.emu(), s, loc, &b);
}

// MmadImpl: the function behind Mmad in AscendC's own headers, which kernels (cann-ops' conv backprops) call by name.
template <typename T, typename U, typename S>
inline void MmadImpl(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p,
                     SrcLoc loc = {}) {
    Mmad(dst, fm, filter, p, loc);
}
template <typename T, typename U, typename S, typename V>
inline void MmadImpl(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const LocalTensor<V>& bias,
                     const MmadParams& p, SrcLoc loc = {}) {
    Mmad(dst, fm, filter, bias, p, loc);
}

// ---- DataCopy L1 -> bias table (C2) that widens half to float (MTE1): DataCopy<dst_T, src_T>. Both types may be the
// same when a kernel names them (cann-ops conv3dv2: DataCopy<L0cT, BiasT>(biasBT, biasL1, params) with float, float);
// a same-type call that names no types takes DataCopy's own one-type form, which is the more specialised template.
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p, SrcLoc loc = {}) {
    ascendcraft::emu::CopyShape shape;
    shape.countForm = false; shape.blockCount = p.blockCount; shape.blockLen = p.blockLen;
    shape.srcStride = p.srcStride; shape.dstStride = p.dstStride;
    ascendcraft::emu::cube_copy_bias(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src.emu(), shape, loc);
}

// ---- DataCopy with DataCopyEnhancedParams ------------------------------------------------------------
// The enhanced fields (blockMode, the dequantisation deqScale / deqValue / deqTensorAddr, sidStoreMode, isRelu) act on
// one path only, L0C (CO1) <-> UB (CO2), which the Atlas inference products' AI Core (310P) have. Ascend 910B (A2) keeps
// L0C in the cube core and UB in the vector cores, so it has no such path: AscendC's A2 build reports that copy, in
// either direction and with any types, as not supported on the device. On every other path the call is the plain
// DataCopy with the same DataCopyParams, and the enhanced fields are ignored (GM <-> UB / L1, UB -> UB, ...).
enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0,      // 32-byte units
    BLOCK_MODE_MATRIX,          // a 16 x 16 fractal per unit
    BLOCK_MODE_VECTOR,          // 1 x 16 per unit
    BLOCK_MODE_SMALL_CHANNEL,   // 16 x 4
    BLOCK_MODE_DEPTHWISE,       // 16 x 16 with channel split
};
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };

struct DataCopyEnhancedParams {
    DataCopyEnhancedParams() {}
    DataCopyEnhancedParams(const BlockMode blockModeIn, const DeqScale deqScaleIn, const uint64_t deqValueIn,
                           const uint8_t sidStoreModeIn, const bool isReluIn, const pad_t padModeIn, const uint64_t padValueIn)
        : blockMode(blockModeIn), deqScale(deqScaleIn), deqValue(deqValueIn), sidStoreMode(sidStoreModeIn), isRelu(isReluIn),
          padMode(padModeIn), padValue(padValueIn) {}
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    pad_t padMode = PAD_NONE;
    uint64_t padValue = 0;
    uint64_t deqTensorAddr = 0;   // UB address of a VDEQ* parameter vector
};

namespace enhanced_copy_detail {
// The type pairs (dst, src) AscendC declares for the two-type form: float -> half, float -> bfloat16_t (A2's L1 -> L0C),
// int32_t -> half / int16_t / int8_t / uint8_t and half -> float; or one type for both.
template <typename T, typename U> struct Pair {
    static constexpr bool value =
        std::is_same<T, U>::value || (std::is_same<T, half>::value && std::is_same<U, float>::value) ||
        (std::is_same<T, bfloat16_t>::value && std::is_same<U, float>::value) ||
        (std::is_same<U, int32_t>::value && ascendcraft::emu::OneOf<T, half, int16_t, int8_t, uint8_t>::value) ||
        (std::is_same<T, float>::value && std::is_same<U, half>::value);
};
inline bool in_l0c(const ascendcraft::emu::Local& t) { return t.pos == static_cast<uint8_t>(TPosition::CO1); }
inline bool in_ub(const ascendcraft::emu::Local& t) {
    const TPosition p = static_cast<TPosition>(t.pos);
    return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC || p == TPosition::CO2;
}
inline void no_l0c_ub_path(bool toUb, ascendcraft::emu::SrcLoc loc) {
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DataCopy,
        toUb ? "DataCopy from L0C (CO1) to UB with DataCopyEnhancedParams is a path of the Atlas inference products' AI "
               "Core (310P) only: Ascend 910B (A2) has no L0C -> UB path (its L0C is in the cube core, UB in the vector "
               "cores), and AscendC's A2 build reports the copy as not supported on the device"
             : "DataCopy from UB to L0C (CO1) with DataCopyEnhancedParams is a path of the Atlas inference products' AI "
               "Core (310P) only: Ascend 910B (A2) has no UB -> L0C path (its L0C is in the cube core, UB in the vector "
               "cores), and AscendC's A2 build reports the copy as not supported on the device",
        toUb ? "on A2 move the Mmad result out of L0C with Fixpipe (to GM, or to L1) and read it from GM on a vector core"
             : "on A2 start the accumulation in L0C from the bias table (Mmad with a C2 bias tensor) or add in the vector "
               "core after Fixpipe",
        loc);
}
}  // namespace enhanced_copy_detail

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams& enhancedParams, SrcLoc loc = {}) {
    (void)enhancedParams;
    DataCopy(dst, src, p, loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams& enhancedParams, SrcLoc loc = {}) {
    (void)enhancedParams;
    DataCopy(dst, src, p, loc);
}
template <typename T, typename U, typename std::enable_if<enhanced_copy_detail::Pair<T, U>::value, bool>::type = true>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams& enhancedParams, SrcLoc loc = {}) {
    (void)enhancedParams;
    const ascendcraft::emu::Local d = dst.emu(), s = src.emu();
    if (enhanced_copy_detail::in_l0c(s) && enhanced_copy_detail::in_ub(d)) return enhanced_copy_detail::no_l0c_ub_path(true, loc);
    if (enhanced_copy_detail::in_ub(s) && enhanced_copy_detail::in_l0c(d)) return enhanced_copy_detail::no_l0c_ub_path(false, loc);
    if (!std::is_same<T, U>::value)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DataCopy,
            "DataCopy with DataCopyEnhancedParams between two element types: AscendC converts on L0C <-> UB (the "
            "310P path, which Ascend 910B (A2) does not have) and on A2's L1 -> L0C, which is not emulated yet; other "
            "positions AscendC refuses when the kernel runs",
            "on A2 load L1 -> L0A / L0B with LoadData and start L0C from Mmad (with a C2 bias tensor for a bias)", loc);
    else DataCopy(dst, src, p, loc);
}

// ---- Fixpipe: L0C -> GM (or L1) with the NZ -> ND conversion and the output cast (FIX) ----------------
namespace cube_detail {
inline ascendcraft::emu::FixpipeSpec fix(const FixpipeParamsV220& p, CO2Layout layout) {
    ascendcraft::emu::FixpipeSpec s;
    s.nSize = p.nSize; s.mSize = p.mSize; s.srcStride = p.srcStride; s.dstStride = p.dstStride;
    s.quant = static_cast<uint8_t>(p.quantPre); s.relu = p.reluEn; s.ndNum = p.ndNum; s.srcNdStride = p.srcNdStride;
    s.dstNdStride = p.dstNdStride; s.layout = static_cast<uint8_t>(layout); s.deqScalar = p.deqScalar;
    s.channelSplit = p.isChannelSplit;
    return s;
}
}  // namespace cube_detail

// The Fixpipe registers of the DataCopy form below
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride, SrcLoc loc = {}) {
    ascendcraft::emu::cube_set_nz2nd(ndNum, srcNdStride, dstNdStride, loc);
}
inline void SetFixpipePreQuantFlag(uint64_t config, SrcLoc loc = {}) { ascendcraft::emu::cube_set_quant_pre(config, loc); }
// The devkit's implementation function behind it, which kernels also call by name with the ND_PARA register whole
// (hicann ops-transformer's attention-grad cube code: SetNdParaImpl(0x1)): ndNum in bits 15:0, srcNdStride in 31:16,
// dstNdStride in 47:32.
inline void SetNdParaImpl(uint64_t config, SrcLoc loc = {}) {
    ascendcraft::emu::cube_set_nz2nd(static_cast<uint16_t>(config & 0xFFFF), static_cast<uint16_t>((config >> 16) & 0xFFFF),
                                     static_cast<uint32_t>((config >> 32) & 0xFFFF), loc);
}
// SetFixPipeConfig: with an L0C (CO1) tensor and isUnitFlag, clears L0C's unit flags (Mmad / Fixpipe unitFlag), which the
// emulation has no need of: its Mmads and Fixpipes run in program order. With a Fixpipe-buffer (C2PIPE2GM) tensor it names
// the per-channel quantisation vector (uint64_t a channel) that the next Fixpipes with VDEQF16 read. The ReLU vector
// (reluPre, reserved on A2: an empty tensor) is not emulated.
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                             SrcLoc loc = {}) {
    if (reluPre.emu().addr)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Fixpipe,
                                           "SetFixPipeConfig with a ReLU vector (reluPre) is not emulated: A2 reserves it",
                                           "pass an empty LocalTensor as reluPre, as the API reference asks", loc);
    ascendcraft::emu::cube_set_fpc(quantPre.emu(), isUnitFlag, loc);
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false, SrcLoc loc = {}) {
    static_assert(!setRelu, "SetFixPipeConfig<T, true> (a ReLU vector): A2 supports setRelu = false only");
    ascendcraft::emu::cube_set_fpc(preData.emu(), isUnitFlag, loc);
}

// DataCopy L0C -> GM: the Fixpipe's older spelling. nSize x mSize of the NZ source (srcStride: its fractal columns, in
// 16-row units), out as ND rows of dstStride elements when nz2ndEn (the ND count and strides from SetFixpipeNz2ndFlag),
// else as NZ with Z columns dstStride x 32 bytes apart (channelSplit: float in 16 x 8 fractals); quantPre / reluPre as
// Fixpipe's.
struct DataCopyCO12DstParams {
    DataCopyCO12DstParams() {}
    DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn, const uint16_t srcStrideIn,
                          const QuantMode_t quantPreIn, const uint8_t reluPreIn, const bool channelSplitIn, const bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};
namespace co12_detail {
// The Fixpipe a DataCopy out of L0C stands for: p's sizes, strides, quantisation and ReLU, written as `layout`, with the
// Fixpipe registers (SetFixpipeNz2ndFlag's ND count and strides when `nz2nd`).
inline ascendcraft::emu::FixpipeSpec spec(const DataCopyCO12DstParams& p, CO2Layout layout, bool nz2nd) {
    ascendcraft::emu::FixpipeSpec s;
    s.nSize = p.nSize; s.mSize = p.mSize; s.srcStride = p.srcStride; s.dstStride = p.dstStride;
    s.quant = static_cast<uint8_t>(p.quantPre); s.relu = p.reluPre != 0;
    s.layout = static_cast<uint8_t>(layout);
    s.channelSplit = p.channelSplit && !nz2nd;   // the L1 form below does not pass it on (A2 reads it on the GM path only)
    ascendcraft::emu::cube_fixpipe_registers(s, nz2nd);
    return s;
}
}  // namespace co12_detail
template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p, SrcLoc loc = {}) {
    if (p.nSize == 0 || p.mSize == 0) return;   // a NOP, as documented
    auto s = co12_detail::spec(p, p.nz2ndEn ? CO2Layout::ROW_MAJOR : CO2Layout::NZ, p.nz2ndEn);
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.address_, nullptr, src.emu(), s, loc);
}
// DataCopy L0C -> L1 (CO1 -> C1, NZ -> NZ): nSize (a multiple of 16) x mSize of the source, srcStride its Z-column
// distance in 16-row units (mSize rounded up to 16), dstStride the L1 Z-column distance in 32-byte blocks; quantPre
// turns the L0C type into the output's (F322F16 / F322BF16 for half / bfloat16_t; this path has no NoQuant), reluPre as
// Fixpipe's. channelSplit and nz2ndEn act on Ascend 950 only: A2 reads neither (ops-nn flat_quant).
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p, SrcLoc loc = {}) {
    if (p.nSize == 0 || p.mSize == 0) return;   // a NOP, as documented
    auto s = co12_detail::spec(p, CO2Layout::NZ, false);
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), nullptr, &dst.emu(), src.emu(), s, loc);
}

// The older Fixpipe parameters (FixpipeParams<T>): cburstNum bursts of 16 columns, each burstLen 32-byte blocks of the
// L0C type (M x 16 elements), srcStride the gap between bursts in 16 x 16 fractals; with nz2ndParams.nz2ndEn the output
// is ND rows of dstStride elements and originalNSize columns.
struct QuantParams {
    QuantParams() {}
    QuantParams(const QuantMode_t quantPreIn) : quantPre(quantPreIn) {}
    QuantParams(const QuantMode_t quantPreIn, const uint64_t deqScalarIn) : quantPre(quantPreIn), deqScalar(deqScalarIn) {}
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
};
struct Nz2NdParams {
    Nz2NdParams() {}
    Nz2NdParams(const bool nz2ndEnIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn, const uint16_t dstNdStrideIn,
                const uint16_t originalNSizeIn)
        : nz2ndEn(nz2ndEnIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn), originalNSize(originalNSizeIn) {}
    bool nz2ndEn = false;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    uint16_t originalNSize = 0;
};
template <typename T = int32_t> struct FixpipeParams {
    FixpipeParams() {}
    FixpipeParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint32_t dstStrideIn)
        : cburstNum(count), burstLen(len), dstStride(dstStrideIn), srcStride(srcStrideIn) {}
    uint16_t cburstNum = 1;
    uint16_t burstLen = 1;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    QuantParams quantParams;
    bool reluEn = false;
    Nz2NdParams nz2ndParams;
    uint8_t unitFlag = 0;
};
namespace cube_detail {
// The spec of a Fixpipe with the older parameters, L0C -> GM: burstLen 32-byte blocks of the L0C type a burst.
template <typename T, typename U, typename S>
inline ascendcraft::emu::FixpipeSpec older_gm(const FixpipeParams<S>& p) {
    ascendcraft::emu::FixpipeSpec s;
    const uint32_t m = static_cast<uint32_t>(p.burstLen) * ONE_BLK_SIZE / sizeof(U) / 16;   // rows of one burst
    s.mSize = m;
    s.nSize = p.nz2ndParams.nz2ndEn ? p.nz2ndParams.originalNSize : static_cast<uint32_t>(p.cburstNum) * 16;
    s.srcStride = static_cast<uint32_t>(p.srcStride) * 16 + (m + 15) / 16 * 16;
    s.dstStride = p.dstStride;
    s.quant = static_cast<uint8_t>(p.quantParams.quantPre); s.relu = p.reluEn;
    s.ndNum = p.nz2ndParams.ndNum; s.srcNdStride = p.nz2ndParams.srcNdStride; s.dstNdStride = p.nz2ndParams.dstNdStride;
    s.deqScalar = p.quantParams.deqScalar;
    s.layout = static_cast<uint8_t>(p.nz2ndParams.nz2ndEn ? CO2Layout::ROW_MAJOR : CO2Layout::NZ);
    // NZ out: dstStride is the gap between bursts in 32-byte blocks; the distance adds a burst at the output type's size
    if (!p.nz2ndParams.nz2ndEn) { s.dstStride = p.dstStride + static_cast<uint32_t>(p.burstLen) * sizeof(T) / sizeof(U); }
    return s;
}
// L0C -> L1 (NZ -> NZ): dstStride the gap between Z columns in L1 in 32-byte blocks (their distance is the gap plus a
// burst at the output type's size).
template <typename T, typename U, typename S>
inline ascendcraft::emu::FixpipeSpec older_l1(const FixpipeParams<S>& p, SrcLoc loc) {
    if (p.nz2ndParams.nz2ndEn)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Fixpipe,
                                           "Fixpipe L0C -> L1 with nz2ndEn (ND output in L1) is not emulated yet",
                                           "leave nz2ndParams.nz2ndEn false (NZ in L1), or Fixpipe to GM for ND", loc);
    ascendcraft::emu::FixpipeSpec s;
    const uint32_t m = static_cast<uint32_t>(p.burstLen) * ONE_BLK_SIZE / sizeof(U) / 16;   // rows of one burst
    s.mSize = m;
    s.nSize = static_cast<uint32_t>(p.cburstNum) * 16;
    s.srcStride = static_cast<uint32_t>(p.srcStride) * 16 + (m + 15) / 16 * 16;
    s.dstStride = p.dstStride + static_cast<uint32_t>(p.burstLen) * sizeof(T) / sizeof(U);
    s.quant = static_cast<uint8_t>(p.quantParams.quantPre); s.relu = p.reluEn;
    s.deqScalar = p.quantParams.deqScalar;
    s.layout = static_cast<uint8_t>(CO2Layout::NZ);
    return s;
}
}  // namespace cube_detail
template <typename T, typename U, typename S>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParams<S>& p, SrcLoc loc = {}) {
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.address_, nullptr, src.emu(),
                                   cube_detail::older_gm<T, U>(p), loc);
}
template <typename T, typename U, typename S>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParams<S>& p, SrcLoc loc = {}) {
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), nullptr, &dst.emu(), src.emu(),
                                   cube_detail::older_l1<T, U>(p, loc), loc);
}
// The forms with a cbufWorkspace: the per-channel quantisation vector in L1 (uint64_t a channel) that VDEQF16,
// VQF322B8_PRE and VREQ8 read (the Fixpipe moves it into the Fixpipe buffer itself), to GM or to L1. With the other
// modes the workspace is not read.
template <typename T, typename U, typename S, typename V>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParams<V>& p, SrcLoc loc = {}) {
    ascendcraft::emu::FixpipeSpec s = cube_detail::older_l1<T, U>(p, loc);
    ascendcraft::emu::cube_fixpipe_workspace(s, cbufWorkspace.emu(), loc);
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), nullptr, &dst.emu(), src.emu(), s, loc);
}
template <typename T, typename U, typename S, typename V>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParams<V>& p, SrcLoc loc = {}) {
    ascendcraft::emu::FixpipeSpec s = cube_detail::older_gm<T, U>(p);
    ascendcraft::emu::cube_fixpipe_workspace(s, cbufWorkspace.emu(), loc);
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.address_, nullptr, src.emu(), s, loc);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p, SrcLoc loc = {}) {
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.address_, nullptr, src.emu(),
                                   cube_detail::fix(p, config.format), loc);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p, SrcLoc loc = {}) {
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), nullptr, &dst.emu(), src.emu(),
                                   cube_detail::fix(p, config.format), loc);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& p, SrcLoc loc = {}) {
    ascendcraft::emu::FixpipeSpec s = cube_detail::fix(p, config.format);
    ascendcraft::emu::cube_fixpipe_workspace(s, cbufWorkspace.emu(), loc);
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), nullptr, &dst.emu(), src.emu(), s, loc);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& p, SrcLoc loc = {}) {
    ascendcraft::emu::FixpipeSpec s = cube_detail::fix(p, config.format);
    ascendcraft::emu::cube_fixpipe_workspace(s, cbufWorkspace.emu(), loc);
    ascendcraft::emu::cube_fixpipe(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.address_, nullptr, src.emu(), s, loc);
}

}  // namespace AscendC

// ---- which core type runs this code: the launch's cores follow the kernel type (sync_cross.h); a Matmul object on a
// vector core does the cube core's work in place ------------------------------------------------------------------
namespace ascendcraft { namespace emu {
void kernel_type_set(int type);   // KERNEL_TASK_TYPE_DEFAULT at run time (the build lays the cores out by it already)
int kernel_type_declared(int type);   // KERNEL_TASK_TYPE_DEFAULT: kernel_type_set inside a launch; returns the type
bool kernel_on_aic();
bool kernel_mixed_aic();          // the AIC of a mixed launch
[[noreturn]] void matmul_server();  // REGIST_MATMUL_OBJ on that AIC: it serves the AIVs' Matmul calls, its own code ends
void matmul_server_tiling_put(int index, const void* tiling, size_t size);  // that AIC's tiling of its index-th object
bool matmul_server_tiling_get(int index, void* out, size_t size);   // an AIV of a mixed launch: its group AIC's, if any
}}  // namespace ascendcraft::emu
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (!::ascendcraft::emu::kernel_on_aic())
#endif
#ifndef ASCEND_IS_AIC
#define ASCEND_IS_AIC (::ascendcraft::emu::kernel_on_aic())
#endif
#ifndef ASCEND_IS_NOT_AIV
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#endif
#ifndef ASCEND_IS_NOT_AIC
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)
#endif
