// The devkit's implementation functions that public kernels call directly on raw pointers (__ubuf__ T* into the
// Unified Buffer, __gm__ T* into global memory), usually copied from the devkit's own helpers: DuplicateImpl and the
// DataCopy*Impl family. Each is the documented API on a view of the pointer: the UB view reaches from the pointer to
// the end of this core's UB (the emulator checks the pointer lies there), the GM view is the pointer itself.
// Written from the public AscendC documentation and how kernels call these functions; no vendor code.
#pragma once

#include "copy.h"
#include "tensor.h"
#include "reduce.h"
#include "vector.h"

namespace ascendcraft { namespace emu {
// A LocalTensor's view of a raw UB pointer: from p to the end of this core's UB. An error names `api` when p is not
// inside this core's UB.
Local ub_raw_view(const void* p, const char* api, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace devkit_detail {
template <typename T> inline LocalTensor<T> ub(T* p, const char* api, SrcLoc loc) {
    return LocalTensor<T>(ascendcraft::emu::ub_raw_view(p, api, loc));
}
template <typename T> inline GlobalTensor<T> gm(T* p) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(p);
    return g;
}
}  // namespace devkit_detail

// Duplicate on a raw UB pointer: the count form and the two mask forms.
template <typename T> inline void DuplicateImpl(T* dstLocal, const T& scalarValue, const int32_t& count, SrcLoc loc = {}) {
    Duplicate(devkit_detail::ub(dstLocal, "DuplicateImpl", loc), scalarValue, count, loc);
}
template <typename T, bool isSetMask = true>
inline void DuplicateImpl(T* dstLocal, const T& scalarValue, uint64_t mask, const uint8_t repeatTime, const uint16_t dstBlockStride,
                          const uint8_t dstRepeatStride, SrcLoc loc = {}) {
    Duplicate<T, isSetMask>(devkit_detail::ub(dstLocal, "DuplicateImpl", loc), scalarValue, mask, repeatTime, dstBlockStride,
                            dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
inline void DuplicateImpl(T* dstLocal, const T& scalarValue, uint64_t mask[], const uint8_t repeatTime, const uint16_t dstBlockStride,
                          const uint8_t dstRepeatStride, SrcLoc loc = {}) {
    Duplicate<T, isSetMask>(devkit_detail::ub(dstLocal, "DuplicateImpl", loc), scalarValue, mask, repeatTime, dstBlockStride,
                            dstRepeatStride, loc);
}

// The *IntrinsicsImpl functions under those: the instruction alone on raw UB pointers, with the vector mask as the kernel
// set it (normal or counter mode), i.e. the API with isSetMask = false, whose mask argument (0 here) is not read.
// hicann ops-transformer's MoE gating kernels reduce rows in counter mode with BlockReduceMax / BlockReduceSum-
// IntrinsicsImpl; its mc2 kernels pad with DuplicateIntrinsicsImpl.
template <typename T>
inline void DuplicateIntrinsicsImpl(T* dstLocal, T scalarValue, const uint8_t repeatTime, const uint16_t dstBlockStride,
                                    const uint8_t dstRepeatStride, SrcLoc loc = {}) {
    Duplicate<T, false>(devkit_detail::ub(dstLocal, "DuplicateIntrinsicsImpl", loc), scalarValue, uint64_t{0}, repeatTime,
                        dstBlockStride, dstRepeatStride, loc);
}
#define ASCENDCRAFT_EMU_BLOCK_INTRINSIC(API)                                                                             \
    template <typename T>                                                                                            \
    inline void API##IntrinsicsImpl(T* dstLocal, T* srcLocal, const int32_t repeatTime, const int32_t dstRepStride,  \
                                    const int32_t srcBlkStride, const int32_t srcRepStride, SrcLoc loc = {}) {        \
        API<T, false>(devkit_detail::ub(dstLocal, #API "IntrinsicsImpl", loc),                                       \
                      devkit_detail::ub(srcLocal, #API "IntrinsicsImpl", loc), repeatTime, int32_t{0}, dstRepStride,   \
                      srcBlkStride, srcRepStride, loc);                                                              \
    }
ASCENDCRAFT_EMU_BLOCK_INTRINSIC(BlockReduceSum)
ASCENDCRAFT_EMU_BLOCK_INTRINSIC(BlockReduceMax)
ASCENDCRAFT_EMU_BLOCK_INTRINSIC(BlockReduceMin)
#undef ASCENDCRAFT_EMU_BLOCK_INTRINSIC

// DataCopy between raw pointers: GM -> UB, UB -> GM and UB -> UB, in 32-byte blocks as DataCopyParams gives them.
template <typename T> inline void DataCopyGM2UBImpl(T* dst, T* src, const DataCopyParams& intriParams, SrcLoc loc = {}) {
    DataCopy(devkit_detail::ub(dst, "DataCopyGM2UBImpl", loc), devkit_detail::gm(src), intriParams, loc);
}
template <typename T> inline void DataCopyUB2GMImpl(T* dst, T* src, const DataCopyParams& intriParams, SrcLoc loc = {}) {
    DataCopy(devkit_detail::gm(dst), devkit_detail::ub(src, "DataCopyUB2GMImpl", loc), intriParams, loc);
}
template <typename T> inline void DataCopyUB2UBImpl(T* dst, T* src, const DataCopyParams& intriParams, SrcLoc loc = {}) {
    DataCopy(devkit_detail::ub(dst, "DataCopyUB2UBImpl", loc), devkit_detail::ub(src, "DataCopyUB2UBImpl", loc), intriParams, loc);
}
// DataCopyPad between raw pointers (byte-exact lengths; the GM -> UB forms pad each row to 32 bytes).
template <typename T>
inline void DataCopyPadGm2UBImpl(T* dst, T* src, const DataCopyParams& intriParams, const DataCopyPadParams& padParams, SrcLoc loc = {}) {
    DataCopyPad(devkit_detail::ub(dst, "DataCopyPadGm2UBImpl", loc), devkit_detail::gm(src), intriParams, padParams, loc);
}
template <typename T>
inline void DataCopyPadGm2UBImpl(T* dst, T* src, const DataCopyExtParams& intriParams, const DataCopyPadExtParams<T>& padParams,
                                 SrcLoc loc = {}) {
    DataCopyPad(devkit_detail::ub(dst, "DataCopyPadGm2UBImpl", loc), devkit_detail::gm(src), intriParams, padParams, loc);
}
template <typename T> inline void DataCopyPadUB2GMImpl(T* dst, T* src, const DataCopyParams& intriParams, SrcLoc loc = {}) {
    DataCopyPad(devkit_detail::gm(dst), devkit_detail::ub(src, "DataCopyPadUB2GMImpl", loc), intriParams, loc);
}
template <typename T> inline void DataCopyPadUB2GMImpl(T* dst, T* src, const DataCopyExtParams& intriParams, SrcLoc loc = {}) {
    DataCopyPad(devkit_detail::gm(dst), devkit_detail::ub(src, "DataCopyPadUB2GMImpl", loc), intriParams, loc);
}

}  // namespace AscendC
