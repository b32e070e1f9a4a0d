// AscendCraft: CANN's adv_api/select/selectwithbytesmask.h. The emulated Select / SelectWithBytesMask come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
