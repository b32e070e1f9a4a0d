"""The Matmul API's C in GM in the NZ format (C's MatmulType CubeFormat::NZ), with and without MatmulConfig's
isEnableChannelSplit (the API reference: 16 x 16 fractals, 16 x 8 with the split, float C in NZ to GM only), as
asc-devkit's matmul_channelsplit_output writes it; the emulation wrote such a C as ND rows before. Against NumPy."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_c_nz.cpp"
RNG = np.random.default_rng(36)


def to_nz(x: np.ndarray, w: int) -> np.ndarray:
    "A matrix in NZ: column blocks of w columns, each the rows rounded up to 16, block after block."
    m, n = x.shape
    rows = (m + 15) // 16 * 16
    pad = np.zeros((rows, n), x.dtype)
    pad[:m] = x
    return pad.reshape(rows, n // w, w).transpose(1, 0, 2).reshape(-1)


@pytest.mark.parametrize("split", [0, 1])
def test_c_in_nz_with_and_without_the_channel_split_matches_numpy(split):
    m, n, k = 40, 64, 32                       # M not a multiple of 16: the column blocks are 48 rows tall
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    ref = (a.astype(np.float64) @ bm.astype(np.float64)).astype(np.float32)
    tiling = tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n // 2, singleCoreK=k,
                          baseM=48, baseN=16, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1,
                          dbL0A=2, dbL0B=2, dbL0C=1) + np.int32(split).tobytes()
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    rows = (m + 15) // 16 * 16
    r = run(kern, [GM("a", a), GM("b", bm), GM("c", np.zeros(rows * n, np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    w = 8 if split else 16
    got = r.outputs["c"].reshape(n // w, rows, w)[:, :m, :]
    np.testing.assert_allclose(got, to_nz(ref, w).reshape(n // w, rows, w)[:, :m, :], rtol=1e-5, atol=1e-3)
