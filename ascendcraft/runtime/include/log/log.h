// AscendCraft host side: ops-base log/log.h (the emulated helpers are in ascendcraft_emu/ops_base.h).
#pragma once
#include "ascendcraft_emu/ops_base.h"
// ops-base's log/log.h brings the device log's level check with it (log/inner/dfx_base.h): CheckLogLevel, DLOG_*, and
// the module ids (OP), which shared tiling headers call directly (ops-transformer tiling_base/tiling_base.h)
#include "base/alog_pub.h"
// and POSIX's <unistd.h>: ops-nn's common/src/legacy_common_manager.cpp calls access(path, F_OK) with only its own
// header, <dlfcn.h>, <dirent.h>, <limits.h> and log/log.h included, and builds in CANN, so the log header reaches it
#include <unistd.h>
// and its log line of an op at a device-log level (DLOG_DEBUG .. DLOG_ERROR): OpLogSub(moduleId, level, opName, fmt, ...),
// which ops-transformer's err/ops_err.h calls (OPS_REPORT_VECTOR_INNER_ERR); warnings and errors go to stderr
#ifndef OpLogSub
#define OpLogSub(moduleId, level, opName, ...) \
    ((void)(moduleId), ::Ops::Base::Log(static_cast<int>(level), ::Ops::Base::GetSafeStr(opName), __VA_ARGS__))
#endif
