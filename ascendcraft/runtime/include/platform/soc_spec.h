// AscendCraft host side: platform/soc_spec.h of the CANN SDK (the SoC queries are those of tiling/platform/platform_ascendc.h).
#pragma once
#include "tiling/platform/platform_ascendc.h"
