// AscendCraft: CANN's lib/reduce/reduce_common.h. The emulated reductions come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
