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

// Reads the run spec named by argv[1], maps GM, runs every block, writes the report.
int driver_main(int argc, char** argv, LaunchFn launch, int nparams, TilingFn tiling);

}}  // namespace ascendcraft::emu
