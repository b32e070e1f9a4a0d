// AscendCraft host side: ops-base log/log.h (the emulated helpers are in ascendcraft_emu/ops_base.h).
#pragma once
#include "ascendcraft_emu/ops_base.h"
// ops-base's log/log.h brings the device log's level check with it (log/inner/dfx_base.h): CheckLogLevel, DLOG_*, and
// the module ids (OP), which shared tiling headers call directly (ops-transformer tiling_base/tiling_base.h)
#include "base/alog_pub.h"
