// AscendCraft: TopK's tiling struct (TopkTiling), one layout for the host's optiling:: and the kernel's AscendC::tiling::,
// with TILING_DATA_FIELD_DEF's set_ / get_ accessors. Field names, types and order from the public AscendC API
// reference; no vendor code. The emulation reads none of the fields (TopKInfo carries the shape).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace AscendC { namespace tiling {
#define ASCENDCRAFT_EMU_TF(type, field)             \
    type field = type();                            \
    void set_##field(type value) { field = value; } \
    type get_##field() const { return field; }
struct TopkTiling {
    ASCENDCRAFT_EMU_TF(int32_t, tmpLocalSize) ASCENDCRAFT_EMU_TF(int32_t, allDataSize) ASCENDCRAFT_EMU_TF(int32_t, innerDataSize)
    ASCENDCRAFT_EMU_TF(uint32_t, sortRepeat) ASCENDCRAFT_EMU_TF(int32_t, mrgSortRepeat) ASCENDCRAFT_EMU_TF(int32_t, kAlignFourBytes)
    ASCENDCRAFT_EMU_TF(int32_t, kAlignTwoBytes) ASCENDCRAFT_EMU_TF(int32_t, maskOffset)
    ASCENDCRAFT_EMU_TF(int32_t, maskVreducev2FourBytes) ASCENDCRAFT_EMU_TF(int32_t, maskVreducev2TwoBytes)
    ASCENDCRAFT_EMU_TF(int32_t, mrgSortSrc1offset) ASCENDCRAFT_EMU_TF(int32_t, mrgSortSrc2offset)
    ASCENDCRAFT_EMU_TF(int32_t, mrgSortSrc3offset) ASCENDCRAFT_EMU_TF(int32_t, mrgSortTwoQueueSrc1Offset)
    ASCENDCRAFT_EMU_TF(int32_t, mrgFourQueueTailPara1) ASCENDCRAFT_EMU_TF(int32_t, mrgFourQueueTailPara2)
    ASCENDCRAFT_EMU_TF(int32_t, srcIndexOffset) ASCENDCRAFT_EMU_TF(uint32_t, copyUbToUbBlockCount)
    ASCENDCRAFT_EMU_TF(int32_t, topkMrgSrc1MaskSizeOffset) ASCENDCRAFT_EMU_TF(int32_t, topkNSmallSrcIndexOffset)
    ASCENDCRAFT_EMU_TF(uint32_t, vreduceValMask0) ASCENDCRAFT_EMU_TF(uint32_t, vreduceValMask1)
    ASCENDCRAFT_EMU_TF(uint32_t, vreduceIdxMask0) ASCENDCRAFT_EMU_TF(uint32_t, vreduceIdxMask1)
    ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask0) ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask1)
    ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask2) ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask3)
    ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask4) ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask5)
    ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask6) ASCENDCRAFT_EMU_TF(uint16_t, vreducehalfValMask7)
    size_t GetDataSize() const { return sizeof(*this); }
    void SaveToBuffer(void* dst, size_t capacity) const { std::memcpy(dst, this, sizeof(*this) < capacity ? sizeof(*this) : capacity); }
};
#undef ASCENDCRAFT_EMU_TF
}}  // namespace AscendC::tiling
using AscendC::tiling::TopkTiling;
namespace optiling { using AscendC::tiling::TopkTiling; }
namespace AscendC {
#ifndef ASCENDCRAFT_TOPK_ENUMS
#define ASCENDCRAFT_TOPK_ENUMS
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
#endif
}  // namespace AscendC
