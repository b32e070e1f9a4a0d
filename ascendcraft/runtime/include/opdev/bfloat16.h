// AscendCraft host side: CANN's opdev/bfloat16.h, the host bfloat16 type op::bfloat16 (catlass's examples' inputs and
// goldens): the raw bits of a bfloat16 value, converted to and from float. The emulation's type of ops-base
// (ascendcraft_emu/ops_base_types.h), named in namespace op.
#pragma once
#include "ascendcraft_emu/ops_base_types.h"
namespace op { using bfloat16 = ::Ops::Base::bfloat16; }
