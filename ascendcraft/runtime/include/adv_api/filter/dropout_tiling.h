// AscendCraft: CANN's adv_api/filter/dropout_tiling.h (host side: GetDropOutMaxMinTmpSize and its parts).
#pragma once

#include "ascendcraft_emu/math_tiling.h"
