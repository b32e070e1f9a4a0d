// AscendCraft: ascendc/host_api/tiling/template_argument.h, the tiling-template macros (ascendcraft_emu/tpl.h).
#pragma once
#include "ascendcraft_emu/tpl.h"
