// AscendCraft CPU emulation: the device compiler's raw cube intrinsics, which kernels written against them rather than
// the AscendC API call (SGLang's laser_attention cube side, cann-ops conv2d_backprop_filter_v2's GM -> L1 copy):
//   copy_gm_to_cbuf_multi_nd2nz_b8 / _b16 / _b32s(dst, src, sid, ndNum, nValue, dValue, srcNdMatrixStride, srcDValue,
//   dstNzC0Stride, dstNzNStride, dstNzMatrixStride): DataCopy GM -> L1 with Nd2NzParams (1-, 2- and 4-byte elements);
//   copy_gm_to_cbuf(dst, src, sid, nBurst, lenBurst, srcGap, dstGap, padMode): DataCopy GM -> L1 in 32-byte blocks
//   (padMode PAD_NONE; the padding modes stop with a named error);
//   load_cbuf_to_ca / load_cbuf_to_cb(dst, src, baseIdx, repeat, srcStride, dstGap, sid, transpose, addrMode): LoadData
//   L1 -> L0A / L0B with LoadData2DParams (transpose: each 16 x 16 fractal of 2-byte data transposed);
//   load_cbuf_to_ca_transpose / load_cbuf_to_cb_transpose(dst, src, indexID, repeat, srcStride, dstGap, addrMode,
//   dstFracGap): LoadDataWithTranspose (the squares of 1- and 4-byte data);
//   mad(c, a, b, m, k, n, unitFlag, kDirectionAlign, cmatrixSource, cmatrixInitVal): Mmad L0A x L0B -> L0C;
//   copy_matrix_cc_to_gm(dst, src, sid, nSize, mSize, dstStride, srcStride, unitFlag, quantPre, reluPre, channelSplit,
//   nz2ndEn): DataCopy L0C -> GM with DataCopyCO12DstParams (the Fixpipe; ND out with nz2ndEn, by the ND_PARA register);
//   set_nd_para(config): that register (SetNdParaImpl); set_padding(config): the padding register of the loads (its low
//   32 bits, as SetLoadDataPaddingValue sets it).
// A raw cube pointer is an address in the buffer the intrinsic names (dst of load_cbuf_to_ca in L0A, its src in L1, ...):
// a number below the buffer's size is that offset in this core's buffer (`(__cbuf__ half*)((uintptr_t)128 * 1024)`, as
// laser_attention writes them), and a LocalTensor's GetPhyAddr() is its own place; either becomes a static tensor from
// there to the buffer's end, so the API's checks (l1-overflow / l0-overflow past the end, alignment, cube core only),
// race records, trace and cost are those of the API call. Written from the public AscendC documentation of these
// instructions and of the API calls they stand behind; no vendor code.
#pragma once

#include "cube.h"
#include "raw_intrinsics.h"

