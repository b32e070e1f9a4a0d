// The corpus harness's launch glue now lives with the emulation's headers, where the torch_npu stand-in's extension
// builds find it too: ascendcraft/runtime/include/asc_host_launch.h.
#pragma once
#include <asc_host_launch.h>
