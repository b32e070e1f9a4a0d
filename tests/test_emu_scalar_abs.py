"""abs() on scalars in kernel code keeps a float a float (and a 64-bit integer 64 bits), as the device compiler's abs
does; the host C library's global abs(int) alone would truncate them (abs(-0.25f) == 0). Kernels skip small values
with it: `if (abs(g) < 1e-12f) return;` (a contest PdistGrad), which then skipped every |g| < 1."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
INCLUDE_MATH
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR g, GM_ADDR y)
{
    GlobalTensor<float> gGm, yGm;
    gGm.SetGlobalBuffer((__gm__ float *)g, 8);
    yGm.SetGlobalBuffer((__gm__ float *)y, 16);
    for (int32_t i = 0; i < 8; i++) {
        float v = gGm.GetValue(i);
        if (abs(v) < 1e-12f) { yGm.SetValue(i, -1.0f); continue; }   // a zero gradient: nothing to spread
        yGm.SetValue(i, abs(v));
    }
    int64_t far = -5000000000LL;
    yGm.SetValue(8, (float)abs(far));
    int32_t small = -7;
    yGm.SetValue(9, (float)abs(small));
}
'''


def _run(tmp_path, include):
    src = tmp_path / "scale_rows.cpp"
    src.write_text(KERNEL.replace("INCLUDE_MATH", include))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    g = np.array([-0.25, 0.5, 0.0, -3.75, 1e-20, -0.001, 2.0, -0.0], np.float32)
    r = run(b, [GM("g", g), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    return g, r.outputs["y"]


def _expected(g):
    return np.where(np.abs(g) < 1e-12, -1.0, np.abs(g)).astype(np.float32)


def test_abs_of_a_float_is_not_truncated(tmp_path):
    g, y = _run(tmp_path, "")
    assert (y[:8] == _expected(g)).all(), y[:8]
    assert y[8] == np.float32(5e9) and y[9] == 7


def test_abs_with_the_kernels_own_math_h(tmp_path):
    "libstdc++'s <math.h> brings std::abs into the global namespace: the same results, no clash."
    g, y = _run(tmp_path, "#include <math.h>")
    assert (y[:8] == _expected(g)).all(), y[:8]
    assert y[8] == np.float32(5e9) and y[9] == 7
