// AscendCraft: the names of opbase's element-wise DAG (op_common/atvoss/util/dag.h): an Ascend 950 kernel's computation
// written as types (Bind an op to its operands, the outputs' list, the memory option, the schedule). An Ascend 950
// DAG header that an A2 build reaches through a tiling header only names them in type aliases (hicann ops-nn
// apply_adam_w_v2). Declared and not defined: the template's kernels are not emulated, so a DAG that would run does not
// compile. No vendor code.
#pragma once

#include <cstdint>

#include "op_common/atvoss/util/placeholder.h"

namespace Ops { namespace Base {

template <typename... Ts> struct Elems;
enum class MemLevel : uint8_t { LEVEL_0 = 0, LEVEL_1 = 1, LEVEL_2 = 2 };
template <MemLevel level = MemLevel::LEVEL_0, bool reuseIn = false> struct MemOptCfg;
template <typename Func, typename... Args> struct Bind;
template <typename OutList, typename ComputeOrder = void, typename MemCfg = MemOptCfg<>> struct DAGSch;

}}  // namespace Ops::Base
