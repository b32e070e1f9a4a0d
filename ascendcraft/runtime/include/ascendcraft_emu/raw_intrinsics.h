// AscendCraft CPU emulation: the device compiler's raw copy intrinsics and macros that kernels ported from the
// devkit's own code use beside the AscendC API (cann-ops mat_mul_v3 / gemm_v2 / batch_mat_mul_v3):
//   copy_gm_to_ubuf_align_b8/b16/b32(ub, gm, sid, nBurst, lenBurst, leftPad, rightPad, srcGap, dstGap) and
//   copy_ubuf_to_gm_align_b8/b16/b32(gm, ub, ...): DataCopyPad on pointers -- nBurst bursts of lenBurst bytes, the GM
//   gap in bytes, the UB gap in 32-byte blocks, left / right padding in elements of 1 / 2 / 4 bytes (GM -> UB; the pad
//   value is the pad register's: what set_mov_pad_val / SetPadValue wrote, else its reset value 0);
//   PRELOAD(len) and icache_preload(len) (instruction-cache preloads: nothing to do here), __BLOCK_LOCAL__ (a variable per core: one per
//   emulated core thread), and the DEFAULT_DATA_COPY_NBURST / DEFAULT_DATA_COPY_STRIDE constants (1 and 0).
//   get_ctrl / set_ctrl / sbitset0 / sbitset1: the CTRL register (below); clz: the scalar count of leading zeros.
// Written from the public AscendC documentation of DataCopyPad and of the CTRL register's bits; no vendor code.
#pragma once

#include "devkit_impl.h"

#ifndef PRELOAD
#define PRELOAD(len) {}
#endif
#ifndef __BLOCK_LOCAL__
#define __BLOCK_LOCAL__ thread_local
#endif

// icache_preload(len): the device compiler's instruction-cache preload (catlass's MLA kernels call it between their task
// loops; the devkit's host-stub generator emits `icache_preload(1);`). No instruction cache here: nothing to do.
inline void icache_preload(int64_t len) { (void)len; }

// copy_data_align64(dst, src, bytes): the device compiler's copy that CANN's generated tiling code uses to bring a tiling
// struct or array from GM or UB onto the stack (asc-devkit's generate_tiling_code.py, COPY_TILING_WITH_STRUCT); kernels
// call it too (ops-transformer's attention kernels copy a tiling array with it). Here: `bytes` bytes, as given.
inline void copy_data_align64(void* dst, const void* src, uint64_t bytes) { std::memcpy(dst, src, bytes); }

// get_imm(imm): the device compiler's immediate load: the value itself, as a 64-bit scalar (the devkit's GetImm and its
// physical-buffer-address helper return what it gives). The official kernel-launch samples of 2023 (Add_tile, LeakyReLU)
// read their tiling struct through UB with it: `(__ubuf__ uint8_t*)get_imm(0)` is the UB at offset 0, which the
// __ubuf__ cast (ub_cast below) maps onto this core's UB; copy_gm_to_ubuf then fills it and the scalar code reads it.
inline int64_t get_imm(uint64_t imm) { return static_cast<int64_t>(imm); }

