// AscendCraft kernel side: ops-base's op_kernel/platform_util.h, the chip's constants as device code reads them
// (hicann ops-nn max_pool3_d: `constexpr uint32_t UB_BLOCK_BYTES = Ops::Base::GetUbBlockSize();`). On the emulated
// A2 chip: a UB block is 32 bytes, a vector register (one repeat) 256 bytes. The host side's GetUbBlockSize(context)
// (ascendcraft_emu/ops_base.h) takes a context and is another overload.
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace Ops { namespace Base {
__aicore__ inline constexpr uint32_t GetUbBlockSize() { return 32U; }
__aicore__ inline constexpr uint32_t GetVRegSize() { return 256U; }
}}  // namespace Ops::Base
