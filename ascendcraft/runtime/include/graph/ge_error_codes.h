// AscendCraft emulation of GE's graph/ge_error_codes.h: ge::graphStatus and the GRAPH_* codes, declared with the
// op-definition API (register/op_def_registry.h).
#pragma once
#include "register/op_def_registry.h"
