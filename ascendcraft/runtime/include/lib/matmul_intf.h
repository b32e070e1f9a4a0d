// AscendCraft CPU emulation: the Matmul high-level API, included as in AscendC (#include "lib/matmul_intf.h").
#pragma once

#include "kernel_operator.h"
#include "../ascendcraft_emu/matmul.h"
