// AscendCraft: CANN's lib/reduce/reduce.h. The emulated reductions come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
