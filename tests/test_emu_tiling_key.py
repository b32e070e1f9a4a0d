"""Tiling keys: TILING_KEY_IS / TILING_KEY_LIST run the branch of the launch's key, which comes from run(tiling_key=)
or from the host tiling function (SetTilingKey). A key no branch handles, and a kernel that writes no output at all,
are errors, never a silent success."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, Workspace, build, run, trace

HERE = Path(__file__).parent / "emu_kernels" / "tiling_key"
KEYED = (HERE / "keyed.cpp").read_text()
X = np.random.default_rng(5).standard_normal((2, 256)).astype(np.float32)
WANT = {1: X + 1, 2: 2 * X, 3: -X, 4: -X}


def args():
    return [GM("x", X), GM("y", np.empty_like(X), "out"), Workspace(0), Tiling(b"\0" * 8)]


@pytest.mark.parametrize("key", sorted(WANT))
def test_each_key_runs_its_branch(key):
    r = run(build({"keyed.cpp": KEYED}), args(), block_dim=2, tiling_key=key)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    assert r.tiling_key == key
    np.testing.assert_allclose(r.outputs["y"], WANT[key], rtol=1e-6)


def test_a_key_without_a_branch_is_an_error_naming_it():
    r = run(build({"keyed.cpp": KEYED}), args(), block_dim=2, tiling_key=7)
    assert not r.ok
    d = r.errors[0]
    assert d.kind == "tiling-key" and d.context["tiling_key"] == 7 and d.context["keys"] == "1, 2, 3, 4"
    assert "tiling key 7" in d.message and d.file == "keyed.cpp"
    assert d.line == KEYED.splitlines().index("    if (TILING_KEY_IS(1)) {") + 1
    assert "tiling_key=" in d.hint


def test_the_default_key_is_zero_and_is_checked_too():
    r = run(build({"keyed.cpp": KEYED}), args(), block_dim=2)
    assert [d.kind for d in r.errors] == ["tiling-key"] and r.errors[0].context["tiling_key"] == 0


def test_a_default_branch_handles_every_other_key():
    text = KEYED.replace("    } else if (TILING_KEY_LIST(3, 4)) {", "    } else {")
    r = run(build({"keyed.cpp": text}), args(), block_dim=2, tiling_key=9)
    assert r.ok and not r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], -X, rtol=1e-6)


def test_the_host_tiling_function_sets_the_key():
    b = build({"keyed.cpp": KEYED, "host_key.cpp": (HERE / "host_key.cpp").read_text()})
    r = run(b, [GM("x", X), GM("y", np.empty_like(X), "out"), Workspace(), Tiling()], host_args=[2, 2])
    assert r.ok and r.tiling_key == 2 and r.block_dim == 2
    np.testing.assert_allclose(r.outputs["y"], 2 * X, rtol=1e-6)
    # an explicit key wins over SetTilingKey
    r = run(b, [GM("x", X), GM("y", np.empty_like(X), "out"), Workspace(), Tiling()], host_args=[2, 2], tiling_key=1)
    assert r.ok and r.tiling_key == 1
    np.testing.assert_allclose(r.outputs["y"], X + 1, rtol=1e-6)


def test_trace_mode_follows_the_key():
    b = build({"keyed.cpp": KEYED})
    t = trace(b, args(), block_dim=2, tiling_key=2)
    assert t.count("Muls") == 2 and t.count("Adds") == 0


NOTHING = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void nothing(GM_ADDR x, GM_ADDR y, uint32_t n) {
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    if (GetBlockIdx() >= GetBlockNum()) {   // never true: the kernel forgets to do its work
        float v = xGm.GetValue(0); (void)v;
    }
}
"""


def test_a_kernel_that_writes_no_output_is_an_error():
    from ascendcraft.emu import Scalar
    r = run(build({"nothing.cpp": NOTHING}), [GM("x", X), GM("y", np.empty_like(X), "out"), Scalar(512, "uint32_t")],
            block_dim=2)
    assert [d.kind for d in r.errors] == ["no-output"]
    d = r.errors[0]
    assert "'y'" in d.message and d.file == "nothing.cpp" and d.line == 3
