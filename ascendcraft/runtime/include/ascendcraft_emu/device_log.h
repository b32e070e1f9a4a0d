// AscendCraft: the kernel-side logging and checking macros of kernel_log.h, as the device build defines them.
//
// In a kernel compiled for the NPU, ASCENDC_ASSERT(cond, behaviour) and KERNEL_LOG(level, format, ...) are empty:
// neither the condition nor the behaviour is compiled (only CANN's CPU-debug build evaluates them and aborts). Kernels
// that pass on hardware rely on that, e.g. `ASCENDC_ASSERT(n != 0, { KERNEL_LOG(KERNEL_ERROR, "..."); });`, so the
// emulation takes them the same way. A kernel that wants a checked condition writes `assert` or `ascendc_assert`,
// which the emulation evaluates (math.h). The API-internal check macros are empty on the device for the same reason.
#pragma once

namespace AscendC {
enum class LogLevel : uint8_t { KERNEL_DEBUG = 0, KERNEL_INFO = 1, KERNEL_WARN = 2, KERNEL_ERROR = 3 };
}  // namespace AscendC

#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...)
#endif
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)
#endif
#ifndef ASCENDC_REPORT_NOT_SUPPORT
#define ASCENDC_REPORT_NOT_SUPPORT(cond, apiMsg)
#endif
#ifndef ASCENDC_CHECK_VALUE_RANGE
#define ASCENDC_CHECK_VALUE_RANGE(value, rangeLow, rangeHigh, paramName, apiMsg)
#endif
