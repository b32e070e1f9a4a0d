// AscendCraft host side: base/alog_pub.h of the CANN SDK (the device log), as shared operator headers use it through
// their log macros (cann-ops log/inner/dfx_base.h). Errors and warnings go to stderr; debug and info are off.
// Written from the public CANN operator sources' use of it; no vendor code.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>

enum { DLOG_DEBUG = 0, DLOG_INFO = 1, DLOG_WARN = 2, DLOG_ERROR = 3, DLOG_NULL = 4, DLOG_EVENT = 0x10 };
enum { DLOG_TYPE_DEBUG = 0, DLOG_TYPE_RUN = 1 };
enum { SLOG = 0, OP = 6, OPP = 29 };   // the module ids the operator headers name
#ifndef MSG_LENGTH
#define MSG_LENGTH 1024
#endif
#ifndef OPS_UTILS_LOG_SUB_MOD_NAME
#define OPS_UTILS_LOG_SUB_MOD_NAME "OP_TILING"   // the repositories' build passes it; this is its usual value
#endif
#ifndef OPS_UTILS_LOG_PACKAGE_TYPE
#define OPS_UTILS_LOG_PACKAGE_TYPE ""
#endif

inline int AlogCheckDebugLevel(int module, int level) { (void)module; return level >= DLOG_WARN && level != DLOG_NULL ? 1 : 0; }
// CheckLogLevel is the device log library's function (CANN's toolchain/slog.h declares it with C linkage, libslog
// defines it), not the header's: an op may define it itself (cann-ops max_pool3_d_with_argmax_v2's op_host source
// does), which the declaration makes legal, and its definition is then the one its program calls. The emulated
// library's definition is weak, in ascendcraft_emu/dlog_library.h, compiled in a unit of its own (the runtime
// library's core/emu_dlog.cpp; opproject's host programs add it as a unit).
extern "C" int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel);
inline void AlogRecord(int module, int type, int level, const char* fmt, ...)
{
    (void)module; (void)type;
    if (AlogCheckDebugLevel(0, level) != 1) return;
    va_list args;
    va_start(args, fmt);
    std::fprintf(stderr, level >= DLOG_ERROR ? "[ERROR] " : "[WARNING] ");
    std::vfprintf(stderr, fmt, args);
    std::fprintf(stderr, "\n");
    va_end(args);
}
