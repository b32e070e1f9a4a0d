// AscendCraft: CANN's adv_api/math/fmod.h. The emulated advanced math APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
