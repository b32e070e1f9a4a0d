// AscendCraft: CANN's lib/math/kernel_operator_asinh_intf.h. The emulated advanced math APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
