// AscendCraft host side: ops-base op_common/log/log.h (the emulated helpers are in ascendcraft_emu/ops_base.h).
#pragma once
#include "ascendcraft_emu/ops_base.h"
