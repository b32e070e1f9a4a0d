// AscendCraft CPU emulation: the launch's parameter area, what the device compiler's builtin get_para_base() returns.
//
// On the NPU a kernel's arguments reach the core as one block of GM: an 8-byte word per parameter, in the entry's
// parameter order (the tensors' addresses, the workspace, the tiling), the launch's tiling bytes placed right after
// the last word. CANN's generated launch wrappers read their parameters from it (`((GM_ADDR*)get_para_base())[i]`),
// and a kernel may read its tiling in place (hicann ops-math gcd: `paramBase + 5` after its five parameters).
// The driver sets the area once per launch, before any block runs (emu_main.cpp); blocks only read it. A pointer
// parameter's word is its address, a scalar's word its value; a struct passed by value has no word of its own
// layout here and gets 0. The tiling bytes are a copy of the Tiling buffer's (read-only on every path).
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {
std::vector<uint64_t> g_param_area;
}

void set_launch_params(const std::vector<uint64_t>& words, const uint8_t* tiling, uint64_t tiling_bytes) {
    g_param_area.assign(words.size() + (tiling_bytes + 7) / 8, 0);
    std::copy(words.begin(), words.end(), g_param_area.begin());
    if (tiling && tiling_bytes) std::memcpy(g_param_area.data() + words.size(), tiling, tiling_bytes);
}

int64_t launch_param_base(SrcLoc loc) {
    if (g_param_area.empty())
        unsupported_call(Op::Kernel, "get_para_base(): this launch has no parameter area (the kernel has no parameters)",
                         "give the kernel its arguments as parameters of its entry", loc);
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(g_param_area.data()));
}

}}  // namespace ascendcraft::emu
