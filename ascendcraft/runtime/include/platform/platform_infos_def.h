// AscendCraft host side: CANN's platform/platform_infos_def.h (the fe::PlatFormInfos class and fe::LocalMemType), as
// shared tiling code includes it (cann-ops op_tiling/op_tiling.h, cube_tiling_runtime.h). The emulated platform
// queries are the ones of platform/platform_info.h. No vendor code.
#pragma once

#include "platform/platform_info.h"
