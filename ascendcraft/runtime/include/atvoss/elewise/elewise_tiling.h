// AscendCraft: opbase's atvoss/elewise/elewise_tiling.h by its path from op_common/ (the spelling ops-nn and ops-math use).
#pragma once
#include "op_common/atvoss/elewise/elewise_tiling.h"
