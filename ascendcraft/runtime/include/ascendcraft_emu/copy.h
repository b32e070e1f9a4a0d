// AscendCraft CPU emulation: DataCopy and DataCopyPad.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
void set_pad_value(uint64_t bits, SrcLoc loc);  // emu_copy.cpp
bool pad_value_written();                        // emu_copy.cpp: SetPadValue / set_mov_pad_val was called
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace copy_detail {
template <typename T> struct Copyable {
    static constexpr bool value = ascendcraft::emu::OneOf<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t,
                                                          uint64_t, half, bfloat16_t, float, double, bool, ::int4b_t>::value;
};
// int4b_t data moves as bytes: on A2 a count (and a burst's blockLen) of it counts bytes, two elements each, as
// sizeof(int4b_t) = 1 makes the official count rule read it; tensor offsets count 4-bit elements (tensor.h)
template <typename T> constexpr ascendcraft::emu::Dt dt() {
    return std::is_same<T, ::int4b_t>::value ? ascendcraft::emu::Dt::u8 : ascendcraft::emu::dt_of<T>();
}
inline ascendcraft::emu::CopyShape count_shape(uint64_t count) {
    ascendcraft::emu::CopyShape s; s.countForm = true; s.count = count; return s;
}
inline ascendcraft::emu::CopyShape burst_shape(uint32_t count, uint32_t len, uint32_t srcStride, uint32_t dstStride) {
    ascendcraft::emu::CopyShape s; s.countForm = false; s.blockCount = count; s.blockLen = len; s.srcStride = srcStride; s.dstStride = dstStride;
    return s;
}
template <typename T> inline uint64_t bits_of(const T& value) {
    uint64_t bits = 0; std::memcpy(&bits, &value, sizeof(T) < 8 ? sizeof(T) : 8); return bits;
}
}  // namespace copy_detail

#define ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T)                                                                       \
    static_assert(copy_detail::Copyable<T>::value,                                                           \
                  "DataCopy on Ascend 910B (A2) supports int8/uint8/int16/uint16/int32/uint32/int64/uint64, half, " \
                  "bfloat16_t, float, double, bool and int4b_t")

// ---- DataCopy: GM -> UB, UB -> GM, UB -> UB; count*sizeof(T) must be a multiple of 32 bytes ----
template <typename T> inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy(copy_detail::dt<T>(), &dst.emu(), nullptr, src.address_, copy_detail::count_shape(count), loc);
}
template <typename T> inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy(copy_detail::dt<T>(), nullptr, &src.emu(), dst.address_, copy_detail::count_shape(count), loc);
}
template <typename T> inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy(copy_detail::dt<T>(), &dst.emu(), &src.emu(), nullptr, copy_detail::count_shape(count), loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy(copy_detail::dt<T>(), &dst.emu(), nullptr, src.address_,
                                copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride), loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy(copy_detail::dt<T>(), nullptr, &src.emu(), dst.address_,
                                copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride), loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy(copy_detail::dt<T>(), &dst.emu(), &src.emu(), nullptr,
                                copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride), loc);
}

// ---- DataCopyPad: byte-granular bursts, padded in UB to 32 bytes --------------------------------
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::PadSpec spec;
    spec.isPad = pad.isPad; spec.left = pad.leftPadding; spec.right = pad.rightPadding;
    spec.valueBits = copy_detail::bits_of(pad.paddingValue);
    ascendcraft::emu::data_copy_pad(copy_detail::dt<T>(), &dst.emu(), nullptr, src.address_,
                                    copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride), spec, loc);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::data_copy_pad(copy_detail::dt<T>(), nullptr, &src.emu(), dst.address_,
                                    copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride),
                                    ascendcraft::emu::PadSpec(), loc);
}
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, const DataCopyPadParams& pad,
                        SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::PadSpec spec;
    spec.isPad = pad.isPad; spec.left = pad.leftPadding; spec.right = pad.rightPadding; spec.valueBits = pad.paddingValue;
    spec.legacy = true;
    ascendcraft::emu::data_copy_pad(copy_detail::dt<T>(), &dst.emu(), nullptr, src.address_,
                                    copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride), spec, loc);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::PadSpec spec;
    spec.legacy = true;
    ascendcraft::emu::data_copy_pad(copy_detail::dt<T>(), nullptr, &src.emu(), dst.address_,
                                    copy_detail::burst_shape(p.blockCount, p.blockLen, p.srcStride, p.dstStride), spec, loc);
}

// SetPadValue: the value a later DataCopyPad GM -> UB with isPad = false writes into its padding (per core).
template <typename T, TPosition pos = TPosition::MAX> inline void SetPadValue(T paddingValue, SrcLoc loc = {}) {
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                  "SetPadValue: the destination is TPosition::VECIN, VECOUT or MAX (either)");
    ASCENDCRAFT_EMU_COPY_TYPE_CHECK(T);
    ascendcraft::emu::set_pad_value(copy_detail::bits_of(paddingValue), loc);
}

#undef ASCENDCRAFT_EMU_COPY_TYPE_CHECK
}  // namespace AscendC
