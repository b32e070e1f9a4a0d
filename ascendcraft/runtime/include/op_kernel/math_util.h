// AscendCraft kernel side: ops-base's op_kernel/math_util.h (Ops::Base::CeilDiv, FloorDiv, CeilAlign, FloorAlign in
// device code; hicann ops-nn / ops-math kernels include it). One definition with the host side's: ascendcraft_emu/ops_base_math.h.
#pragma once
#include "ascendcraft_emu/ops_base_math.h"
