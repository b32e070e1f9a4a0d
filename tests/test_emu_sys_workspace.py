"""GetSysWorkSpacePtr() in a launch with a workspace argument (emu_workspace.cpp, pipe.h): CANN's kernel wrapper gives
the launch's workspace to SetSysWorkspaceForce before the kernel runs, so the pointer is that workspace, not null.
LLM-made kernels check it before their Matmul (`if (GetSysWorkSpacePtr() == nullptr) return;`, 13 of LLM4AscendC's
165 MultiKernelBench kernels); with a null pointer they returned at once and wrote nothing."""
import numpy as np

from ascendcraft.emu import GM, Workspace, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void guarded_copy(GM_ADDR x, GM_ADDR y, GM_ADDR flags, GM_ADDR workspace)
{
    GlobalTensor<int32_t> fg;
    fg.SetGlobalBuffer((__gm__ int32_t *)flags, 8);
    fg.SetValue(0, GetSysWorkSpacePtr() == workspace ? 1 : 0);    // the launch's workspace, as CANN's wrapper sets it
    SetSysWorkspace(flags);
    fg.SetValue(1, GetSysWorkSpacePtr() == flags ? 1 : 0);        // the kernel's own choice wins
    SetSysWorkspace(nullptr);
    if (GetSysWorkSpacePtr() == nullptr) return;                  // the LLM kernels' guard
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xg, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, v, 64);
}
'''


def _run(b, workspace):
    x = np.arange(64, dtype=np.float32)
    args = [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("flags", np.zeros(8, np.int32), "out")]
    return x, run(b, args + [workspace], block_dim=1)


def test_a_launch_with_a_workspace_has_it_as_the_system_workspace():
    b = build({"guarded.cpp": KERNEL})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x, r = _run(b, Workspace(1024))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert list(r.outputs["flags"][:2]) == [1, 1]
    np.testing.assert_array_equal(r.outputs["y"], x)


def test_without_workspace_memory_the_system_workspace_is_null_and_the_guard_returns():
    b = build({"guarded.cpp": KERNEL})
    _, r = _run(b, Workspace(0))   # CANN passes no memory for a 0-byte workspace
    assert r.outputs["flags"][0] == 0 and r.outputs["flags"][1] == 1
    assert (r.outputs["y"].view(np.uint8) == 0xA5).all()   # the guard returned: y still holds the poison
