// AscendCraft host side: ops-base op_host/util/bfloat16.h (Ops::Base::fp16_t, Ops::Base::bfloat16: ascendcraft_emu/ops_base_types.h).
#pragma once
#include "ascendcraft_emu/ops_base_types.h"
