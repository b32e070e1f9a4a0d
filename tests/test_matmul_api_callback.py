"""The Matmul API's MatmulCallBackFunc CopyA1 (the API reference: the user's function copies each baseM x baseK block of
A, row / col its index along M / K, into the Matmul's L1 buffer, replacing the default GM -> L1 copy): a kernel whose A
lies in GM as K / baseK panels of M x baseK, which only its callback reads right. Checked against NumPy."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_callback.cpp"
RNG = np.random.default_rng(34)


def test_copy_a1_callback_feeds_a_and_the_product_matches_numpy():
    m, n, k, base_m, base_k = 64, 48, 96, 32, 32
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    panels = np.ascontiguousarray(a.reshape(m, k // base_k, base_k).transpose(1, 0, 2))   # (K / baseK, M, baseK)
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=base_m,
                          baseN=16, baseK=base_k, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=2,
                          dbL0B=2, dbL0C=1)
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", panels), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-3)
    # the default copy would have read the panels as one M x K matrix
    assert not np.allclose(panels.reshape(m, k).astype(np.float64) @ bm.astype(np.float64), ref, atol=1e-2)
