"""Mmad without a bias tensor but with cmatrixSource = true and cmatrixInitVal = false: C starts from the bias table
(BT, TPosition::C2) at its start, as the API reference describes (asc-devkit's mmad example, scenario 1); DumpTensor of
an L1 tensor (the API reference: UB, L1 or L0C tensors) prints it (asc-devkit's basic batch_matmul)."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(31)


def _gemm_source(tmp_path: Path, old: str, new: str) -> Path:
    text = (KERNELS / "cube_gemm.cpp").read_text()
    assert old in text
    src = tmp_path / "cube_gemm_variant.cpp"
    src.write_text(text.replace(old, new))
    return src


def _args(m, n, k):
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    bias = RNG.standard_normal(n).astype(np.float16)
    args = [GM("a", a), GM("b", np.ascontiguousarray(bm.T)), GM("bias", bias), GM("c", np.empty((m, n), np.float32), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    return args, a.astype(np.float64) @ bm.astype(np.float64) + bias.astype(np.float64)


def test_mmad_from_the_bias_table_without_a_bias_tensor(tmp_path):
    src = _gemm_source(tmp_path, "Mmad(c1, a2, b2, bt, p);",
                       "p.cmatrixInitVal = false; p.cmatrixSource = true; Mmad(c1, a2, b2, p);")
    b = build(src, entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args, ref = _args(32, 64, 64)
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


def test_mmad_init_zero_wins_over_the_bias_table(tmp_path):
    "cmatrixInitVal = true: C starts from 0 whatever cmatrixSource says."
    src = _gemm_source(tmp_path, "Mmad(c1, a2, b2, bt, p);",
                       "p.cmatrixInitVal = true; p.cmatrixSource = true; Mmad(c1, a2, b2, p);")
    b = build(src, entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args, ref = _args(32, 64, 64)
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    bias = args[2].array.astype(np.float64)
    np.testing.assert_allclose(r.outputs["c"], ref - bias, rtol=1e-5, atol=1e-4)


def test_dump_tensor_of_l1_and_not_of_l0a(tmp_path):
    src = _gemm_source(tmp_path, "inBias1.FreeTensor(l1Bias);",
                       "DumpTensor(l1Bias, 7, 4); inBias1.FreeTensor(l1Bias);")
    b = build(src, entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args, ref = _args(32, 64, 64)
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert "DumpTensor: desc=7" in r.stdout
    shown = [float(v) for v in r.stdout.split("DumpTensor: desc=7")[1].split(":", 1)[1].split()[:4]]
    np.testing.assert_allclose(shown, args[2].array[:4].astype(np.float64), rtol=1e-5)   # printed with %g
    bad = _gemm_source(tmp_path, "inBias1.FreeTensor(l1Bias);", "DumpTensor(a2, 7, 4); inBias1.FreeTensor(l1Bias);")
    b = build(bad, entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, args, block_dim=1)
    errs = r.errors
    assert not r.ok and errs[0].kind == "cube-position" and "L0A" in errs[0].message and "DumpTensor" in errs[0].source_line
