/* Host tiling for the CPU emulation: the same decisions as the msopgen TilingFunc, through the
 * ascendcraft_tiling ABI (args[0] = total length). */
#include <cstdint>
#include "add_custom_tiling.h"

extern "C" int ascendcraft_tiling(const int64_t* args, int nargs, void* tiling, uint64_t capacity, uint32_t* blockDim,
                                  uint64_t* workspaceBytes)
{
    if (nargs < 1 || args[0] <= 0) return 1;
    optiling::TilingData data;
    data.set_totalLength(static_cast<uint32_t>(args[0]));
    data.set_tileNum(4);
    data.SaveToBuffer(tiling, capacity);
    *blockDim = 8;
    *workspaceBytes = 1024;
    return 0;
}
