// AscendCraft: CANN's lib/activation/softmaxflashv3.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
