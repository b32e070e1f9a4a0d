// AscendCraft CPU emulation: DataCopy with SliceInfo (GM -> UB and UB -> GM copies of a strided slice of an up to
// 8-dimensional tensor). Each dimension's SliceInfo gives the first and last index, the gap between slices (stride, in
// elements) and, for the innermost dimension, the burst length in 32-byte blocks; shapeValue gives the dimension's
// extent (when the first one is 0 the tensors' own ShapeInfo is used). As on A2, the innermost dimension becomes one
// DataCopy of blockCount bursts (a DataCopyPad with a byte gap when the stride is not a whole number of blocks), and
// the outer dimensions list the start offsets of those copies. Signatures from the public AscendC API reference.
#pragma once

#include "copy.h"

namespace AscendC {

constexpr int32_t K_MAX_DIM = 8;
constexpr uint32_t MAX_SLICE_SIZE = 6 * 256;

struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn, const uint32_t burstLenIn,
              const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn), shapeValue(shapeValueIn) {}
    uint32_t startIndex = 0;
    uint32_t endIndex = ONE_BLK_SIZE - 1;
    uint32_t stride = 0;
    uint32_t burstLen = ONE_BLK_SIZE;
    uint32_t shapeValue = 0;
};

namespace slice_detail {
template <typename Tensor> inline uint32_t own_extent(const Tensor& t, uint32_t i) { return t.GetShapeInfo().shape[i]; }
template <typename T> inline uint32_t own_extent(const GlobalTensor<T>&, uint32_t) {
    ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DataCopy,
                                       "DataCopy with SliceInfo: shapeValue is 0, so the GlobalTensor's ShapeInfo gives the "
                                       "extents, and the emulation does not keep ShapeInfo on GlobalTensors",
                                       "give each SliceInfo its dimension's extent in shapeValue", {});
}
// Element offset of the first slice, and the offsets (relative to it) of every innermost-dimension copy.
struct Plan {
    uint32_t start = 0, count = 0;
    uint32_t offsets[MAX_SLICE_SIZE];
};
template <typename Tensor>
inline void plan(const SliceInfo info[], bool useShapeValue, const Tensor& t, uint32_t dims, Plan& p, SrcLoc loc) {
    uint32_t extent[K_MAX_DIM] = {};
    for (uint32_t i = 0; i < dims; ++i) extent[i] = useShapeValue ? info[i].shapeValue : own_extent(t, i);
    uint32_t size = 1;
    p.start = info[0].startIndex;
    p.offsets[0] = 0;
    p.count = 1;
    for (uint32_t i = 1; i < dims; ++i) {
        size *= extent[i - 1];
        p.start += size * info[i].startIndex;
        const uint32_t step = 1 + info[i].stride;
        const uint32_t slices = (info[i].endIndex - info[i].startIndex + step) / step;
        const uint32_t before = p.count;
        if (static_cast<uint64_t>(before) * slices > MAX_SLICE_SIZE)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::DataCopy,
                                               "DataCopy with SliceInfo: more than MAX_SLICE_SIZE (1536) slices",
                                               "copy fewer slices per call", loc);
        for (uint32_t s = 1; s < slices; ++s)
            for (uint32_t k = 0; k < before; ++k) p.offsets[p.count++] = p.offsets[k] + s * step * size;
    }
}
}  // namespace slice_detail

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, SrcLoc loc = {}) {
    const bool useShapeValue = srcSliceInfo[0].shapeValue != 0;
    thread_local slice_detail::Plan s, d;   // 12 KiB each: off the stack (one block per thread)
    slice_detail::plan(srcSliceInfo, useShapeValue, src, dimValue, s, loc);
    slice_detail::plan(dstSliceInfo, useShapeValue, dst, dimValue, d, loc);
    const SliceInfo& in = srcSliceInfo[0];
    const uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    const uint16_t blockCount = static_cast<uint16_t>((in.endIndex - in.startIndex + 1 + in.stride) / (in.burstLen * perBlock + in.stride));
    const uint16_t dstGap = static_cast<uint16_t>(dstSliceInfo[0].stride * sizeof(T) / ONE_BLK_SIZE);
    for (uint32_t i = 0; i < s.count; ++i) {
        const LocalTensor<T> to = dst[d.start + d.offsets[i]];
        const GlobalTensor<T> from = src[s.start + s.offsets[i]];
        if (in.stride * sizeof(T) % ONE_BLK_SIZE == 0) {
            DataCopy(to, from, DataCopyParams(blockCount, static_cast<uint16_t>(in.burstLen),
                                              static_cast<uint16_t>(in.stride * sizeof(T) / ONE_BLK_SIZE), dstGap), loc);
        } else {
            DataCopyPad(to, from, DataCopyExtParams(blockCount, in.burstLen * ONE_BLK_SIZE, in.stride * sizeof(T), dstGap, 0),
                        DataCopyPadExtParams<T>(false, 0, 0, T()), loc);
        }
    }
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, SrcLoc loc = {}) {
    const bool useShapeValue = srcSliceInfo[0].shapeValue != 0;
    thread_local slice_detail::Plan s, d;
    slice_detail::plan(srcSliceInfo, useShapeValue, src, dimValue, s, loc);
    slice_detail::plan(dstSliceInfo, useShapeValue, dst, dimValue, d, loc);
    const SliceInfo& in = srcSliceInfo[0];
    const uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    const uint16_t blockCount = static_cast<uint16_t>((in.endIndex - in.startIndex + 1 + in.stride) / (in.burstLen * perBlock + in.stride));
    const uint16_t srcGap = static_cast<uint16_t>(in.stride * sizeof(T) / ONE_BLK_SIZE);
    const uint32_t outStride = dstSliceInfo[0].stride;
    for (uint32_t i = 0; i < s.count; ++i) {
        const GlobalTensor<T> to = dst[d.start + d.offsets[i]];
        const LocalTensor<T> from = src[s.start + s.offsets[i]];
        if (outStride * sizeof(T) % ONE_BLK_SIZE == 0) {
            DataCopy(to, from, DataCopyParams(blockCount, static_cast<uint16_t>(in.burstLen), srcGap,
                                              static_cast<uint16_t>(outStride * sizeof(T) / ONE_BLK_SIZE)), loc);
        } else {
            DataCopyPad(to, from, DataCopyExtParams(blockCount, in.burstLen * ONE_BLK_SIZE, srcGap, outStride * sizeof(T), 0), loc);
        }
    }
}

}  // namespace AscendC
