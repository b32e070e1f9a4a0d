// AscendCraft host side: the device log library's level check, CheckLogLevel (base/alog_pub.h declares it), as a
// weak definition: a program whose own source defines it (an op's op_host file may) calls that one, as an op's library
// in CANN would. Include this header in one translation unit of a program and nowhere else (core/emu_dlog.cpp does,
// for the runtime library; opproject.host_program adds a unit that does). Debug and info off, as AlogCheckDebugLevel.
// Written from the public CANN operator sources' use of it; no vendor code.
#pragma once
#include "base/alog_pub.h"

extern "C" __attribute__((weak)) int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel)
{
    return AlogCheckDebugLevel(moduleId, logLevel);
}
