// AscendCraft host-side emulation: register/op_def.h, the header of CANN's operator-definition classes (OpDef,
// OpParamDef, OpAttrDef, OpAICoreConfig), which register/op_def_registry.h includes. The emulation declares them in
// op_def_registry.h; an op_host source that includes this header by its own name (vllm-ascend's k2q_csr ops) gets them.
#pragma once

#include "register/op_def_registry.h"