// A UB address the kernel's scalar code follows. On the NPU a `__ubuf__ T*` is an offset in the core's Unified Buffer and
// the scalar unit reads and writes through it (laser_attention: `(diagmataddr + stepshift)[i] = vecaddr[i]` on pointers
// made by `reinterpret_cast<__ubuf__ float*>((uintptr_t)offset)`); here each core's UB lives elsewhere, so the build
// turns every cast to a `__ubuf__` pointer (`reinterpret_cast<__ubuf__ T*>(x)`, `static_cast<...>`, `(__ubuf__ T*)x`;
// emu.numbered_ub_casts) into ascendcraft::emu::ub_cast<__ubuf__ T*>(x), which gives the place of that offset in this core's
// UB: then scalar loads and stores, pointer arithmetic and the raw intrinsics (which take a place in this core's UB as
// they take an offset) all see the same bytes. Any other value (a GetPhyAddr(), a pointer already mapped) is kept.
namespace ascendcraft { namespace emu {
// The place in this core's UB of a UB address `v` written as a number (an offset below the UB's size, or a 32-bit copy
// of a place in it, as ub_raw_view reads them); nullptr when `v` is neither or the thread runs no core.
void* ub_numbered_place(uintptr_t v);
template <typename P, typename X>
inline P ub_cast(X x) {
    static_assert(std::is_pointer<P>::value, "a cast to a __ubuf__ type gives a pointer");
    if constexpr (std::is_same<X, std::nullptr_t>::value) {
        return nullptr;
    } else if constexpr (std::is_pointer<X>::value) {
        void* place = ub_numbered_place(reinterpret_cast<uintptr_t>(x));
        return place ? reinterpret_cast<P>(place) : reinterpret_cast<P>(const_cast<typename std::remove_cv<
                                                        typename std::remove_pointer<X>::type>::type*>(x));
    } else {
        static_assert(std::is_integral<X>::value || std::is_enum<X>::value,
                      "a cast to a __ubuf__ pointer takes a pointer or an integer address");
        void* place = ub_numbered_place(static_cast<uintptr_t>(x));
        return place ? reinterpret_cast<P>(place) : reinterpret_cast<P>(static_cast<uintptr_t>(x));
    }
}
}}  // namespace ascendcraft::emu

namespace AscendC {
const uint8_t DEFAULT_DATA_COPY_NBURST = 1;
const uint8_t DEFAULT_DATA_COPY_STRIDE = 0;

namespace raw_copy_detail {
template <typename T>
inline void gm_to_ub(void* ub, void* gm, uint16_t nBurst, uint32_t lenBurst, uint8_t left, uint8_t right, uint32_t srcGap,
                     uint32_t dstGap, const char* api, SrcLoc loc) {
    DataCopyPad(devkit_detail::ub(static_cast<T*>(ub), api, loc), devkit_detail::gm(static_cast<T*>(gm)),
                DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0),
                // the pads take the pad-value register (set_mov_pad_val, SetPadValue) once written, else its reset value 0
                DataCopyPadExtParams<T>((left != 0 || right != 0) && !ascendcraft::emu::pad_value_written(), left, right,
                                        T(0)), loc);
}
template <typename T>
inline void ub_to_gm(void* gm, void* ub, uint16_t nBurst, uint32_t lenBurst, uint8_t left, uint8_t right, uint32_t srcGap,
                     uint32_t dstGap, const char* api, SrcLoc loc) {
    if (left != 0 || right != 0)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DataCopyPad, "copy_ubuf_to_gm_align with left / right "
            "padding is not emulated (padding belongs to the GM -> UB direction)", "pass 0 for both padding counts", loc);
    DataCopyPad(devkit_detail::gm(static_cast<T*>(gm)), devkit_detail::ub(static_cast<T*>(ub), api, loc),
                DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), loc);
}
}  // namespace raw_copy_detail
}  // namespace AscendC

