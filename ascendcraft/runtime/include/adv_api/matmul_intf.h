// AscendCraft CPU emulation: the Matmul high-level API under its newer include path.
#pragma once

#include "../lib/matmul_intf.h"
