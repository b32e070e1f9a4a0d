// AscendCraft host side: CANN's platform/platform_infos_def.h (the fe::PlatFormInfos class and fe::LocalMemType), as
// shared tiling code includes it (cann-ops op_tiling/op_tiling.h, cube_tiling_runtime.h). The emulated platform
// queries are the ones of platform/platform_info.h. No vendor code.
#pragma once

// by angle brackets: the SDK's own header, never a project's file of the same relative name on the quoted-include path
// (cann-ops src/common/op_host/op_tiling/cube/platform/platform_info.h, whose cube_tiling_runtime.h includes this file
// before it declares the CubeCompileInfo that file needs)
#include <platform/platform_info.h>
