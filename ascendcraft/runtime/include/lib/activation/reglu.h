// AscendCraft: CANN's lib/activation/reglu.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
