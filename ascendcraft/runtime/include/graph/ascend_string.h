// AscendCraft emulation of GE's graph/ascend_string.h: ge::AscendString, declared with the op-definition API
// (register/op_def_registry.h).
#pragma once
#include "register/op_def_registry.h"
