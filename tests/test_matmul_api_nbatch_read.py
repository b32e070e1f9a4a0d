"""The Matmul API's asynchronous reads (the API reference's GetBatchTensorC / GetBatchC after IterateNBatch<false>, and
AsyncGetTensorC after Iterate<false>), on a kernel of our own checked against NumPy; and the named errors for a read
AscendC does not support (after the synchronous IterateNBatch) or past the steps IterateNBatch wrote."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_nbatch_read.cpp"
RNG = np.random.default_rng(38)
LOOPS, BATCH_A, M, N, K = 3, 2, 32, 48, 64


def case(batch_b: int, form: int, kernel=None, loops: int = LOOPS):
    a = RNG.standard_normal((loops * BATCH_A, M, K)).astype(np.float16)
    b = RNG.standard_normal((loops * batch_b, K, N)).astype(np.float16)
    per = max(BATCH_A, batch_b)
    ref = np.stack([a[s * BATCH_A + i % BATCH_A].astype(np.float64) @ b[s * batch_b + i % batch_b].astype(np.float64)
                    for s in range(loops) for i in range(per)])
    tiling = tcube_tiling(usedCoreNum=1, M=M, N=N, Ka=K, Kb=K, singleCoreM=M, singleCoreN=N, singleCoreK=K, baseM=M,
                          baseN=N, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=2,
                          dbL0B=2, dbL0C=1, BatchNum=BATCH_A,
                          # BSNGD with N = G = 1: each batch a whole matrix after the one before
                          ALayoutInfoB=loops * BATCH_A, ALayoutInfoS=M, ALayoutInfoN=1, ALayoutInfoG=1, ALayoutInfoD=K,
                          BLayoutInfoB=loops * batch_b, BLayoutInfoS=K, BLayoutInfoN=1, BLayoutInfoG=1, BLayoutInfoD=N,
                          CLayoutInfoB=loops * per, CLayoutInfoS1=M, CLayoutInfoN=1, CLayoutInfoG=1, CLayoutInfoS2=N)
    tiling += np.array([loops, BATCH_A, batch_b, form], np.int32).tobytes()
    kern = kernel or build(KERNEL)
    assert kern.ok, "\n".join(map(str, kern.diagnostics))
    r = run(kern, [GM("a", a), GM("b", b), GM("y", np.zeros((loops * per, M, N), np.float32), "out"),
                   GM("z", np.zeros((M, N), np.float32), "out"), GM("cache", np.zeros((loops * per, M, N), np.float32), "inout"),
                   GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    return r, ref, a[0].astype(np.float64) @ b[0].astype(np.float64)


@pytest.mark.parametrize("batch_b,form", [(2, 0), (1, 0), (2, 1), (1, 2)])
def test_get_batch_tensor_c_reads_each_step_of_an_asynchronous_iterate_n_batch(batch_b, form):
    r, ref, one = case(batch_b, form)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(r.outputs["z"], one, rtol=1e-5, atol=1e-3)   # AsyncGetTensorC's block


def test_get_batch_tensor_c_needs_the_asynchronous_iterate_n_batch(tmp_path):
    src = KERNEL.read_text().replace("mm.template IterateNBatch<false>(", "mm.IterateNBatch(")
    assert src != KERNEL.read_text()
    (tmp_path / "k.cpp").write_text(src)
    r, _, _ = case(2, 0, kernel=build(tmp_path / "k.cpp"))
    assert not r.ok
    said = "\n".join(map(str, r.diagnostics))
    assert "GetBatchTensorC without an asynchronous IterateNBatch<false>" in said and "k.cpp:" in said


def test_get_batch_tensor_c_past_the_steps_written_is_named(tmp_path):
    src = KERNEL.read_text().replace("for (int32_t s = 0; s < td.loops; ++s)", "for (int32_t s = 0; s < td.loops + 1; ++s)")
    assert src != KERNEL.read_text()
    (tmp_path / "k.cpp").write_text(src)
    r, _, _ = case(2, 0, kernel=build(tmp_path / "k.cpp"))
    assert not r.ok
    assert "past the end of the workspace IterateNBatch wrote" in "\n".join(map(str, r.diagnostics))


MMCONFIG = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_mmconfig_params.cpp"


def test_get_mm_config_takes_the_function_parameters_relu():
    "MatmulFuncParams' enableRelu through GetMMConfig (with batch and bias parameters beside it): C = max(A B, 0)."
    m, n, k = 48, 80, 64
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    full = a.astype(np.float64) @ bm.astype(np.float64)
    assert (full < 0).any() and (full > 0).any()
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build(MMCONFIG)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.full((m, n), 7.0, np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], np.maximum(full, 0), rtol=1e-5, atol=1e-4)
