// AscendCraft CPU emulation: TransData, the advanced API that converts 16-bit data between NCDHW and NDC1HWC0 or
// FRACTAL_Z_3D (C split into C1 x C0 and N into N1 x N0, C0 = N0 = 16). Written from the public AscendC API reference;
// no vendor code.
//
// The NCDHW side (source or destination) keeps each (n, c, d) row's H x W elements padded to a multiple of 16 (32
// bytes): as a source the padding is not read, as a destination it is left as it was (the reference calls it invalid
// data). The NDC1HWC0 / FRACTAL_Z_3D side is dense (H x W not padded); when writing it, the C (and N) positions past c
// (and n) are 0. Only the NCDHW layout's shape (n, c, d, h, w) is read, as by the reference.
#pragma once

#include "coord.h"
#include "tensor.h"

namespace AscendC {
template <typename T, typename U> struct TransDataParams {
    T srcLayout;
    U dstLayout;
};
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif
}  // namespace AscendC

namespace ascendcraft { namespace emu {
// mode: 1 NCDHW -> FRACTAL_Z_3D, 2 FRACTAL_Z_3D -> NCDHW, 3 NCDHW -> NDC1HWC0, 4 NDC1HWC0 -> NCDHW, 0 any other pair
void adv_transdata(int mode, const Local& dst, const Local& src, const Local* tmp, const int64_t ncdhw[5], SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
namespace transdata_detail {
template <typename L> struct IsLayout : std::false_type {};
template <typename Sh, typename St> struct IsLayout<Layout<Sh, St>> : std::true_type {};
template <typename L> constexpr size_t modes() { return Std::tuple_size<std::decay_t<decltype(std::declval<L>().GetShape())>>::value; }
constexpr int mode_of(DataFormat s, DataFormat d) {
    return s == DataFormat::NCDHW && d == DataFormat::FRACTAL_Z_3D ? 1
         : s == DataFormat::FRACTAL_Z_3D && d == DataFormat::NCDHW ? 2
         : s == DataFormat::NCDHW && d == DataFormat::NDC1HWC0 ? 3
         : s == DataFormat::NDC1HWC0 && d == DataFormat::NCDHW ? 4 : 0;
}
template <const TransDataConfig& config, typename T, typename U, typename S>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendcraft::emu::Local* tmp,
                const TransDataParams<U, S>& params, SrcLoc loc) {
    static_assert(ascendcraft::emu::OneOf<T, half, bfloat16_t, uint16_t, int16_t>::value,
                  "TransData supports half, bfloat16_t, uint16_t and int16_t only");
    static_assert(IsLayout<U>::value && IsLayout<S>::value, "TransData: srcLayout and dstLayout must be Layouts (MakeLayout)");
    constexpr int mode = mode_of(config.srcFormat, config.dstFormat);
    constexpr size_t sm = modes<U>(), dm = modes<S>();
    static_assert(mode != 1 || (sm == 5 && dm == 7), "TransData NCDHW -> FRACTAL_Z_3D: srcLayout has 5 modes, dstLayout 7");
    static_assert(mode != 2 || (sm == 7 && dm == 5), "TransData FRACTAL_Z_3D -> NCDHW: srcLayout has 7 modes, dstLayout 5");
    static_assert(mode != 3 || (sm == 5 && dm == 6), "TransData NCDHW -> NDC1HWC0: srcLayout has 5 modes, dstLayout 6");
    static_assert(mode != 4 || (sm == 6 && dm == 5), "TransData NDC1HWC0 -> NCDHW: srcLayout has 6 modes, dstLayout 5");
    int64_t ncdhw[5] = {0, 0, 0, 0, 0};
    if constexpr (mode == 1 || mode == 3) {
        const auto& s = params.srcLayout.GetShape();
        ncdhw[0] = Std::get<0>(s); ncdhw[1] = Std::get<1>(s); ncdhw[2] = Std::get<2>(s); ncdhw[3] = Std::get<3>(s); ncdhw[4] = Std::get<4>(s);
    } else if constexpr (mode == 2 || mode == 4) {
        const auto& s = params.dstLayout.GetShape();
        ncdhw[0] = Std::get<0>(s); ncdhw[1] = Std::get<1>(s); ncdhw[2] = Std::get<2>(s); ncdhw[3] = Std::get<3>(s); ncdhw[4] = Std::get<4>(s);
    }
    ascendcraft::emu::adv_transdata(mode, dst.emu(), src.emu(), tmp, ncdhw, loc);
}
}  // namespace transdata_detail

template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransDataParams<U, S>& params, SrcLoc loc = {}) {
    const ascendcraft::emu::Local t = sharedTmpBuffer.emu();
    transdata_detail::run<config>(dstTensor, srcTensor, &t, params, loc);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const TransDataParams<U, S>& params,
                      SrcLoc loc = {}) {
    transdata_detail::run<config>(dstTensor, srcTensor, nullptr, params, loc);
}
}  // namespace AscendC
