"""The Matmul's C in CubeFormat::ND_ALIGN (asc-devkit matmul_format_nd_align): rows N rounded up to 32 bytes apart, the
padding columns left as they are (the Matmul guide: no result there)."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_bias.cpp"
RNG = np.random.default_rng(31)


def test_nd_align_output_rows_are_32_bytes_apart(tmp_path):
    text = KERNEL.read_text()
    old_c = "using CType = MatmulType<TPosition::GM, CubeFormat::ND, OUT>;"
    assert old_c in text
    src = tmp_path / "matmul_nd_align.cpp"
    src.write_text(text.replace(old_c, "using CType = MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, OUT>;"))
    m, n, k = 32, 20, 64                          # 20 floats a row: 24 (96 bytes) with the alignment
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    bias = RNG.standard_normal(n).astype(np.float32)
    ref = a.astype(np.float64) @ bm.astype(np.float64) + bias
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=1, depthB1=1, stepM=1, stepN=1, isBias=1, dbL0A=2, dbL0B=2,
                          dbL0C=1) + np.int32(0).tobytes()
    b = build(src, entry="matmul_bias_f16")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    c = np.full((m, 24), -7.0, np.float32)
    r = run(b, [GM("a", a), GM("b", bm), GM("bias", bias), GM("c", c, "inout"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    got = r.outputs["c"].reshape(m, 24)
    np.testing.assert_allclose(got[:, :n], ref, rtol=1e-5, atol=1e-4)
    assert (got[:, n:] == -7.0).all()             # the padding is not written
