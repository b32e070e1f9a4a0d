// AscendCraft: ConfusionTransposeTiling, the tiling of the ConfusionTranspose / Transpose(TransposeType) advanced API:
// eighteen uint32_t fields param0..param17 whose meaning depends on the TransposeType, one layout for the host's
// optiling:: and the kernel's AscendC::tiling::, with the set_/get_ accessors of TILING_DATA_FIELD_DEF. Field names and
// order from the public AscendC API reference; no vendor code. Kept free of the kernel headers, so that an op's
// tiling header can embed it (TILING_DATA_FIELD_DEF_STRUCT) on the host side too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace AscendC { namespace tiling {
struct ConfusionTransposeTiling {
#define ASCENDCRAFT_EMU_CT_FIELD(n)                                  \
    uint32_t param##n = 0;                                           \
    void set_param##n(uint32_t value) { param##n = value; }          \
    uint32_t get_param##n() const { return param##n; }
    ASCENDCRAFT_EMU_CT_FIELD(0) ASCENDCRAFT_EMU_CT_FIELD(1) ASCENDCRAFT_EMU_CT_FIELD(2) ASCENDCRAFT_EMU_CT_FIELD(3)
    ASCENDCRAFT_EMU_CT_FIELD(4) ASCENDCRAFT_EMU_CT_FIELD(5) ASCENDCRAFT_EMU_CT_FIELD(6) ASCENDCRAFT_EMU_CT_FIELD(7)
    ASCENDCRAFT_EMU_CT_FIELD(8) ASCENDCRAFT_EMU_CT_FIELD(9) ASCENDCRAFT_EMU_CT_FIELD(10) ASCENDCRAFT_EMU_CT_FIELD(11)
    ASCENDCRAFT_EMU_CT_FIELD(12) ASCENDCRAFT_EMU_CT_FIELD(13) ASCENDCRAFT_EMU_CT_FIELD(14) ASCENDCRAFT_EMU_CT_FIELD(15)
    ASCENDCRAFT_EMU_CT_FIELD(16) ASCENDCRAFT_EMU_CT_FIELD(17)
#undef ASCENDCRAFT_EMU_CT_FIELD
    size_t GetDataSize() const { return sizeof(*this); }
    void SaveToBuffer(void* dst, size_t capacity) const {
        std::memcpy(dst, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);
    }
};
}}  // namespace AscendC::tiling

// As CANN has it: the kernel sees the struct at global scope, the host in optiling.
using AscendC::tiling::ConfusionTransposeTiling;
namespace optiling { using AscendC::tiling::ConfusionTransposeTiling; }
