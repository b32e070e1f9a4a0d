// AscendCraft: CANN's adv_api/select/selectwithbytesmask_tiling.h (host side: GetSelectMaxMinTmpSize).
#pragma once

#include "ascendcraft_emu/select_tiling.h"
