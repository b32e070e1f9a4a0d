// AscendCraft: CANN's adv_api/pad/pad_tiling.h (host side: GetPadMaxMinTmpSize, PadTilingFunc, GetUnPadMaxMinTmpSize, UnPadTilingFunc).
#pragma once

#include "ascendcraft_emu/pad_tiling.h"
