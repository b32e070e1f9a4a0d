// AscendCraft: CANN's lib/sort/topk.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
