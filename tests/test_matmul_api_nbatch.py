"""The Matmul API's IterateNBatch (the API reference: one call runs batchLoop IterateBatch computations, their C into
the workspace SetWorkspace gave): step s takes A's batches s x batchA .. and B's s x batchB .., and its C matrices follow
those of the steps before it. Checked against NumPy, with B shared inside each step (batchB = 1) and not."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_nbatch.cpp"
RNG = np.random.default_rng(33)


@pytest.mark.parametrize("batch_b", [1, 2])
def test_iterate_n_batch_steps_through_the_batches(batch_b):
    loops, batch_a, m, n, k = 2, 2, 32, 48, 64
    a = RNG.standard_normal((loops * batch_a, m, k)).astype(np.float16)
    bm = RNG.standard_normal((loops * batch_b, k, n)).astype(np.float16)
    ref = np.stack([a[s * batch_a + i].astype(np.float64) @ bm[s * batch_b + (i % batch_b)].astype(np.float64)
                    for s in range(loops) for i in range(batch_a)])
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=16, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=2,
                          dbL0B=2, dbL0C=1, BatchNum=batch_a)
    tiling += np.array([loops, batch_a, batch_b], np.int32).tobytes()
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", bm), GM("c", np.zeros((loops * batch_a, m, n), np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-3)
