// AscendCraft: CANN's tiling/broadcast/broadcast_tiling.h (host side: GetBroadCastMaxMinTmpSize).
#pragma once

#include "ascendcraft_emu/broadcast_tiling.h"
