// AscendCraft: the kernel API's vec part by the header name newer CANN installs give it (basic_api/kernel_vec_intf.h;
// ops-transformer's chunk_gated_delta_rule includes it); the emulated API is all in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
