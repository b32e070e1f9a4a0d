// AscendCraft CPU emulation: kernel-side tiling macros and kernel-type markers.
#pragma once

#include "runtime.h"

namespace optiling {}

// Copy the tiling struct registered by REGISTER_TILING_DATA_CLASS / REGISTER_TILING_DEFAULT out of
// the tiling buffer in GM (bounds-checked like any GM read).
#define ASCENDCRAFT_CAT_(a, b) a##b
#define ASCENDCRAFT_CAT(a, b) ASCENDCRAFT_CAT_(a, b)
// ASCENDCRAFT_TILING_TYPE, the struct GET_TILING_DATA declares, is build_macros.h's: an op project's build decides it.
// The structs' names: the emulator's driver declares them at global scope as CANN's kernel build does (and then
// redefines ASCENDCRAFT_TILING_NAMES to nothing); otherwise the host namespace is made visible in the function.
#define ASCENDCRAFT_TILING_NAMES using namespace optiling
#define GET_TILING_DATA(var, tiling)                                                   \
    ASCENDCRAFT_TILING_NAMES;                                                          \
    ASCENDCRAFT_TILING_TYPE var;                                                       \
    ::ascendcraft::emu::tiling_read(&var, (tiling), sizeof(var), ::ascendcraft::emu::SrcLoc())
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    ::ascendcraft::emu::tiling_read(&var, (tiling), sizeof(var), ::ascendcraft::emu::SrcLoc())
// A pointer to the tiling struct (the newer operators' kernels pass it on): the struct is read like GET_TILING_DATA's.
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, var, tiling)                                                 \
    type ASCENDCRAFT_CAT(ascendcraft_tiling_, var);                                                        \
    ::ascendcraft::emu::tiling_read(&ASCENDCRAFT_CAT(ascendcraft_tiling_, var), (tiling), sizeof(type),     \
                                    ::ascendcraft::emu::SrcLoc());                                         \
    type* var = &ASCENDCRAFT_CAT(ascendcraft_tiling_, var)
// COPY_TILING_WITH_STRUCT(type, src_ptr, dst_ptr): `const type* dst_ptr` to a copy on the stack of the struct src_ptr
// points to (the tiling in GM, or a nested struct of one GET_TILING_DATA_PTR_WITH_STRUCT gave), as CANN's generated
// kernel header defines it.
#define COPY_TILING_WITH_STRUCT(type, src, var)                                                            \
    type ASCENDCRAFT_CAT(ascendcraft_tiling_copy_, var);                                                   \
    ::ascendcraft::emu::tiling_copy(&ASCENDCRAFT_CAT(ascendcraft_tiling_copy_, var), (src), sizeof(type),  \
                                    ::ascendcraft::emu::SrcLoc());                                         \
    const type* var = &ASCENDCRAFT_CAT(ascendcraft_tiling_copy_, var)
// The qualifier CANN's generated kernel header gives a pointer to a tiling struct in GM (`__gm__ const`): kernels declare
// the tiling pointers they pass on with it.
#ifndef __tiling_data_ptr__
#define __tiling_data_ptr__ __gm__ const
#endif
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                                                  \
    decltype(type::member) var;                                                                           \
    ::ascendcraft::emu::tiling_read(&var, reinterpret_cast<const uint8_t*>(tiling) + offsetof(type, member), \
                                    sizeof(var), ::ascendcraft::emu::SrcLoc())
// As in AscendC, inside the kernel function (or at file scope): the struct GET_TILING_DATA reads.
#define REGISTER_TILING_DEFAULT(type) using AscendCraftTilingData = type
// Tiling keys: the launch's key (run(tiling_key=) or SetTilingKey in the host tiling function). The tests are
// recorded so that a block that matched no branch and wrote nothing is an error (tiling-key).
#define TILING_KEY_IS(key) (::ascendcraft::emu::tiling_key_list(::ascendcraft::emu::SrcLoc(), (key)))
#define TILING_KEY_LIST(...) (::ascendcraft::emu::tiling_key_list(::ascendcraft::emu::SrcLoc(), __VA_ARGS__))
// TILING_KEY_VAR is build_macros.h's: a per-key build defines it before that header.
// Per-key tiling structs: the emulator reads the struct GET_TILING_DATA_WITH_STRUCT names (or the default one).
#define REGISTER_TILING_FOR_TILINGKEY(expression, type) static_assert(true, "")
#define REGISTER_NONE_TILING static_assert(true, "")

// A declaration, as in AscendC, so that it stands in the kernel function or at file scope (ops-transformer's
// flash_attention_score declares its type once before the entry): the build lays the cores out by the type its text
// names (emu_kind); inside a running kernel it also records the type (kernel_type_declared), at file scope it does nothing.
#define ASCENDCRAFT_KTT_NAME2(n) ascendcraft_kernel_task_type_##n
#define ASCENDCRAFT_KTT_NAME(n) ASCENDCRAFT_KTT_NAME2(n)
#define KERNEL_TASK_TYPE_DEFAULT(type) \
    [[maybe_unused]] const int ASCENDCRAFT_KTT_NAME(__COUNTER__) = ::ascendcraft::emu::kernel_type_declared(static_cast<int>(type))
#define KERNEL_TASK_TYPE(key, type) \
    ((::ascendcraft::emu::tiling_key() == static_cast<uint64_t>(key)) ? ::ascendcraft::emu::kernel_type_set(static_cast<int>(type)) : (void)0)
