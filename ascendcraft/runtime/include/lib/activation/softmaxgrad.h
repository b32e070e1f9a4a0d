// AscendCraft: CANN's lib/activation/softmaxgrad.h (SoftmaxGrad, SoftmaxGradFront). The emulated APIs come with kernel_operator.h.
#pragma once

#include "kernel_operator.h"
