// AscendCraft: the tiling structs of the Pad / UnPad advanced APIs (lib/pad), one layout for the host's optiling:: and
// the kernel's AscendC::tiling::, with the set_/get_ accessors of TILING_DATA_FIELD_DEF. Field names and order from the
// public AscendC API reference (Pad Tiling / UnPad Tiling); no vendor code. The kernel side reads srcHeight, srcWidth
// and srcOriWidth (PadTiling) / srcHeight and srcWidth (UnPadTiling); the other fields plan the NPU's temporary buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#define ASCENDCRAFT_EMU_PF(field)                               \
    uint32_t field = 0;                                         \
    void set_##field(uint32_t value) { field = value; }         \
    uint32_t get_##field() const { return field; }
#define ASCENDCRAFT_EMU_PAD_TILING_END                                                            \
    size_t GetDataSize() const { return sizeof(*this); }                                          \
    void SaveToBuffer(void* dst, size_t capacity) const {                                         \
        std::memcpy(dst, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);              \
    }

namespace AscendC { namespace tiling {
struct UnPadTiling {
    ASCENDCRAFT_EMU_PF(srcHeight) ASCENDCRAFT_EMU_PF(srcWidth) ASCENDCRAFT_EMU_PF(tmpBuffer1BlockNum)
    ASCENDCRAFT_EMU_PF(tmpBuffer1RowNum) ASCENDCRAFT_EMU_PF(tmpBuffer2Offset) ASCENDCRAFT_EMU_PF(widthTiling)
    ASCENDCRAFT_EMU_PF(widthFractal) ASCENDCRAFT_EMU_PF(widthFractalTail)
    ASCENDCRAFT_EMU_PAD_TILING_END
};
struct PadTiling {
    ASCENDCRAFT_EMU_PF(srcHeight) ASCENDCRAFT_EMU_PF(srcWidth) ASCENDCRAFT_EMU_PF(srcOriWidth)
    ASCENDCRAFT_EMU_PF(widthWithoutLastBlock) ASCENDCRAFT_EMU_PF(blocksPerRow) ASCENDCRAFT_EMU_PF(heightTiling)
    ASCENDCRAFT_EMU_PF(heightFractal) ASCENDCRAFT_EMU_PF(heightFractalTail) ASCENDCRAFT_EMU_PF(mainLoopOffset)
    ASCENDCRAFT_EMU_PF(tailBlockOffset) ASCENDCRAFT_EMU_PF(tmpBuffer1BlockNum) ASCENDCRAFT_EMU_PF(tmpBuffer1RowNum)
    ASCENDCRAFT_EMU_PF(tmpBuffer2Offset) ASCENDCRAFT_EMU_PF(widthTiling) ASCENDCRAFT_EMU_PF(widthFractal)
    ASCENDCRAFT_EMU_PF(widthFractalTail) ASCENDCRAFT_EMU_PF(widthFractalTailAlingned) ASCENDCRAFT_EMU_PF(brcbTiling)
    ASCENDCRAFT_EMU_PF(brcbFractal) ASCENDCRAFT_EMU_PF(brcbFractalTail) ASCENDCRAFT_EMU_PF(maxRepeatTimes)
    ASCENDCRAFT_EMU_PF(brcbTilingRepeatTimes) ASCENDCRAFT_EMU_PF(brcbTilingRepeatTimesTail)
    ASCENDCRAFT_EMU_PF(brcbFractalTailRepeatTimes) ASCENDCRAFT_EMU_PF(brcbFractalTailRepeatTimesTail)
    ASCENDCRAFT_EMU_PF(reserved)
    ASCENDCRAFT_EMU_PAD_TILING_END
};
}}  // namespace AscendC::tiling
#undef ASCENDCRAFT_EMU_PF
#undef ASCENDCRAFT_EMU_PAD_TILING_END

// As CANN has them: the kernel sees the structs at global scope, the host in optiling.
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
namespace optiling {
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
}  // namespace optiling
