// AscendCraft: CANN's adv_api/activation/softmaxflashv3.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
