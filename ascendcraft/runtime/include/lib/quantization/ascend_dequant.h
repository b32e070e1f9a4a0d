// AscendCraft: CANN's lib/quantization/ascend_dequant.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
