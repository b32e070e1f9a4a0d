"""get_para_base(), the device compiler's builtin for the launch's parameter area: one 8-byte word per kernel parameter
in the entry's order, the tiling bytes right after them. A kernel in the style of hicann ops-math gcd reads its
tensors' addresses from the words and its tiling in place, after its five parameters (`paramBase + 5`)."""
import struct

import numpy as np

from ascendcraft.emu import GM, Tiling, Workspace, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
struct AddTiling { int64_t total; int64_t scale; };
extern "C" __global__ __aicore__ void add_scaled(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR* paramBase = reinterpret_cast<GM_ADDR*>(get_para_base());
    const AddTiling* t = reinterpret_cast<const AddTiling*>(paramBase + 5);
    GlobalTensor<float> a, b, out;
    a.SetGlobalBuffer((__gm__ float*)paramBase[0], t->total);
    b.SetGlobalBuffer((__gm__ float*)paramBase[1], t->total);
    out.SetGlobalBuffer((__gm__ float*)paramBase[2], 64);
    for (int64_t i = 0; i < t->total; ++i) out.SetValue(i, a.GetValue(i) * static_cast<float>(t->scale) + b.GetValue(i));
    // the words are the parameters themselves
    out.SetValue(60, paramBase[2] == y && paramBase[0] == x1 && paramBase[1] == x2 ? 1.0f : -1.0f);
    out.SetValue(61, paramBase[3] == workspace ? 1.0f : -1.0f);
    out.SetValue(62, paramBase[4] == tiling ? 1.0f : -1.0f);
    // the inline bytes are the tiling's
    out.SetValue(63, *reinterpret_cast<const int64_t*>(tiling) == t->total ? 1.0f : -1.0f);
}
'''


def test_get_para_base_gives_the_parameters_and_the_inline_tiling():
    rng = np.random.default_rng(3)
    x1 = rng.standard_normal(64).astype(np.float32)
    x2 = rng.standard_normal(64).astype(np.float32)
    total, scale = 40, 3
    r = run(build({"k.cpp": KERNEL}), [GM("x1", x1), GM("x2", x2), GM("y", np.zeros(64, np.float32), "inout"),
                                       Workspace(256), Tiling(struct.pack("<qq", total, scale))], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_array_equal(y[:total], x1[:total] * np.float32(scale) + x2[:total])
    assert not y[total:60].any()                            # the tiling's total (40), read in place, bounds the loop
    assert list(y[60:]) == [1.0, 1.0, 1.0, 1.0]
