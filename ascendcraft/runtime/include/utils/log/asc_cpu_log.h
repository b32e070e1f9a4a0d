// AscendCraft: the host-side log macros of the AscendC utilities (the API reference's ASC_CPU_LOG page: ERROR, INFO,
// WARNING, DEBUG, printf-style, for a TilingFunc; CANN writes them to its plog with the level, the code line and the
// function). Here errors and warnings go to stderr with the same facts, where a failing tiling function's reason is
// seen beside the emulator's report; info and debug lines are dropped, as CANN's default log level drops them.
// (MindSpore's ms_custom_ops reshape_and_cache_npd and unpad_fa_npd log their tiling checks' failures with them.)
#pragma once

#include <cstdio>

#define ASCENDCRAFT_ASC_CPU_LOG(level, format, ...) \
    std::fprintf(stderr, "[%s] %s:%d %s: " format "\n", level, __FILE__, __LINE__, __func__ __VA_OPT__(,) __VA_ARGS__)
#define ASC_CPU_LOG_ERROR(format, ...) ASCENDCRAFT_ASC_CPU_LOG("ERROR", format __VA_OPT__(,) __VA_ARGS__)
#define ASC_CPU_LOG_WARNING(format, ...) ASCENDCRAFT_ASC_CPU_LOG("WARNING", format __VA_OPT__(,) __VA_ARGS__)
#define ASC_CPU_LOG_INFO(format, ...) ((void)0)
#define ASC_CPU_LOG_DEBUG(format, ...) ((void)0)
