// AscendCraft host side: ops-base log/error_code.h, which ops name beside log/log.h (hicann ops-nn foreach_utils,
// ops-transformer's attention checkers); the names they use from it are in ascendcraft_emu/ops_base.h.
#pragma once
#include "ascendcraft_emu/ops_base.h"
