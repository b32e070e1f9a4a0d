// AscendCraft host-side emulation: register/op_impl_registry.h, the header that declares IMPL_OP / IMPL_OP_OPTILING /
// IMPL_OP_INFERSHAPE. The emulation keeps them with the operator definition (op_def_registry.h).
#pragma once

#include "register/op_def_registry.h"