namespace ascendcraft { namespace emu {
// A LocalTensor's view of a raw pointer into the cube buffer of `pos` (A1: L1, A2: L0A, B2: L0B, CO1: L0C). An error
// names `api` when p is neither an offset below that buffer's size nor inside this core's buffer.
Local cube_raw_view(const void* p, AscendC::TPosition pos, const char* api, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace raw_cube_detail {
template <typename T> inline LocalTensor<T> at(T* p, TPosition pos, const char* api, SrcLoc loc) {
    return LocalTensor<T>(ascendcraft::emu::cube_raw_view(p, pos, api, loc));
}
template <typename T, typename U>
inline void nd2nz(T* dst, U* src, uint16_t ndNum, uint16_t nValue, uint32_t dValue, uint64_t srcNdMatrixStride,
                  uint64_t srcDValue, uint16_t dstNzC0Stride, uint16_t dstNzNStride, uint32_t dstNzMatrixStride,
                  const char* api, SrcLoc loc) {
    static_assert(sizeof(T) == sizeof(U), "copy_gm_to_cbuf_multi_nd2nz: the L1 and GM pointers have one element type");
    DataCopy(at(dst, TPosition::A1, api, loc), devkit_detail::gm(reinterpret_cast<T*>(src)),
             Nd2NzParams(ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride, dstNzMatrixStride),
             loc);
}
template <typename T>
inline void load2d(T* dst, T* src, TPosition dstPos, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride, uint16_t dstGap,
                   uint8_t sid, bool transpose, uint8_t addrMode, const char* api, SrcLoc loc) {
    LoadData(at(dst, dstPos, api, loc), at(src, TPosition::A1, api, loc),
             LoadData2DParams(baseIdx, repeat, srcStride, sid, dstGap, transpose, addrMode), loc);
}
template <typename T>
inline void load2d_transpose(T* dst, T* src, TPosition dstPos, uint16_t indexID, uint8_t repeat, uint16_t srcStride,
                             uint16_t dstGap, uint8_t addrMode, uint16_t dstFracGap, const char* api, SrcLoc loc) {
    LoadDataWithTranspose(at(dst, dstPos, api, loc), at(src, TPosition::A1, api, loc),
                          LoadData2dTransposeParams(indexID, repeat, srcStride, dstGap, dstFracGap, addrMode), loc);
}
}  // namespace raw_cube_detail
}  // namespace AscendC

// ---- GM -> L1 (MTE2) ------------------------------------------------------------------------------------------------
#define ASCENDCRAFT_RAW_ND2NZ(raw, BYTES)                                                                              \
    template <typename T, typename U>                                                                                 \
    inline void raw(T* dst, U* src, uint8_t /*sid*/, uint16_t ndNum, uint16_t nValue, uint32_t dValue,                \
                    uint64_t srcNdMatrixStride, uint64_t srcDValue, uint16_t dstNzC0Stride, uint16_t dstNzNStride,    \
                    uint32_t dstNzMatrixStride, ascendcraft::emu::SrcLoc loc = {}) {                                  \
        static_assert(sizeof(T) == BYTES, #raw " copies " #BYTES "-byte elements");                                   \
        AscendC::raw_cube_detail::nd2nz(dst, src, ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, \
                                        dstNzNStride, dstNzMatrixStride, #raw, loc);                                  \
    }
ASCENDCRAFT_RAW_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b8, 1)
ASCENDCRAFT_RAW_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b16, 2)
ASCENDCRAFT_RAW_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b32s, 4)
#undef ASCENDCRAFT_RAW_ND2NZ

inline void copy_gm_to_cbuf(void* dst, void* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, pad_t padMode, ascendcraft::emu::SrcLoc loc = {}) {
    if (padMode != PAD_NONE)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DataCopy,
            "copy_gm_to_cbuf with a padding mode (PAD_MODE1..8: a few bytes of each burst from GM, the rest of its 32 "
            "bytes from set_padding's value) is not emulated yet", "copy whole 32-byte blocks with PAD_NONE", loc);
    AscendC::DataCopy(AscendC::raw_cube_detail::at(static_cast<uint8_t*>(dst), AscendC::TPosition::A1, "copy_gm_to_cbuf", loc),
                      AscendC::devkit_detail::gm(static_cast<uint8_t*>(src)),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

// ---- L1 -> L0A / L0B (MTE1) -----------------------------------------------------------------------------------------
template <typename T>
inline void load_cbuf_to_ca(T* dst, T* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride, uint16_t dstGap,
                            uint8_t sid, bool transpose, addr_cal_mode_t addrMode, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_cube_detail::load2d(dst, src, AscendC::TPosition::A2, baseIdx, repeat, srcStride, dstGap, sid, transpose,
                                     addrMode, "load_cbuf_to_ca", loc);
}
template <typename T>
inline void load_cbuf_to_cb(T* dst, T* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride, uint16_t dstGap,
                            uint8_t sid, bool transpose, addr_cal_mode_t addrMode, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_cube_detail::load2d(dst, src, AscendC::TPosition::B2, baseIdx, repeat, srcStride, dstGap, sid, transpose,
                                     addrMode, "load_cbuf_to_cb", loc);
}
template <typename T>
inline void load_cbuf_to_ca_transpose(T* dst, T* src, uint16_t indexID, uint8_t repeat, uint16_t srcStride, uint16_t dstGap,
                                      addr_cal_mode_t addrMode, uint16_t dstFracGap, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_cube_detail::load2d_transpose(dst, src, AscendC::TPosition::A2, indexID, repeat, srcStride, dstGap, addrMode,
                                               dstFracGap, "load_cbuf_to_ca_transpose", loc);
}
template <typename T>
inline void load_cbuf_to_cb_transpose(T* dst, T* src, uint16_t indexID, uint8_t repeat, uint16_t srcStride, uint16_t dstGap,
                                      addr_cal_mode_t addrMode, uint16_t dstFracGap, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::raw_cube_detail::load2d_transpose(dst, src, AscendC::TPosition::B2, indexID, repeat, srcStride, dstGap, addrMode,
                                               dstFracGap, "load_cbuf_to_cb_transpose", loc);
}

// ---- L0A x L0B -> L0C (M) -------------------------------------------------------------------------------------------
// unitFlag orders the Mmad and the Fixpipe on an L0C block on the NPU; the emulation orders them by the pipes' events, so
// it changes nothing here (as the API's MmadParams::unitFlag).
template <typename C, typename A, typename B>
inline void mad(C* c, A* a, B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag, bool kDirectionAlign,
                bool cmatrixSource, bool cmatrixInitVal, ascendcraft::emu::SrcLoc loc = {}) {
    if (cmatrixSource)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::Mmad,
            "mad with cmatrixSource = 1 takes C's start from the bias table, which this form has no address of",
            "pass cmatrixSource = 0 (C from L0C, or 0 with cmatrixInitVal = 1), or use AscendC::Mmad with a C2 bias tensor", loc);
    AscendC::MmadParams p(m, n, k, unitFlag, false, cmatrixInitVal);
    p.kDirectionAlign = kDirectionAlign;
    AscendC::Mmad(AscendC::raw_cube_detail::at(c, AscendC::TPosition::CO1, "mad", loc),
                  AscendC::raw_cube_detail::at(a, AscendC::TPosition::A2, "mad", loc),
                  AscendC::raw_cube_detail::at(b, AscendC::TPosition::B2, "mad", loc), p, loc);
}

// ---- L0C -> GM (FIX) ------------------------------------------------------------------------------------------------
template <typename T, typename U>
inline void copy_matrix_cc_to_gm(T* dst, U* src, uint8_t sid, uint16_t nSize, uint16_t mSize, uint32_t dstStride,
                                 uint16_t srcStride, uint8_t unitFlag, QuantMode_t quantPre, uint8_t reluPre, bool channelSplit,
                                 bool nz2ndEn, ascendcraft::emu::SrcLoc loc = {}) {
    AscendC::DataCopyCO12DstParams p(nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit, nz2ndEn);
    p.sid = sid;
    p.unitFlag = unitFlag;
    AscendC::DataCopy(AscendC::devkit_detail::gm(dst), AscendC::raw_cube_detail::at(src, AscendC::TPosition::CO1,
                                                                                  "copy_matrix_cc_to_gm", loc), p, loc);
}

// ---- the registers ----------------------------------------------------------------------------------------------------
// ND_PARA: ndNum in bits 15:0, srcNdStride in 31:16, dstNdStride in 47:32 (what copy_matrix_cc_to_gm's nz2ndEn reads).
inline void set_nd_para(uint64_t config, ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetNdParaImpl(config, loc); }
// The padding value of the loads: 32 bits of it (b16 data reads bits 15:0, b8 the two equal bytes 15:0).
inline void set_padding(uint64_t config, ascendcraft::emu::SrcLoc loc = {}) {
    const uint32_t value = static_cast<uint32_t>(config);
    ascendcraft::emu::cube_set_load3d_pad(&value, sizeof value, loc);
}
