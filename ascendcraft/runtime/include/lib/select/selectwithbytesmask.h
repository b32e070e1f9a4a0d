// AscendCraft: CANN's lib/select/selectwithbytesmask.h. The emulated Select / SelectWithBytesMask come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
