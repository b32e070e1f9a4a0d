// AscendCraft: CANN's adv_api/activation/logsoftmax_tiling.h (host side: GetLogSoftMaxMax/MinTmpSize, LogSoftMaxTilingFunc).
#pragma once

#include "ascendcraft_emu/norm_tiling.h"
