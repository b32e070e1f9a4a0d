// AscendCraft host side: opbase's atvoss/reduce/reduce_tiling.h by its path from op_common/ (ops-transformer's spelling).
#pragma once
#include "op_common/atvoss/reduce/reduce_tiling.h"
