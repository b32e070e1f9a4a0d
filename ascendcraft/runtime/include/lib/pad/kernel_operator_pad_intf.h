// AscendCraft: CANN's lib/pad/kernel_operator_pad_intf.h (Pad, UnPad). The emulated APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
