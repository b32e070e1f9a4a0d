// AscendCraft CPU emulation of the AscendC kernel API (Ascend 910B / A2). Kernels written in the
// ordinary AscendC style compile against this header set with g++ and run on the CPU, with every
// API call checked against the hardware's rules. Written from the public AscendC documentation;
// no vendor code.
#pragma once

#include "ascendcraft_emu/kernel_api.h"
#include "ascendcraft_emu/build_macros.h"
// The HCCL high-level API, which the SDK's kernel_operator.h brings too (its kernel_operator_intf.h includes the
// advanced APIs' kernel_api.h, which includes hccl/hccl.h): hicann ops-transformer's mc2 kernels name Hccl and
// HcclHandle with no include of their own. One device, no communication domain: see lib/hccl/hccl.h.
#include "lib/hccl/hccl.h"
