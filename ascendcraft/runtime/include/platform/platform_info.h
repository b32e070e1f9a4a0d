// AscendCraft: CANN's platform/platform_info.h, as op hosts include it (the fe::PlatFormInfos the tiling context
// hands out). The emulated platform queries are in tiling/platform/platform_ascendc.h. No vendor code.
#pragma once

#include "platform/platform_info_def.h"
#include "tiling/platform/platform_ascendc.h"
