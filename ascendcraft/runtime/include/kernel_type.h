// AscendCraft kernel side: kernel_type.h of the AscendC SDK, as kernels include it by name (the DT_* / FORMAT_* macros).
#pragma once
#include "ascendcraft_emu/kernel_type.h"
