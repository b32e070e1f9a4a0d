"""The Matmul's bias from a LocalTensor (the SetBias page: SetBias(const LocalTensor<BiasT>&), TPosition TSCM or VECOUT,
at least singleN elements): element j is the bias of the single-core shape's column j. Checked against NumPy with three
base blocks along N, each adding its own part of the bias."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_bias_local.cpp"
RNG = np.random.default_rng(21)


def test_bias_from_a_tscm_tensor_matches_numpy():
    m, n, k = 32, 48, 32
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    bias = RNG.standard_normal(n).astype(np.float32)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=16, baseK=32, depthA1=1, depthB1=1, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=1,
                          dbL0B=1, dbL0C=1, isBias=1)
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", b), GM("bias", bias), GM("c", np.zeros((m, n), np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ref = a.astype(np.float64) @ b.astype(np.float64) + bias
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-3)
