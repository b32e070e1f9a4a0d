// AscendCraft CPU emulation: every declaration of kernel_operator.h but the few macros a build's own -D flags
// decide (ascendcraft_emu/build_macros.h). Kernel builds read this header precompiled: g++ refuses a .gch whose
// headers test a macro the build defines, so the headers here test none of an op project's macros.
#pragma once

#include <cassert>
#include <cmath>
// The standard headers CANN's CPU-debug kernel_operator.h brings (ASCENDC_CPU_DEBUG, which this build defines): kernels'
// CPU-debug helpers use them without including them (hicann ops-nn weight_quant_batch_matmul_v2's tool.h: std::setw).
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "ascendcraft_emu/base.h"
#include "ascendcraft_emu/runtime.h"
#include "ascendcraft_emu/tensor.h"
#include "ascendcraft_emu/static_tensor.h"
#include "ascendcraft_emu/std_traits.h"
#include "ascendcraft_emu/coord.h"
#include "ascendcraft_emu/pipe.h"
#include "ascendcraft_emu/copy.h"
#include "ascendcraft_emu/slice_copy.h"
#include "ascendcraft_emu/list_tensor.h"
#include "ascendcraft_emu/vector.h"
#include "ascendcraft_emu/reduce.h"
#include "ascendcraft_emu/reduce_repeat.h"
#include "ascendcraft_emu/block_sync.h"
#include "ascendcraft_emu/adv.h"
#include "ascendcraft_emu/math.h"
#include "ascendcraft_emu/norm.h"
#include "ascendcraft_emu/fnptr.h"
#include "ascendcraft_emu/compat.h"
#include "ascendcraft_emu/tiling.h"
#include "ascendcraft_emu/cube.h"
#include "ascendcraft_emu/cube_sparse.h"
#include "ascendcraft_emu/arith.h"
#include "ascendcraft_emu/rearrange.h"
#include "ascendcraft_emu/reduce_adv.h"
#include "ascendcraft_emu/reduce_pattern.h"
#include "ascendcraft_emu/symbol.h"
#include "ascendcraft_emu/devkit_impl.h"
#include "ascendcraft_emu/raw_intrinsics.h"
#include "ascendcraft_emu/raw_vector.h"
#include "ascendcraft_emu/raw_vector_arith.h"
#include "ascendcraft_emu/raw_vector_unary.h"
#include "ascendcraft_emu/raw_vector_compare.h"
#include "ascendcraft_emu/raw_cube.h"
#include "ascendcraft_emu/pad.h"
#include "ascendcraft_emu/softmax_grad.h"
#include "ascendcraft_emu/glu.h"
#include "ascendcraft_emu/quant.h"
#include "ascendcraft_emu/cumsum.h"
#include "ascendcraft_emu/welford.h"
#include "ascendcraft_emu/transdata.h"
#include "ascendcraft_emu/confusion_transpose.h"
#include "ascendcraft_emu/dropout_init.h"
#include "ascendcraft_emu/softmax_flashv3.h"
#include "ascendcraft_emu/normalize.h"
#include "ascendcraft_emu/layernorm_grad.h"
#include "ascendcraft_emu/topk.h"
#include "ascendcraft_emu/sort.h"
#include "ascendcraft_emu/select_bytes.h"
#include "ascendcraft_emu/exp_taylor.h"
#include "ascendcraft_emu/device_log.h"

// AscendC also declares the core queries at global scope: kernels call GetBlockIdx() / GetBlockNum() without
// `using namespace AscendC` (using-declarations, so a kernel that has the using-directive sees one function).
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
