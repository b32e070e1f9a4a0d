// AscendCraft: CANN's adv_api/quantization/ascend_quant.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
