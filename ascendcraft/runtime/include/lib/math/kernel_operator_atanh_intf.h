// AscendCraft: CANN's lib/math/kernel_operator_atanh_intf.h. The emulated advanced math APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
