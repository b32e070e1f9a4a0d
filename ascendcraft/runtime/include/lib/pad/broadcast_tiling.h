// AscendCraft: CANN's lib/pad/broadcast_tiling.h (host side: GetBroadCastMaxMinTmpSize).
#pragma once

#include "ascendcraft_emu/pad_tiling.h"
