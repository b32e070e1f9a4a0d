// AscendCraft: kernel_event.h of the AscendC SDK, an internal header of its basic API (the hardware events and their
// ids) that CANN's kernel include path has (hicann ops-transformer's attention kernels include it by name). The
// emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
