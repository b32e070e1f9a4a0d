// AscendCraft host side: base/err_msg.h of the CANN SDK (error reports with a code), printed to stderr.
// Written from the public CANN operator sources' use of it; no vendor code.
#pragma once
#include <cstdio>

#define REPORT_INNER_ERR_MSG(code, fmt, ...) \
    (std::fprintf(stderr, "[%s] ", (code)), std::fprintf(stderr, fmt, ##__VA_ARGS__), std::fprintf(stderr, "\n"))
