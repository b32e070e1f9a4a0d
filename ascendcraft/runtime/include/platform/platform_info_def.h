// AscendCraft host side: CANN's platform/platform_info_def.h, as platform/platform_info.h brings it in. Only what
// op hosts rely on from it: the SDK header declares std's map, vector and string at global scope, so a source that
// includes platform/platform_info.h names them unqualified (hicann ops-nn conv_platform_util.cpp's `const string&`).
// Of the platform structs it also declares, the fields op hosts read from fe::PlatformInfoManager's answer
// (platform/platform_info.h): ops-transformer grouped_matmul's InferShape reads OptionalInfo's soc_version; graph
// passes read str_info.short_soc_version and soc_info's core counts. No vendor code.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

using std::map;
using std::string;
using std::vector;

namespace fe {
struct StrInfo {
    std::string short_soc_version;   // the SoC family ("Ascend910B")
};
struct SoCInfo {
    uint32_t ai_core_cnt = 0;        // cube cores
    uint32_t vector_core_cnt = 0;
};
struct PlatformInfo {
    StrInfo str_info;
    SoCInfo soc_info;
};
struct OptionalInfo {
    std::string soc_version;         // the SoC ("Ascend910B1")
    std::string core_type;
    uint32_t ai_core_num = 0;
    std::string l1_fusion_flag;
};
}  // namespace fe
