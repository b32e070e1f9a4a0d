"""The Matmul API as public op projects use it: the host side of tiling/tiling_api.h (matmul_tiling::
MultiCoreMatmulTiling filling a TCubeTiling inside the op's tiling struct, TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...))
and a mixed kernel in which each vector core's Matmul object takes one single-core tile into UB for a vector epilogue
(examples/opprojects/matmul_bias_relu_custom, our own project in that style), run end to end against torch; the
constant-tiling form (GetMMConfig / GetMatmulApiTiling as MM_CFG, REGIST_MATMUL_OBJ with nullptr)."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.emu import GM, build, run
from ascendcraft.opproject import run_cases, run_project

PROJECT = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "matmul_bias_relu_custom"
KERNELS = Path(__file__).parent / "emu_kernels" / "good"


def test_host_tiling_and_mixed_matmul_epilogue_run_end_to_end():
    results = run_cases(PROJECT)
    assert [n for n, _ in results] == ["200x256x128", "64x96x64"]
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
        assert not r.run.diagnostics, [d.render() for d in r.run.diagnostics]
    # MultiCoreMatmulTiling split M x N over the 48 AIVs; the launch counts groups of 1 AIC + 2 AIVs
    assert [r.block_dim for _, r in results] == [24, 12]


def test_a_shape_the_host_tiling_refuses_is_an_error():
    a, b, bias = torch.zeros(64, 64).half(), torch.zeros(32, 96).half(), torch.zeros(96)   # K of a and b differ
    r = run_project(PROJECT, {"a": a, "b": b, "bias": bias}, outputs={"c": ((64, 96), "float32")})
    assert not r.run.ok and [d.kind for d in r.run.errors] == ["host-tiling"]


def test_constant_tiling_stands_in_for_the_tcubetiling():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((64, 64)).astype(np.float16)
    b = rng.standard_normal((64, 64)).astype(np.float16)
    k = build(KERNELS / "matmul_api_static.cpp")
    assert k.ok, "\n".join(map(str, k.diagnostics))
    r = run(k, [GM("a", a), GM("b", b), GM("c", np.empty((64, 64), np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)
