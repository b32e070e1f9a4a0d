// AscendCraft: securec.h, the bounds-checked C library functions (memcpy_s, memset_s, snprintf_s, ...) that CANN
// sources call. Each checks the destination size and returns 0 (EOK) or an error number, as their documentation says.
// Written from that public interface; no vendor code.
#pragma once
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count)
{
    if (dest == nullptr || src == nullptr || count > destMax) return ERANGE;
    std::memmove(dest, src, count);
    return EOK;
}
inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) { return memcpy_s(dest, destMax, src, count); }
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count)
{
    if (dest == nullptr || count > destMax) return ERANGE;
    std::memset(dest, c, count);
    return EOK;
}
inline errno_t strcpy_s(char* dest, size_t destMax, const char* src)
{
    if (dest == nullptr || src == nullptr || std::strlen(src) >= destMax) return ERANGE;
    std::strcpy(dest, src);
    return EOK;
}
inline errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count)
{
    if (dest == nullptr || src == nullptr || destMax == 0) return ERANGE;
    const size_t n = std::strlen(src) < count ? std::strlen(src) : count;
    if (n >= destMax) return ERANGE;
    std::memcpy(dest, src, n);
    dest[n] = '\0';
    return EOK;
}
inline errno_t strcat_s(char* dest, size_t destMax, const char* src)
{
    if (dest == nullptr || src == nullptr || std::strlen(dest) + std::strlen(src) >= destMax) return ERANGE;
    std::strcat(dest, src);
    return EOK;
}
inline int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* fmt, va_list args)
{
    if (dest == nullptr || destMax == 0) return -1;
    const size_t limit = count + 1 < destMax ? count + 1 : destMax;
    const int n = std::vsnprintf(dest, limit, fmt, args);
    return n < 0 || static_cast<size_t>(n) >= limit ? -1 : n;
}
inline int snprintf_s(char* dest, size_t destMax, size_t count, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const int n = vsnprintf_s(dest, destMax, count, fmt, args);
    va_end(args);
    return n;
}
inline int sprintf_s(char* dest, size_t destMax, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const int n = vsnprintf_s(dest, destMax, destMax - 1, fmt, args);
    va_end(args);
    return n;
}
