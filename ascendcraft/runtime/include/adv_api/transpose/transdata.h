// AscendCraft: CANN's adv_api/transpose/transdata.h. The emulated advanced APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
