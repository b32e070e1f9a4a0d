// AscendCraft host side: aclnn/opdev/platform.h, the platform query of CANN's op API layer (op::GetCurrentPlatformInfo),
// as an op's host tiling source may include it (hicann ops-math coalesce_sparse). The emulated platform is one A2
// chip: SocVersion ASCEND910B, NpuArch DAV_2201 (tiling/platform/platform_ascendc.h says the same). Written from the
// public API description; only the queries whose A2 answer is fixed are here (the core counts come from the run's chip
// profile through the tiling context's PlatformAscendC, not from this global).
#pragma once

#include <cstdint>
#include <string>

#include "tiling/platform/platform_ascendc.h"

namespace op {

enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND950, ASCEND350, ASCEND910E, ASCEND310, ASCEND310P, ASCEND310B,
    ASCEND310C, ASCEND610LITE, KIRINX90, KIRIN9030, RESERVED_VERSION = 99999
};

class PlatformInfo {
public:
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    const std::string& GetSocLongVersion() const {
        static const std::string version = "Ascend910B1";   // as the tiling context's GetPlatformRes("version", "SoC_version")
        return version;
    }
    int32_t GetDeviceId() const { return 0; }
    bool Valid() const { return true; }
    NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }
};

inline const PlatformInfo& GetCurrentPlatformInfo() {
    static const PlatformInfo info;
    return info;
}

}  // namespace op
