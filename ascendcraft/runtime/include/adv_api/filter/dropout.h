// AscendCraft: CANN's adv_api/filter/dropout.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
