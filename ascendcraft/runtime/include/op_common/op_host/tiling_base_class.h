// AscendCraft host side: ops-base op_common/op_host/tiling_base_class.h (see op_host/tiling_base_class.h).
#pragma once
#include "op_host/tiling_base_class.h"
