// AscendCraft: CANN's lib/select/selectwithbytesmask_tiling.h (host side: GetSelectMaxMinTmpSize).
#pragma once

#include "ascendcraft_emu/select_tiling.h"
