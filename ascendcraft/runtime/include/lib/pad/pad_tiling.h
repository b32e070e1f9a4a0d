// AscendCraft: CANN's lib/pad/pad_tiling.h (host side: GetPadMaxMinTmpSize, PadTilingFunc, GetUnPadMaxMinTmpSize, UnPadTilingFunc).
#pragma once

#include "ascendcraft_emu/pad_tiling.h"