#define ASCENDCRAFT_RAW_COPY(bits, T)                                                                                    \
    inline void copy_gm_to_ubuf_align_b##bits(void* ub, void* gm, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst,    \
                                              uint8_t left, uint8_t right, uint32_t srcGap, uint32_t dstGap,            \
                                              ascendcraft::emu::SrcLoc loc = {}) {                                     \
        AscendC::raw_copy_detail::gm_to_ub<T>(ub, gm, nBurst, lenBurst, left, right, srcGap, dstGap,                    \
                                              "copy_gm_to_ubuf_align_b" #bits, loc);                                  \
    }                                                                                                                  \
    inline void copy_ubuf_to_gm_align_b##bits(void* gm, void* ub, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst,    \
                                              uint8_t left, uint8_t right, uint32_t srcGap, uint32_t dstGap,            \
                                              ascendcraft::emu::SrcLoc loc = {}) {                                     \
        AscendC::raw_copy_detail::ub_to_gm<T>(gm, ub, nBurst, lenBurst, left, right, srcGap, dstGap,                    \
                                              "copy_ubuf_to_gm_align_b" #bits, loc);                                  \
    }
ASCENDCRAFT_RAW_COPY(8, uint8_t)
ASCENDCRAFT_RAW_COPY(16, uint16_t)
ASCENDCRAFT_RAW_COPY(32, uint32_t)
#undef ASCENDCRAFT_RAW_COPY

// The scalar unit's CTRL register (the device compiler's get_ctrl / set_ctrl, and sbitset0 / sbitset1 that clear / set
// one bit of a word): bit 56 is the vector mask's mode -- set_ctrl with it set is SetMaskCount, with it clear
// SetMaskNorm, and get_ctrl reads back the mode the mask is in. The saturation and data-cache bits (48, 49, 53, 59, 60)
// and the bits the documentation leaves undescribed (cann-ops' batch_mat_mul_v3 sets bit 51) are kept as written, so
// get_ctrl reads back what set_ctrl wrote, and change nothing in the emulation.
inline int64_t get_ctrl() { return static_cast<int64_t>(ascendcraft::emu::ctrl_read()); }
inline void set_ctrl(uint64_t value, ascendcraft::emu::SrcLoc loc = {}) { ascendcraft::emu::ctrl_write(value, loc); }
inline uint64_t sbitset0(uint64_t x, int64_t bit) { return x & ~(uint64_t{1} << (bit & 63)); }
inline uint64_t sbitset1(uint64_t x, int64_t bit) { return x | (uint64_t{1} << (bit & 63)); }
// clz(x): the scalar unit's count of leading zero bits of a 64-bit value (64 for 0), the instruction behind AscendC's
// CountLeadingZero / ScalarCountLeadingZero (sgl-kernel-npu's lightning_indexer calls it raw: `63 - clz(value)`).
inline int64_t clz(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

// The DMA's atomic mode through the device compiler's intrinsic set_atomic_none(): later copies to GM overwrite again, as
// after AscendC::SetAtomicNone (LLM4AscendC's Matmul kernels call it before their Matmul writes C).
inline void set_atomic_none(ascendcraft::emu::SrcLoc loc = {}) { AscendC::SetAtomicNone(loc); }

// The device compiler's address-order enum of the load instructions: a LoadData2DParams' addrMode as kernels spell it
// (cann-ops / ops-math stft: LoadData2dParams{0, repeat, 1, 0, 0, false, inc}); dec = each repeat's source before the
// previous one.
enum addr_cal_mode_t : uint8_t { inc = 0, dec };
// The device compiler's names of the Mmad / Fixpipe unit-flag modes a kernel passes as their unitFlag (ops-nn
// flat_quant: every K step but the last UFMode2, the last UFMode3): the values the unitFlag documentation gives those
// two modes (2 keeps the flag of each 512-byte L0C block, 3 sets it after Mmad and clears it after Fixpipe). The
// emulation orders Mmad and Fixpipe by the pipes' events, so neither mode changes what a kernel computes.
constexpr uint8_t UFMode2 = 2;
constexpr uint8_t UFMode3 = 3;

// The device compiler's convert_from_bytes<T>(bytes): a T whose object representation is the first sizeof(T) bytes
// at `bytes`, usable in a constant expression when they are a constexpr array (CANN's generated tiling headers make a
// constexpr tiling struct of the host's tiling bytes with it; the asc-devkit AOT example makes its compile-time tiling
// holders so). T must be trivially copyable; reading past the end of a constexpr array is not a constant expression.
template <typename T>
constexpr T convert_from_bytes(const uint8_t* bytes) {
    static_assert(std::is_trivially_copyable<T>::value, "convert_from_bytes<T>: T must be trivially copyable");
    struct Bytes { uint8_t b[sizeof(T)]; } raw{};
    for (size_t i = 0; i < sizeof(T); ++i) raw.b[i] = bytes[i];
    return __builtin_bit_cast(T, raw);
}
