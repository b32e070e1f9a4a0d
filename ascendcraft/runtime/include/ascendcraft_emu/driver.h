// AscendCraft CPU emulation: the entry point a generated driver calls (see ascendcraft.emu).
#pragma once

#include <cstdint>

namespace ascendcraft { namespace emu {

// Calls the kernel entry with args[i] = the GM pointer (pointer parameters) or a pointer to the
// value (scalar parameters).
using LaunchFn = void (*)(void* const* args);
// The project's host tiling function (ascendcraft_tiling), or nullptr.
using TilingFn = int (*)(const int64_t* args, int nargs, void* tiling, uint64_t capacity, uint32_t* block_dim,
                         uint64_t* workspace_bytes);

// The kernel type the build found (KERNEL_TYPE_* or -1), per tiling key where KERNEL_TASK_TYPE names one, and whether
// the kernel uses cross-core flags: the driver lays the launch's cores out by it (emu_sync_cross.cpp).
void declare_kernel_kind(int def, const uint64_t* keys, const int* types, int n, bool cross);

// A struct parameter passed by value (`TCubeTiling tiling`): args[index] points at the bytes the run gave for it.
// Stops the run with a run-args error naming the parameter when their count is not sizeof(T).
void check_value_arg(int index, unsigned long size);
template <typename T>
const T& value_arg(void* const* args, int index) {
    check_value_arg(index, sizeof(T));
    return *static_cast<const T*>(args[index]);
}

// A kernel whose #if / #elif conditions test TILING_KEY_VAR is compiled once per tiling key with TILING_KEY_VAR that
// key's literal, as CANN's build compiles one kernel binary per key. The driver declares the key this binary was
// compiled for and the keys its `TILING_KEY_VAR == K` conditions name (n = 0: the conditions are not such a list), with
// the place of the first condition. A launch whose key is another one stops before the kernel with a `rekey` record
// (the parent builds the kernel for that key and runs it); a block of a key no condition names that writes nothing is a
// tiling-key error.
void declare_key_build(uint64_t key, const uint64_t* keys, int n, const char* file, int line);

// A mixed kernel that chooses code by the device compiler's core-type macros is built per core type, as CANN builds
// it (ascendcraft.emu.core_type_split): the driver is the vector half's, and hands over the cube half's entry here,
// which then runs every AIC block of a launch.
void declare_aic_launch(LaunchFn aic);

// A `__gm__` array the kernel source defines at namespace scope (hicann ops-math diag_v2's `constexpr __gm__ int32_t
// assistGmB32[4096] = {...}`) is constant data the NPU keeps in global memory: a kernel reads it with DataCopy as it
// reads a launch buffer. The driver declares each one (ascendcraft.emu.gm_arrays) before driver_main; every launch
// then checks a GM access against it as against a buffer of that name. `writable`: the array's element type is not
// const (cann-ops deep_norm_grad's `static volatile __gm__ uint32_t g_FixedOutputSync[16]`, a flag word its blocks
// share), so the kernel may write it as it writes an output, under the same bounds and cross-block checks; a const
// array (a constexpr table) is read-only, and a write into it is out of bounds.
void declare_gm_array(const char* name, const void* base, unsigned long bytes, bool writable);

// Reads the run spec named by argv[1], maps GM, runs every block, writes the report.
int driver_main(int argc, char** argv, LaunchFn launch, int nparams, TilingFn tiling);

}}  // namespace ascendcraft::emu
