// AscendCraft op-project host units: the headers that the tiling glue (ascendcraft.opproject.glue_source) and an
// op_host source compiled on its own read first. The build swaps this include for the prelude of its precompiled form
// (ascendcraft.emu.OP_HOST_HEADER), made once per flag set for every project: none of these headers may name a macro
// that a project build defines (ASCENDCRAFT_OP_TYPE, DTYPE_<NAME>, ...), or g++ refuses the .gch and reads the text.
#pragma once
// Marks the unit as host code for the headers that serve both sides: an op's host source that includes a kernel-side
// header (ops-nn clipped_swiglu_tiling_arch35.cpp's arch35 tiling data brings kernel_tiling/kernel_tiling.h, and so the
// emulator's __NPU_ARCH__) still gets the host's tiling-template macros (ascendcraft_emu/tpl.h: GET_TPL_TILING_KEY).
#define ASCENDCRAFT_OP_HOST 1
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include "register/op_def_registry.h"
#include "ascendcraft_emu/tiling_bind.h"
#include "tiling/platform/platform_ascendc.h"
// AOE's tuning structs, before a project's copy of their SDK headers (same guards): its registrations call CANN's closed
// library (tuningtiling::TuningTilingClassFactory, ops-nn mat_mul_v3 / conv tiling); these accept them and do nothing
#include <register/tuning_bank_key_registry.h>   // angle brackets: the SDK's, never a project copy on -iquote
