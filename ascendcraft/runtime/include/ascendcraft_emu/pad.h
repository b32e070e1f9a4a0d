// AscendCraft CPU emulation: the Pad / UnPad advanced APIs (lib/pad) on a height x width tensor in UB.
//   Pad: a width that is not 32-byte aligned: each row of `srcWidth` elements (the rows packed one after another)
//        becomes [leftPad x padValue][the row][rightPad x padValue] in a row of the width rounded up to 32 bytes;
//        an aligned width whose last columns are not data (srcOriWidth < srcWidth): the rightPad columns after
//        srcOriWidth take padValue (the right side only).
//   UnPad: an aligned width: each row loses its last rightPad columns, the rows packed one after another.
// The shape comes from the tiling struct (PadTilingFunc / UnPadTilingFunc on the host). Written from the public AscendC
// API reference (Pad, UnPad, Pad Tiling, UnPad Tiling); no vendor code.
#pragma once

#include "pad_tiling_data.h"
#include "tensor.h"

namespace ascendcraft { namespace emu {
void adv_pad(Dt dt, const Local& dst, const Local& src, const Local* tmp, uint32_t height, uint32_t width, uint32_t oriWidth,
             uint16_t leftPad, uint16_t rightPad, int32_t padValue, SrcLoc loc);
void adv_unpad(Dt dt, const Local& dst, const Local& src, const Local* tmp, uint32_t height, uint32_t width, uint16_t rightPad,
               SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
struct PadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
struct UnPadParams {
    uint16_t leftPad = 0;    // not in effect in CANN either: UnPad removes columns on the right only
    uint16_t rightPad = 0;
};

#define ASCENDCRAFT_EMU_PAD_TYPES(API)                                                                            \
    static_assert(ascendcraft::emu::OneOf<T, int16_t, uint16_t, half, int32_t, uint32_t, float>::value,          \
                  #API " on Ascend 910B (A2) supports int16_t, uint16_t, half, int32_t, uint32_t and float")
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_PAD_TYPES(Pad);
    const ascendcraft::emu::Local tmp = sharedTmpBuffer.emu();
    ascendcraft::emu::adv_pad(ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), &tmp, tiling.srcHeight,
                              tiling.srcWidth, tiling.srcOriWidth, padParams.leftPad, padParams.rightPad, padParams.padValue, loc);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams, PadTiling& tiling,
                SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_PAD_TYPES(Pad);
    ascendcraft::emu::adv_pad(ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), nullptr, tiling.srcHeight,
                              tiling.srcWidth, tiling.srcOriWidth, padParams.leftPad, padParams.rightPad, padParams.padValue, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_PAD_TYPES(UnPad);
    const ascendcraft::emu::Local tmp = sharedTmpBuffer.emu();
    ascendcraft::emu::adv_unpad(ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), &tmp, tiling.srcHeight,
                                tiling.srcWidth, unPadParams.rightPad, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  UnPadTiling& tiling, SrcLoc loc = {}) {
    ASCENDCRAFT_EMU_PAD_TYPES(UnPad);
    ascendcraft::emu::adv_unpad(ascendcraft::emu::dt_of<T>(), dstTensor.emu(), srcTensor.emu(), nullptr, tiling.srcHeight,
                                tiling.srcWidth, unPadParams.rightPad, loc);
}
#undef ASCENDCRAFT_EMU_PAD_TYPES
}  // namespace AscendC
