"""Both AIVs of a mixed group calling the same Matmul (no sub-block guard, asc-devkit's batch_matmul_iterate_n_batch).

In the Matmul API's client / server form (the REGIST_MATMUL_OBJ page: the AIC runs only when an AIV calls a Matmul
interface; the CubeResGroupHandle page: each AIV's call is a message the AIC serves) each AIV's call is its own request,
so the group's one AIC computes the product twice into the same workspace. When both ask for the same product, the
second write leaves every byte as it was: AIV 0 reading the workspace meanwhile reads the same values, so it is no race.
When the two requests write different bytes, the cross-core check still stops at the second write."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_mix_pair.cpp"
RNG = np.random.default_rng(15)
M, N, K = 32, 64, 32


def _run(distinct):
    a = RNG.standard_normal((M, K)).astype(np.float16)
    b = RNG.standard_normal((2, K, N)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=M, N=N, Ka=K, Kb=K, singleCoreM=M, singleCoreN=N, singleCoreK=K, baseM=32,
                          baseN=64, baseK=32, depthA1=1, depthB1=1, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=1,
                          dbL0B=1, dbL0C=1)
    tiling += np.array([distinct], np.int32).tobytes()
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", b), GM("c", np.zeros((M, N), np.float32), "out"),
                   GM("workspace", np.zeros((M, N), np.float32), "workspace"), Tiling(tiling)], block_dim=1)
    return a, b, r


def test_both_aivs_asking_for_the_same_product_is_no_race():
    a, b, r = _run(distinct=0)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ b[0].astype(np.float64), rtol=1e-5, atol=1e-3)


def test_two_requests_writing_different_bytes_still_race():
    _, _, r = _run(distinct=1)
    assert not r.ok
    text = "\n".join(map(str, r.diagnostics))
    assert "cross-core-race" in text and "workspace" in text, text
