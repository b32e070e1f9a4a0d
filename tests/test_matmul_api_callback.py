"""The Matmul API's MatmulCallBackFunc CopyA1 (the API reference: the user's function copies each baseM x baseK block of
A, row / col its index along M / K, into the Matmul's L1 buffer, replacing the default GM -> L1 copy): a kernel whose A
lies in GM as K / baseK panels of M x baseK, which only its callback reads right. Checked against NumPy."""
from pathlib import Path

import numpy as np
import pytest

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


# The callbacks the emulation does not run still compile (their signatures and DataCopyOutParams as AscendC has them)
# and stop at the Matmul's first Iterate / IterateAll naming them, never a result computed with the default copies.
STATIC = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_static.cpp"
CALLBACKS = '''
__aicore__ inline void MyCopyOut(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local, const void* dataCopyOutParams,
                                 const uint64_t tilingPtr, const uint64_t dataPtr)
{
    const DataCopyOutParams* p = reinterpret_cast<const DataCopyOutParams*>(dataCopyOutParams);
    (void)gm; (void)co1Local; (void)tilingPtr; (void)dataPtr; (void)p->cBurstNum; (void)p->curM; (void)p->oriNSize;
}
__aicore__ inline void MyCopyB1(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                                int useN, const uint64_t tilingPtr, const uint64_t dataPtr)
{ (void)bMatrix; (void)gm; (void)row; (void)col; (void)useK; (void)useN; (void)tilingPtr; (void)dataPtr; }
'''


def _static_with_callbacks(tmp_path, cb: str):
    src = STATIC.read_text()
    old = "Matmul<AType, BType, CType, CType, STATIC_TILING> mm;"
    assert src.count(old) == 1 and src.count("extern \"C\"") == 1
    src = src.replace("extern \"C\"", CALLBACKS + "\nextern \"C\"")
    src = src.replace(old, f"Matmul<AType, BType, CType, CType, STATIC_TILING, MatmulCallBackFunc<{cb}>> mm;")
    (tmp_path / "cb.cpp").write_text(src)
    kern = build(tmp_path / "cb.cpp")
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    a, bm = (RNG.standard_normal((64, 64)).astype(np.float16) for _ in range(2))
    return a, bm, run(kern, [GM("a", a), GM("b", bm), GM("c", np.zeros((64, 64), np.float32), "out")], block_dim=1)


@pytest.mark.parametrize("cb, named", [("MyCopyOut, nullptr, nullptr", "DataCopyOut"),
                                       ("nullptr, nullptr, MyCopyB1", "CopyB1")])
def test_a_callback_not_run_stops_the_run_naming_it(tmp_path, cb, named):
    _, _, r = _static_with_callbacks(tmp_path, cb)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "matmul-usage", "\n".join(map(str, r.diagnostics))
    assert f"callback(s) {named} is not emulated" in errs[0].message
    assert "mm.IterateAll(cGm);" in errs[0].source_line   # the kernel's line that ran the Matmul


def test_null_callbacks_compute_as_before(tmp_path):
    a, bm, r = _static_with_callbacks(tmp_path, "nullptr, nullptr, nullptr")
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
