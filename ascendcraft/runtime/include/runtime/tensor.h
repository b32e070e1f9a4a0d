// AscendCraft host side: runtime/tensor.h
// is exe_graph/runtime/tensor.h, as op_host sources name it when their build puts the SDK's
// include/exe_graph on the include path (cann-ops conv2d's CMakeLists.txt; hicann ops-nn mat_mul_v3's tiling).
#pragma once
#include <exe_graph/runtime/tensor.h>
