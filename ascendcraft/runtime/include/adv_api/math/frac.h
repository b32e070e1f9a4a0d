// AscendCraft: CANN's adv_api/math/frac.h. The emulated advanced math APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
