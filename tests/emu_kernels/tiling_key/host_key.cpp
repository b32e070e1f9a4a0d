/* Host tiling for keyed.cpp: picks the key from args[0] the way a TilingFunc calls SetTilingKey. */
#include <cstdint>

extern "C" void ascendcraft_set_tiling_key(uint64_t key);

extern "C" int ascendcraft_tiling(const int64_t* args, int nargs, void* tiling, uint64_t capacity, uint32_t* blockDim,
                                  uint64_t* workspaceBytes)
{
    (void)tiling;
    (void)capacity;
    if (nargs < 2) return 1;
    ascendcraft_set_tiling_key(static_cast<uint64_t>(args[0]));
    *blockDim = static_cast<uint32_t>(args[1]);
    *workspaceBytes = 0;
    return 0;
}
