// AscendCraft: CANN's kernel_operator_list_tensor_intf.h (ListTensorDesc, TensorDesc), which kernel_operator.h brings.
#pragma once

#include "kernel_operator.h"
