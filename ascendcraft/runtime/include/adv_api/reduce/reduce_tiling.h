// AscendCraft: CANN's adv_api/reduce/reduce_tiling.h (host side: GetReduce<Op>MaxMinTmpSize).
#pragma once

#include "ascendcraft_emu/reduce_pattern_tiling.h"
