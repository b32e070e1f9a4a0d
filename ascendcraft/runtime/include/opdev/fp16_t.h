// AscendCraft host side: CANN's opdev/fp16_t.h, the host half type op::fp16_t that host code (catlass's examples) fills
// inputs and computes goldens with: the raw bits of a half value, converted to and from float (round to nearest even).
// The emulation's type of ops-base (ascendcraft_emu/ops_base_types.h), named in namespace op.
#pragma once
#include "ascendcraft_emu/ops_base_types.h"
namespace op { using fp16_t = ::Ops::Base::fp16_t; }
