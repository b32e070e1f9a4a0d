// AscendCraft CPU emulation: kernel-side tiling macros and kernel-type markers.
#pragma once

#include "runtime.h"

namespace optiling {}

// Copy the tiling struct registered by REGISTER_TILING_DATA_CLASS / REGISTER_TILING_DEFAULT out of
// the tiling buffer in GM (bounds-checked like any GM read).
#define GET_TILING_DATA(var, tiling)                                                   \
    using namespace optiling;                                                          \
    AscendCraftTilingData var;                                                         \
    ::ascendcraft::emu::tiling_read(&var, (tiling), sizeof(var), ::ascendcraft::emu::SrcLoc())
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    ::ascendcraft::emu::tiling_read(&var, (tiling), sizeof(var), ::ascendcraft::emu::SrcLoc())
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                                                  \
    decltype(type::member) var;                                                                           \
    ::ascendcraft::emu::tiling_read(&var, reinterpret_cast<const uint8_t*>(tiling) + offsetof(type, member), \
                                    sizeof(var), ::ascendcraft::emu::SrcLoc())
// As in AscendC, inside the kernel function (or at file scope): the struct GET_TILING_DATA reads.
#define REGISTER_TILING_DEFAULT(type) using AscendCraftTilingData = type
#define TILING_KEY_IS(key) (::ascendcraft::emu::tiling_key() == static_cast<uint64_t>(key))

#define KERNEL_TASK_TYPE_DEFAULT(type) ::ascendcraft::emu::kernel_type_set(static_cast<int>(type))
#define KERNEL_TASK_TYPE(key, type) \
    ((::ascendcraft::emu::tiling_key() == static_cast<uint64_t>(key)) ? ::ascendcraft::emu::kernel_type_set(static_cast<int>(type)) : (void)0)
