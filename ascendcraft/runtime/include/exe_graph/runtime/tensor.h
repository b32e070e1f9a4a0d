// AscendCraft host side: exe_graph/runtime/tensor.h of the CANN SDK, which shared operator headers include for the gert
// types (Shape, StorageShape, Tensor). The emulated types live in register/op_def_registry.h.
#pragma once
#include "register/op_def_registry.h"
