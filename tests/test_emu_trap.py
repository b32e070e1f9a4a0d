"""Trap(): a kernel's own input check stops the AI Core (public kernel: cann-ops group_quant). The emulator stops with
a `kernel-trap` error at that line; a run that never reaches it is unaffected."""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void trapk(GM_ADDR y, int32_t groups)
{
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    if (groups < 0) {
        Trap();   // "group_index should be >= 0"
    }
    yg.SetValue(0, groups);
}
'''


def test_trap_stops_at_its_line_only_when_reached(tmp_path):
    (tmp_path / "trapk.cpp").write_text(KERNEL)
    b = build(tmp_path / "trapk.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    ok = run(b, [GM("y", np.zeros(8, np.int32), "out"), Scalar(3, "int32_t")], block_dim=1)
    assert ok.ok and ok.outputs["y"][0] == 3, [d.render() for d in ok.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out"), Scalar(-1, "int32_t")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "kernel-trap" and d.line == 8 and "Trap()" in d.message, d.render()
