"""IterateAll into a LocalTensor (the API reference's second IterateAll form, C to a VECIN tensor): in the mixed form the
whole single-core C lands in the tensor, each block at its own place (row stride C's N). AscendC's A2 client asserts the
synchronous form and enAtomic 0 there: both other uses stop at their line with an error naming the rule, as does a C in
L1 (TSCM), which is not emulated. The kernel is accepted by the official headers (api-oracle check.sh, AIV,
GET_TILING_DATA written out as a struct copy)."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_iterate_all_ub.cpp"
RNG = np.random.default_rng(41)
M, N, K = 96, 80, 64          # two halves of 48 rows, one per AIV; 32 x 48 blocks leave 16-row and 32-column tails


def _run(source: Path):
    a = RNG.standard_normal((M, K)).astype(np.float16)
    b = RNG.standard_normal((K, N)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=M, N=N, Ka=K, Kb=K, singleCoreM=M // 2, singleCoreN=N, singleCoreK=K,
                          baseM=32, baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1,
                          dbL0A=2, dbL0B=2, dbL0C=1)
    kern = build(source)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", b), GM("c", np.full((M, N), 7.0, np.float32), "out"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    return a, b, r


def test_iterate_all_into_ub_puts_each_block_at_its_place():
    a, b, r = _run(KERNEL)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ b.astype(np.float64) + 0.5, rtol=1e-5, atol=1e-4)


MISUSES = {
    "async": ("mm.IterateAll(cLocal);", "mm.template IterateAll<false>(cLocal);", "synchronous form"),
    "atomic": ("mm.IterateAll(cLocal);", "mm.IterateAll(cLocal, 1);", "enAtomic"),
    "tscm": ("using CType = MatmulType<TPosition::VECIN,", "using CType = MatmulType<TPosition::TSCM,", "TSCM"),
}


@pytest.mark.parametrize("misuse", sorted(MISUSES))
def test_iterate_all_into_ub_misuse_stops_at_its_line(misuse, tmp_path):
    old, new, words = MISUSES[misuse]
    text = KERNEL.read_text()
    assert old in text
    source = tmp_path / f"{misuse}.cpp"
    source.write_text(text.replace(old, new))
    _, _, r = _run(source)
    errs = [d for d in r.diagnostics if d.is_error]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "mm.IterateAll(cLocal" in s)
    assert not r.ok and errs, "\n".join(map(str, r.diagnostics))
    assert errs[0].kind == "matmul-usage" and words in errs[0].message and errs[0].line == line, str(errs[0])
