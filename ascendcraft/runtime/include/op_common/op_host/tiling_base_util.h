// AscendCraft host side: ops-base op_common/op_host/tiling_base_util.h (IsRegbaseSocVersion, EnsureNotScalar: ascendcraft_emu/ops_base.h).
#pragma once
#include "ascendcraft_emu/ops_base.h"
