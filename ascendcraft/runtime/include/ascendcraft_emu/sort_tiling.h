// AscendCraft: the host side of the sorting advanced APIs, as tiling/tiling_api.h gives them: GetConcatTmpSize and
// GetSortTmpSize (the scratch of Concat and of Sort<T, isFullSort>) and GetSortMaxMinTmpSize (the SortConfig forms).
// The emulated platform is Ascend 910B (dav-2201). Written from the public API reference; no vendor code.
#pragma once

#include <cstdint>
#include <cstdio>

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascendcraft_emu/sort_config.h"

namespace AscendC {
namespace sort_tiling_detail {
inline bool check(const char* fn, uint32_t elemCount, uint32_t dataTypeSize) {
    if (elemCount == 0) { std::fprintf(stderr, "[ERROR] [Sort][%s] The elemCount must be greater than 0.\n", fn); return false; }
    if (dataTypeSize != 2 && dataTypeSize != 4) {
        std::fprintf(stderr, "[ERROR] [Sort][%s] Type size %u is unsupported!\n", fn, dataTypeSize);
        return false;
    }
    return true;
}
}  // namespace sort_tiling_detail
// A2 concatenates in place (Concat needs no scratch).
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    (void)ascendcPlatform;
    sort_tiling_detail::check("GetConcatTmpSize", elemCount, dataTypeSize);
    return 0;
}
// A2's Sort<T, isFullSort> scratch: one 8-byte pair per element (2 floats or 4 halves of T each).
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    (void)ascendcPlatform;
    sort_tiling_detail::check("GetSortTmpSize", elemCount, dataTypeSize);
    return elemCount * (dataTypeSize == 4 ? 2u : 4u) * dataTypeSize;
}
// The SortConfig forms of Sort exist only on Ascend 950. On an A2 platform the official query logs an error and
// returns at once, writing neither maxValue nor minValue; so does this one (the caller's values stay as they were).
inline void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType,
                                 bool isReuseSource, const SortConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape; (void)valueType; (void)indexType; (void)isReuseSource; (void)config; (void)maxValue; (void)minValue;
    std::fprintf(stderr, "[ERROR] GetSortMaxMinTmpSize: unsupported NpuArch for the SortConfig Sort API (Ascend 950 "
                         "only); the emulated platform is Ascend 910B (dav-2201), maxValue and minValue are left unset\n");
}
}  // namespace AscendC
