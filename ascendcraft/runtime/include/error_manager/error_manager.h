// AscendCraft host side: error_manager/error_manager.h of the CANN SDK (GE's error reports with a code), printed to
// stderr. Written from the public CANN operator sources' use of it (hicann ops-transformer mc2_log.h); no vendor code.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#define REPORT_INNER_ERROR(code, fmt, ...) \
    (std::fprintf(stderr, "[%s] ", (code)), std::fprintf(stderr, fmt, ##__VA_ARGS__), std::fprintf(stderr, "\n"))
#define REPORT_CALL_ERROR REPORT_INNER_ERROR
// an input error: a code and the names and values of its message's arguments
#define REPORT_INPUT_ERROR(code, keys, values) \
    ascendcraft_error_manager::report_input((code), std::vector<std::string>(keys), std::vector<std::string>(values))

namespace ascendcraft_error_manager {
inline void report_input(const char* code, const std::vector<std::string>& keys, const std::vector<std::string>& values) {
    std::fprintf(stderr, "[%s]", code);
    for (size_t i = 0; i < keys.size() && i < values.size(); ++i)
        std::fprintf(stderr, " %s=%s", keys[i].c_str(), values[i].c_str());
    std::fprintf(stderr, "\n");
}
}  // namespace ascendcraft_error_manager
