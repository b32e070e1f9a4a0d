// AscendCraft host side: toolchain/slog.h of older CANN SDKs (the device log before base/alog_pub.h), as the shared
// operator headers of cann-ops copies (log/inner/dfx_base.h: DlogSub, CheckLogLevel, DLOG_*) use it. Errors and
// warnings go to stderr; debug and info are off, as base/alog_pub.h has them.
// Written from the public CANN operator sources' use of it; no vendor code.
#pragma once
#include <cstdarg>
#include <cstdio>
#include "base/alog_pub.h"

inline void DlogSub(int module, const char* submodule, int level, const char* fmt, ...)
{
    (void)module;
    if (AlogCheckDebugLevel(0, level) != 1) return;
    va_list args;
    va_start(args, fmt);
    std::fprintf(stderr, level >= DLOG_ERROR ? "[ERROR] %s " : "[WARNING] %s ", submodule ? submodule : "");
    std::vfprintf(stderr, fmt, args);
    std::fprintf(stderr, "\n");
    va_end(args);
}
#define dlog_error(module, fmt, ...) DlogSub((module), "", DLOG_ERROR, fmt, ##__VA_ARGS__)
#define dlog_warn(module, fmt, ...) DlogSub((module), "", DLOG_WARN, fmt, ##__VA_ARGS__)
#define dlog_info(module, fmt, ...) DlogSub((module), "", DLOG_INFO, fmt, ##__VA_ARGS__)
#define dlog_debug(module, fmt, ...) DlogSub((module), "", DLOG_DEBUG, fmt, ##__VA_ARGS__)
