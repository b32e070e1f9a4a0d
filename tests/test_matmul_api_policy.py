"""A Matmul's MATMUL_POLICY of the kernel's own, as ops-transformer's prompt_flash_attention and
fused_infer_attention_score write one: a class template derived from MatmulPolicy, picked through a selector, whose
replacing modules are written against the module macros (MATMUL_USE_MODULE, MATMUL_USE_MODULE_ON, MATMUL_MODULE) and
operand types (MatmulInputAType, InputTypeTag). A policy that replaces nothing is the policy it derives from (the
default Matmul, or the upper triangle); one that replaces a module compiles and stops at the Matmul's first
IterateAll with an error naming the replaced modules, as the emulation does not run them. Also the padded copy of a
block into UB (GetTensorC<sync, doPad = true>), which the same kernels use for a head size that is not a multiple of 16."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(27)


@pytest.fixture(scope="module")
def policy_build():
    return {e: build(KERNELS / "matmul_api_policy.cpp", entry=e) for e in ("matmul_plain", "matmul_upper", "matmul_staged")}


def _product(b, before):
    m, n, k, base = 64, 96, 32, 32                      # 2 x 3 base blocks
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=base,
                          baseN=base, baseK=base, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", before(m, n), "inout"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    return a.astype(np.float64) @ bm.astype(np.float64), r


def test_a_policy_that_replaces_nothing_is_the_default_matmul(policy_build):
    full, r = _product(policy_build["matmul_plain"], lambda m, n: np.zeros((m, n), np.float32))
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], full, rtol=1e-5, atol=1e-4)


def test_a_policy_derived_from_the_upper_triangle_keeps_its_triangle(policy_build):
    kept = np.full((64, 96), -7.0, np.float32)
    full, r = _product(policy_build["matmul_upper"], lambda m, n: kept.copy())
    assert r.ok, "\n".join(map(str, r.diagnostics))
    inside = (np.arange(64)[:, None] // 32) <= (np.arange(96)[None, :] // 32)
    np.testing.assert_allclose(r.outputs["c"], np.where(inside, full, kept), rtol=1e-5, atol=1e-4)
    assert not inside.all() and inside.any()


def test_a_policy_that_replaces_modules_compiles_and_stops_naming_them(policy_build):
    _, r = _product(policy_build["matmul_staged"], lambda m, n: np.zeros((m, n), np.float32))
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "matmul-usage", "\n".join(map(str, r.diagnostics))
    assert "MATMUL_POLICY that replaces its module(s) Context and CopyCubeInA is not emulated" in errs[0].message
    assert "mm.IterateAll(cGm);" in errs[0].source_line


def test_a_policy_not_derived_from_matmul_policy_is_a_compile_error(tmp_path):
    src = (KERNELS / "matmul_api_policy.cpp").read_text()
    old = "    struct Result : Impl::Detail::MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};\n"
    assert src.count(old) == 1
    kernel = tmp_path / "bare.cpp"
    kernel.write_text(src.replace(old, "    struct Result { using Context = int; };\n"))
    b = build(kernel, entry="matmul_plain")
    assert not b.ok
    assert any("derives from AscendC::Impl::Detail::MatmulPolicy" in d.message for d in b.diagnostics if d.is_error)


@pytest.fixture(scope="module")
def pad_build():
    return build(KERNELS / "matmul_api_pad.cpp")


def _pad_run(b, height):
    m, n, k = 16, 20, 32                                # 20 floats: 80 bytes, padded to 24 floats (96 bytes)
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=m,
                          baseN=n, baseK=k, depthA1=1, depthB1=1, stepM=1, stepN=1, dbL0A=1, dbL0B=1, dbL0C=1)
    tiling += np.uint32(height).tobytes()
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("y", np.full((m, 24), 5.0, np.float32), "out"),
                GM("cache", np.zeros((m, n), np.float32)), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    return a.astype(np.float64) @ bm.astype(np.float64), r


def test_get_tensor_c_with_do_pad_pads_each_row_with_zeros(pad_build):
    c, r = _pad_run(pad_build, 16)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    y = r.outputs["y"]
    np.testing.assert_allclose(y[:, :20], c, rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(y[:, 20:], 0)      # the padding: zeros, not what the buffer held


def test_get_tensor_c_with_do_pad_of_another_height_is_a_named_error(pad_build):
    _, r = _pad_run(pad_build, 8)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "matmul-usage", "\n".join(map(str, r.diagnostics))
    assert "doPad = true> of 8 x 20 (srcGap 0) from a 16 x 20 block of C is not emulated" in errs[0].message
    assert "GetTensorC<false, true>" in errs[0].source_line
