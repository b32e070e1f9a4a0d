// AscendCraft: CANN's lib/pad/broadcast_tiling.h (host side: GetBroadCastMaxMinTmpSize).
#pragma once

#include "ascendcraft_emu/broadcast_tiling.h"
