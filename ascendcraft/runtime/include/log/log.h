// AscendCraft host side: ops-base log/log.h (the emulated helpers are in ascendcraft_emu/ops_base.h).
#pragma once
#include "ascendcraft_emu/ops_base.h"
