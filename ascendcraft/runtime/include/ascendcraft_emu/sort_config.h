// SortType and SortConfig, which the kernel's SortConfig forms of Sort (sort.h) and the host's GetSortMaxMinTmpSize
// (sort_tiling.h) share. The host query reads all four fields, the kernel type and isDescend. No vendor code.
#pragma once

namespace AscendC {
#ifndef ASCENDCRAFT_EMU_SORT_CONFIG
#define ASCENDCRAFT_EMU_SORT_CONFIG
enum class SortType { RADIX_SORT, MERGE_SORT };
#ifndef ASCC_STRUCT_SORTCONFIG
#define ASCC_STRUCT_SORTCONFIG
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
#endif
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};
#endif
}  // namespace AscendC
