// AscendCraft: CANN's kernel_utils.h. Its helpers are part of the emulated kernel_operator.h.
#pragma once

#include "kernel_operator.h"
