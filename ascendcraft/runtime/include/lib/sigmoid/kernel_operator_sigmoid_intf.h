// AscendCraft: CANN's lib/sigmoid/kernel_operator_sigmoid_intf.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
