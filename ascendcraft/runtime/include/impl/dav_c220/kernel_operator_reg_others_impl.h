// AscendCraft: CANN's impl/dav_c220/kernel_operator_reg_others_impl.h. Its register-level helpers are part of the emulated kernel_operator.h.
#pragma once

#include "kernel_operator.h"
