// AscendCraft: what an op's host code gets from CANN's tiling/tiling_api.h — the advanced APIs' host tiling
// functions and structs (emulated subset). No vendor code.
#pragma once

#include "register/op_def_registry.h"
#include "ascendcraft_emu/norm_tiling.h"
