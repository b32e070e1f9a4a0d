// AscendCraft CPU emulation: the launch's system workspace.
//
// CANN's kernel build wraps every kernel that takes a workspace parameter (op projects and <<<>>> launches alike): the
// wrapper hands the launch's workspace to AscendC::SetSysWorkspaceForce before the kernel's own code runs, so that
// GetSysWorkSpacePtr() is that workspace, never null, in a kernel that did not call SetSysWorkspace itself. Kernels
// rely on it (`if (GetSysWorkSpacePtr() == nullptr) return;` before a Matmul). launch_workspace() gives that address:
// the launch's Workspace argument, or null when the launch has none (or one of 0 bytes, as CANN passes no memory).
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

uint8_t* launch_workspace() {
    for (const GmBuffer& b : g_launch->gm.buffers())
        if (b.role == Role::Workspace && b.bytes) return b.base;
    return nullptr;
}

}}  // namespace ascendcraft::emu
