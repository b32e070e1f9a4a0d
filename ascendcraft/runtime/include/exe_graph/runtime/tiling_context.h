// AscendCraft host side: exe_graph/runtime/tiling_context.h of the CANN SDK, which shared operator headers (cann-ops
// src/common/inc, ops-nn) include for the gert contexts. The emulated contexts live in register/op_def_registry.h.
#pragma once
#include "register/op_def_registry.h"
