// AscendCraft: the devkit's kernel printf header (single-source examples include it instead of kernel_operator.h,
// e.g. hello_world). In the emulation a kernel's printf is the host's (AscendC::printf too: runtime/include/
// ascendcraft_emu/pipe.h), so this header brings the kernel attributes and AscendC's printf. Written from the public
// AscendC documentation; no vendor code.
#pragma once
#include <cstdio>

#include "kernel_operator.h"
