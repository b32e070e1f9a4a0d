// AscendCraft: CANN's platform/platform_info.h, as op hosts include it (the fe::PlatFormInfos the tiling context
// hands out). The emulated platform queries are in tiling/platform/platform_ascendc.h. No vendor code.
#pragma once

#include "platform/platform_info_def.h"
#include "tiling/platform/platform_ascendc.h"

namespace fe {
// CANN's platform-info manager, as op hosts ask it for the chip outside a tiling context (ops-transformer grouped_matmul's
// InferShape tells a 310P from an A2 by OptionalInfo's soc_version). The answer is the emulated chip's, the names and
// core counts gert::PlatformInfoHandle gives (GetPlatformRes); 0 is success. Stateless: Instance() keeps nothing.
class PlatformInfoManager {
public:
    static PlatformInfoManager& Instance() { static PlatformInfoManager manager; return manager; }
    uint32_t GetPlatformInfoWithOutSocVersion(PlatformInfo& platform, OptionalInfo& optional) const {
        const gert::PlatformInfoHandle chip;
        chip.GetPlatformRes("version", "Short_SoC_version", platform.str_info.short_soc_version);
        chip.GetPlatformRes("version", "SoC_version", optional.soc_version);
        platform.soc_info.ai_core_cnt = chip.aic;
        platform.soc_info.vector_core_cnt = chip.aiv;
        optional.core_type = "AiCore";
        optional.ai_core_num = chip.aic;
        return 0;
    }
};
}  // namespace fe
