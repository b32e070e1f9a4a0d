// The SelectWithBytesMask advanced API of Ascend 910B (A2), also spelled Select(..., SelectWithBytesMaskShapeInfo):
// dst = mask == 0 ? first source : second source, element by element, where one source is a tensor and the other a
// scalar and the mask holds one value per element (not bits). Rows: info.firstAxis; a source row has srcLastAxis
// elements, a mask row maskLastAxis >= srcLastAxis (the rest of a mask row is ignored). Like the API on the NPU it
// needs a sharedTmpBuffer of at least 1 KB (overwritten), writes Select's scalar scratch at the top of UB, and with
// isReuseMask (the default) packs the mask rows in place when maskLastAxis != srcLastAxis. Written from the public
// AscendC documentation; no vendor code.
#pragma once

#include "tensor.h"

namespace ascendcraft { namespace emu {
void vec_select_bytes(Dt dt, Dt maskDt, const Local& d, const Local& src, Scalar scalar, const Local& mask, const Local& tmp,
                      uint32_t rows, uint32_t srcLast, uint32_t maskLast, bool scalarOnNonzero, bool reuseMask, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

namespace select_bytes_detail {
template <typename T, typename U>
inline void check(SrcLoc loc) {
    if (!ascendcraft::emu::OneOf<T, half, float>::value)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::SelectWithBytesMask, ascendcraft::emu::dt_of<T>(),
                                           "half and float sources", loc);
    if (!ascendcraft::emu::OneOf<U, bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>::value)
        ascendcraft::emu::unsupported_type(ascendcraft::emu::Op::SelectWithBytesMask, ascendcraft::emu::dt_of<U>(),
                                           "a bool, int8_t, uint8_t, int16_t, uint16_t, int32_t or uint32_t mask", loc);
}
}  // namespace select_bytes_detail

// mask 0: the tensor's element; otherwise the scalar.
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info, SrcLoc loc = {}) {
    select_bytes_detail::check<T, U>(loc);
    ascendcraft::emu::vec_select_bytes(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src0.emu(),
                                       ascendcraft::emu::scalar_of(src1), mask.emu(), sharedTmpBuffer.emu(), info.firstAxis,
                                       info.srcLastAxis, info.maskLastAxis, true, isReuseMask, loc);
}
// mask 0: the scalar; otherwise the tensor's element.
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info, SrcLoc loc = {}) {
    select_bytes_detail::check<T, U>(loc);
    ascendcraft::emu::vec_select_bytes(ascendcraft::emu::dt_of<T>(), ascendcraft::emu::dt_of<U>(), dst.emu(), src1.emu(),
                                       ascendcraft::emu::scalar_of(src0), mask.emu(), sharedTmpBuffer.emu(), info.firstAxis,
                                       info.srcLastAxis, info.maskLastAxis, false, isReuseMask, loc);
}
// The current devkit's name for the same API.
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info, SrcLoc loc = {}) {
    SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info, SrcLoc loc = {}) {
    SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}

}  // namespace AscendC
