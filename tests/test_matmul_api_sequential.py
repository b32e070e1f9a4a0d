"""GetTensorC into GM with enSequentialWrite (the GetTensorC page: the sequential write writes the block,
[baseM, baseN]; the kernel decides where each block goes): the block lands at the tensor it is given, its rows baseN
apart, whatever its place in C. Checked against NumPy with the blocks stored in reverse order."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_sequential.cpp"
RNG = np.random.default_rng(7)


def test_sequential_write_puts_each_block_where_the_kernel_says():
    m, n, k, base_m = 64, 32, 32, 16
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=base_m,
                          baseN=n, baseK=k, depthA1=1, depthB1=1, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=1,
                          dbL0B=1, dbL0C=1)
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", b), GM("c", np.zeros((m, n), np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ref = (a.astype(np.float64) @ b.astype(np.float64)).reshape(m // base_m, base_m, n)[::-1].reshape(m, n)
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-3)
