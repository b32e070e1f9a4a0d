"""DataCopy(bias table tensor, L1 tensor, count): the count form of an L1 -> bias table (C2) copy, one element type.
On A2 it is one burst of count / (64 / sizeof(T)) 64-byte units (the DataCopyParams the count form sets); cann-ops
mmad copies its float bias so (op_kernel/mmad.cpp:140), which had stopped as not emulated."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(48)

# the float bias: GM -> L1 as float, then the count form into the bias table
EDITS = [("biasGm.SetGlobalBuffer((__gm__ half *)bias, N);", "biasGm.SetGlobalBuffer((__gm__ float *)bias, N);"),
         ("pipe.InitBuffer(inBias1, 1, N * sizeof(half));", "pipe.InitBuffer(inBias1, 1, N * sizeof(float));"),
         ("LocalTensor<half> l1Bias = inBias1.AllocTensor<half>();", "LocalTensor<float> l1Bias = inBias1.AllocTensor<float>();"),
         ("l1Bias = inBias1.DeQue<half>();", "l1Bias = inBias1.DeQue<float>();"),
         ("DataCopy(bt, l1Bias, DataCopyParams(1, N * sizeof(half) / 64, 0, 0));", "DataCopy(bt, l1Bias, N);"),
         ("GlobalTensor<half> biasGm;", "GlobalTensor<float> biasGm;")]


def test_a_float_bias_copied_to_the_bias_table_by_its_element_count(tmp_path):
    text = (KERNELS / "cube_gemm.cpp").read_text()
    for old, new in EDITS:
        assert old in text, old
        text = text.replace(old, new)
    src = tmp_path / "cube_gemm_bias_count.cpp"
    src.write_text(text)
    b = build(src, entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m, n, k = 32, 64, 64
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    bias = RNG.standard_normal(n).astype(np.float32)
    args = [GM("a", a), GM("b", np.ascontiguousarray(bm.T)), GM("bias", bias), GM("c", np.empty((m, n), np.float32), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ref = a.astype(np.float64) @ bm.astype(np.float64) + bias.astype(np.float64)
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


def test_fixpipe_reads_its_last_column_group_for_msize_rows_not_srcstride(tmp_path):
    # (cann-ops mmad: nSize 16, one 16-column group of L0C, moved with srcStride 64 from a 32-row L0C buffer: the
    # stride between groups is never used, and the Fixpipe reads 32 rows; it had stopped as an L0C overflow)
    text = (KERNELS / "cube_gemm.cpp").read_text()
    old = "p.nSize = N; p.mSize = M; p.srcStride = m1 * 16;"
    assert old in text
    src = tmp_path / "cube_gemm_wide_stride.cpp"
    src.write_text(text.replace(old, "p.nSize = N; p.mSize = M; p.srcStride = m1 * 32;"))
    b = build(src, entry="gemm_f16")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m, n, k = 32, 16, 64
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    args = [GM("a", a), GM("b", bm), GM("c", np.empty((m, n), np.float16), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), a.astype(np.float64) @ bm.astype(np.float64), rtol=2e-2, atol=2e-2)
