// AscendCraft host side: aclnn/opdev/op_log.h, the log header of CANN's op API layer (nnopbase's opdev), as an op's
// host tiling or InferShape source may include it (cann-ops multi_scale_deformable_attention_grad,
// multi_scale_deformable_attn_function, ge_glu_v2's proto: `OP_LOGE_WITHOUT_REPORT(op_name, "%s", message)`,
// `OP_LOGE(nodeName, ...)`, `OP_LOGD(context->GetNodeName(), ...)`). The emulation's log macros are ops-base's
// (ascendcraft_emu/ops_base.h): the op's name first, then a printf format; errors and warnings go to stderr, debug and
// info lines are off. The op API layer's own sources (aclnn_*.cpp, *_l0.cpp, which give an aclnn error code in the
// name's place) are not built by the emulation. Written from the public API description; no vendor code.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "ascendcraft_emu/ops_base.h"
