// AscendCraft emulation of GE's graph/types.h: ge::DataType, ge::Format and GetSizeByDataType, declared with the
// op-definition API (register/op_def_registry.h).
#pragma once
#include "register/op_def_registry.h"
#include "graph/utils/type_utils.h"   // ge::GetFormatName
