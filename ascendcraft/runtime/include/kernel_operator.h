// AscendCraft CPU emulation of the AscendC kernel API (Ascend 910B / A2). Kernels written in the
// ordinary AscendC style compile against this header set with g++ and run on the CPU, with every
// API call checked against the hardware's rules. Written from the public AscendC documentation;
// no vendor code.
#pragma once

#include "ascendcraft_emu/kernel_api.h"
#include "ascendcraft_emu/build_macros.h"
