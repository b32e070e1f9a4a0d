// AscendCraft CPU emulation: the Matmul API's tiling structs under an older include path (lib/matrix/matmul/tiling.h).
#pragma once

#include "../../matmul_intf.h"
