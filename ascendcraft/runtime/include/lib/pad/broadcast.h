// AscendCraft: CANN's lib/pad/broadcast.h (the emulated Broadcast, Pad and UnPad come with kernel_operator.h).
#pragma once

#include "kernel_operator.h"
