"""The Matmul API's 4:2 sparse B (SparseMatmulType + SetSparseIndex, asc-devkit matmul_sparse): B^T densified to N x K / 2
with a 2-bit index for each kept element (the API reference: uint2 packed into uint8, NZ; the selection as MmadWithSparse
describes it: the first index is the first non-zero's place among elements 0..2 of a group of 4, the second the second
non-zero's place among elements 1..3, minus 1). Checked against NumPy's dense product of the sparse B."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_sparse.cpp"
RNG = np.random.default_rng(35)


def densify(bt: np.ndarray):
    "B^T (N x K, two non-zeros in each group of 4) -> dense N x K / 2 and the index matrix N x K / 8 bytes (ND)."
    n, k = bt.shape
    dense = np.zeros((n, k // 2), np.int8)
    idx = np.zeros((n, k // 2), np.uint8)
    for r in range(n):
        for g in range(k // 4):
            nz = [j for j in range(4) if bt[r, 4 * g + j] != 0]
            assert len(nz) == 2
            dense[r, 2 * g:2 * g + 2] = bt[r, 4 * g + nz[0]], bt[r, 4 * g + nz[1]]
            idx[r, 2 * g:2 * g + 2] = nz[0], nz[1] - 1
    packed = (idx[:, 0::4] | (idx[:, 1::4] << 2) | (idx[:, 2::4] << 4) | (idx[:, 3::4] << 6)).astype(np.uint8)
    return dense, packed


def nz_16x8(x: np.ndarray) -> np.ndarray:
    "Bytes in NZ fractals of 16 rows x 8 bytes, column block after column block."
    n, w = x.shape
    assert n % 16 == 0 and w % 8 == 0
    return x.reshape(n, w // 8, 8).transpose(1, 0, 2).copy()


def test_sparse_b_matmul_matches_the_dense_product():
    m, n, k = 32, 64, 128                       # K / 8 = 16 index bytes a row: two NZ column blocks
    a = RNG.integers(-5, 5, (m, k)).astype(np.int8)
    bt = np.zeros((n, k), np.int8)
    for r in range(n):
        for g in range(k // 4):
            places = RNG.choice(4, 2, replace=False)
            bt[r, 4 * g + places] = RNG.choice([v for v in range(-5, 6) if v], 2)
    dense, idx = densify(bt)
    ref = a.astype(np.int32) @ bt.T.astype(np.int32)
    tiling = tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n // 2, singleCoreK=k,
                          baseM=32, baseN=32, baseK=64, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1,
                          dbL0A=2, dbL0B=2, dbL0C=1)
    kern = build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", dense), GM("index", nz_16x8(idx)), GM("c", np.zeros((m, n), np.int32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], ref)
    # the dense B^T read as if it were B^T itself (ignoring the index) is another product: the index was followed
    assert not np.array_equal(a[:, :k // 2].astype(np.int32) @ dense.T.astype(np.int32), ref)
