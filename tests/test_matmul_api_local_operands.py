"""The Matmul API's A and B from L1 (TPosition::TSCM): SetTensorA/B(LocalTensor) on a TSCM queue the kernel filled
from GM, as asc-devkit's matmul_tscm does; the API reference's SetTensorA: the tensor holds at least singleM x singleK
elements and the Matmul does no GM -> L1 copy of it. A in NZ, B in ND, checked against NumPy."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_tscm.cpp"
RNG = np.random.default_rng(32)


def nz(x: np.ndarray) -> np.ndarray:
    "A matrix in the NZ format of half: 16 columns a block, each block all of its (16-padded) rows."
    rows, cols = x.shape
    assert rows % 16 == 0 and cols % 16 == 0
    return x.reshape(rows, cols // 16, 16).transpose(1, 0, 2).copy()


@pytest.mark.parametrize("b_local", [0, 1])
def test_a_and_b_from_a_tscm_tensor_match_numpy(b_local):
    m, n, k = 64, 48, 96
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=16, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=2,
                          dbL0B=2, dbL0C=1) + np.int32(b_local).tobytes()
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", nz(a)), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-3)
    # read as ND rows, the NZ A would give another product: the format was followed
    assert not np.allclose(nz(a).reshape(m, k).astype(np.float64) @ bm.astype(np.float64), ref, atol=1e-2)


CO1 = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_co1.cpp"


@pytest.mark.parametrize("partial", [0, 1])
def test_iterate_into_a_user_l0c_tensor_then_fixpipe_matches_numpy(partial):
    m, k = 32, 64
    n = 32 if partial else 96       # three 32-wide blocks one after another in L0C, or one block twice
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    ref = a.astype(np.float64) @ bm.astype(np.float64) * (2 if partial else 1)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=2,
                          dbL0B=2, dbL0C=1) + np.int32(partial).tobytes()
    kern = build(CO1)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-3)
