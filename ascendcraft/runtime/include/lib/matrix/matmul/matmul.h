// AscendCraft CPU emulation: the Matmul high-level API under an older include path (lib/matrix/matmul/matmul.h).
#pragma once

#include "../../matmul_intf.h"
