// AscendCraft emulation of GE's graph/operator.h: ge::Operator (the graph view of an operator), ge::TensorDesc, the
// graph types and status codes. They are declared with the op-definition API (register/op_def_registry.h), which the
// op_host sources that name them include as well. The emulated host builds no graph.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "register/op_def_registry.h"
