// AscendCraft: CANN's adv_api/math/xor_tiling.h (host side: the Get...MaxMinTmpSize / Get...TmpBufferFactorSize of the math APIs).
#pragma once

#include "ascendcraft_emu/math_tiling.h"
