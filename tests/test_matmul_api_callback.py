"""MatmulCallBackFunc: a kernel's own copy functions for C (L0C -> GM) and for A and B (GM -> L1). The emulated Matmul
does not call them, so a Matmul with one set compiles (the callback's signature and DataCopyOutParams as AscendC has
them) and stops at its first Iterate / IterateAll with an error that names the callback, never a result computed with
the default copies instead. With all three null the Matmul computes as before."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

STATIC = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_static.cpp"

CALLBACKS = '''
__aicore__ inline void MyCopyOut(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local, const void* dataCopyOutParams,
                                 const uint64_t tilingPtr, const uint64_t dataPtr)
{
    const DataCopyOutParams* p = reinterpret_cast<const DataCopyOutParams*>(dataCopyOutParams);
    (void)gm; (void)co1Local; (void)tilingPtr; (void)dataPtr; (void)p->cBurstNum; (void)p->curM; (void)p->oriNSize;
}
__aicore__ inline void MyCopyA1(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                                int useK, const uint64_t tilingPtr, const uint64_t dataPtr)
{ (void)aMatrix; (void)gm; (void)row; (void)col; (void)useM; (void)useK; (void)tilingPtr; (void)dataPtr; }
__aicore__ inline void MyCopyB1(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                                int useN, const uint64_t tilingPtr, const uint64_t dataPtr)
{ (void)bMatrix; (void)gm; (void)row; (void)col; (void)useK; (void)useN; (void)tilingPtr; (void)dataPtr; }
'''


def _kernel(tmp_path, cb: str) -> Path:
    src = STATIC.read_text()
    old = "Matmul<AType, BType, CType, CType, STATIC_TILING> mm;"
    assert src.count(old) == 1 and src.count("extern \"C\"") == 1
    src = src.replace("extern \"C\"", CALLBACKS + "\nextern \"C\"")
    src = src.replace(old, f"Matmul<AType, BType, CType, CType, STATIC_TILING, MatmulCallBackFunc<{cb}>> mm;")
    src = src.replace("    mm.SetTensorA(aGm);\n", "    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(a));\n"
                      "    mm.SetSelfDefineData(reinterpret_cast<uint64_t>(b));\n    mm.SetTensorA(aGm);\n")
    kernel = tmp_path / "cb.cpp"
    kernel.write_text(src)
    return kernel


def _run(kernel):
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(7)
    a, bm = (rng.standard_normal((64, 64)).astype(np.float16) for _ in range(2))
    return a, bm, run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((64, 64), np.float32), "out")], block_dim=1)


@pytest.mark.parametrize("cb, named", [
    ("MyCopyOut, nullptr, nullptr", "DataCopyOut"),
    ("nullptr, MyCopyA1, nullptr", "CopyA1"),
    ("nullptr, nullptr, MyCopyB1", "CopyB1"),
    ("MyCopyOut, MyCopyA1, MyCopyB1", "DataCopyOut, CopyA1 and CopyB1"),
])
def test_a_copy_callback_compiles_and_stops_the_run_naming_it(tmp_path, cb, named):
    _, _, r = _run(_kernel(tmp_path, cb))
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "matmul-usage", "\n".join(map(str, r.diagnostics))
    assert f"callback(s) {named} is not emulated" in errs[0].message
    assert "mm.IterateAll(cGm);" in errs[0].source_line   # the kernel's line that ran the Matmul


def test_null_callbacks_compute_as_before(tmp_path):
    a, bm, r = _run(_kernel(tmp_path, "nullptr, nullptr, nullptr"))
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
