// AscendCraft: CANN's lib/normalization/layernormgrad.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
