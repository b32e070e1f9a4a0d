// AscendCraft host side: platform/platform_ascendc.h, as newer op hosts name tiling/platform/platform_ascendc.h.
#pragma once
#include "tiling/platform/platform_ascendc.h"
