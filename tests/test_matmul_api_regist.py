"""REGIST_MATMUL_OBJ's tiling argument as AscendC takes it (a typed null pointer for a constant tiling in MM_CFG; a bare
nullptr is a compile error because AscendC deduces the tiling's type from the argument), and the core's buffer sizes
under AscendC's names (TOTAL_L0A_SIZE ...)."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, build, run

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
STATIC = KERNELS / "matmul_api_static.cpp"


def test_a_bare_nullptr_tiling_is_a_compile_error_naming_the_typed_form(tmp_path):
    src = STATIC.read_text()
    assert "(TCubeTiling*)nullptr" in src
    kernel = tmp_path / "bare.cpp"
    kernel.write_text(src.replace("(TCubeTiling*)nullptr", "nullptr"))
    b = build(kernel)
    assert not b.ok
    said = "\n".join(map(str, b.diagnostics))
    assert "GetCurTiling" in said and "(TCubeTiling*)nullptr" in said


def test_a_static_cast_null_tiling_runs_on_the_constant_tiling(tmp_path):
    kernel = tmp_path / "cast.cpp"
    kernel.write_text(STATIC.read_text().replace("(TCubeTiling*)nullptr", "static_cast<TCubeTiling*>(nullptr)"))
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(3)
    a, bm = (rng.standard_normal((64, 64)).astype(np.float16) for _ in range(2))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((64, 64), np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_a_typed_null_tiling_without_a_constant_tiling_is_a_usage_error(tmp_path):
    # CFG_NORM holds no tiling: AscendC's Init would read through the null pointer
    src = STATIC.read_text().replace("Matmul<AType, BType, CType, CType, STATIC_TILING> mm;",
                                     "Matmul<AType, BType, CType, CType, CFG_NORM> mm;")
    kernel = tmp_path / "norm.cpp"
    kernel.write_text(src)
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", np.zeros((64, 64), np.float16)), GM("b", np.zeros((64, 64), np.float16)),
                GM("c", np.zeros((64, 64), np.float32), "out")], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "matmul-usage" and "null TCubeTiling" in errs[0].message


SIZES = '''#include "kernel_operator.h"
using namespace AscendC;
static_assert(TOTAL_L0A_SIZE == 64 * 1024 && TOTAL_L0B_SIZE == 64 * 1024, "L0A/L0B");
static_assert(TOTAL_L0C_SIZE == 128 * 1024, "L0C");
static_assert(TOTAL_L1_SIZE == 512 * 1024 - 128, "L1 less the Matmul server's reserve");
static_assert(TOTAL_UB_SIZE == 192 * 1024 && TOTAL_VEC_LOCAL_SIZE == 184 * 1024, "UB");
extern "C" __global__ __aicore__ void sizes(GM_ADDR out)
{
    GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer((__gm__ uint32_t*)out, 8);
    o.SetValue(0, TOTAL_L0A_SIZE / 2 / sizeof(half));   // a kernel's ping-pong half of L0A, in elements
    o.SetValue(1, TOTAL_L1_SIZE);
}
'''


def test_buffer_sizes_under_ascendc_names():
    b = build({"sizes.cpp": SIZES})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("out", np.zeros(8, np.uint32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["out"][:2]) == [16384, 512 * 1024 - 128]


def _float_static(tmp_path, hf32_line: str):
    src = (STATIC.read_text().replace("CubeFormat::ND, half>", "CubeFormat::ND, float>")
           .replace("GlobalTensor<half> aGm, bGm;", "GlobalTensor<float> aGm, bGm;")
           .replace("(__gm__ half *)", "(__gm__ float *)")
           .replace("    mm.IterateAll(cGm);", f"    {hf32_line}\n    mm.IterateAll(cGm);"))
    assert src.count("float *)") == 3 and hf32_line in src
    kernel = tmp_path / "hf32.cpp"
    kernel.write_text(src)
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(5)
    a, bm = (rng.standard_normal((64, 64)).astype(np.float32) for _ in range(2))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((64, 64), np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-4, atol=1e-4)
    return [d for d in r.diagnostics if d.kind == "hf32-not-emulated"], src


def test_hf32_mode_on_an_fp32_matmul_warns_once_that_it_is_not_emulated(tmp_path):
    warned, src = _float_static(tmp_path, "mm.SetHF32(true, 0);")
    line = next(i for i, s in enumerate(src.splitlines(), 1) if "mm.IterateAll" in s)
    assert len(warned) == 1 and not warned[0].is_error and warned[0].line == line and "HF32" in warned[0].message
    off, _ = _float_static(tmp_path, "mm.SetHF32(false);")
    assert off == []
    raw, _ = _float_static(tmp_path, "SetHF32Mode(HF32Mode::ENABLE); SetHF32TransMode(HF32TransMode::NEAREST_ZERO);")
    assert len(raw) == 1


# A Matmul kernel without ASCENDC_CUBE_ONLY (cann-ops matmul_api_constant's form): MIX, one group of 1 AIC + 2 AIVs per
# block, each AIV (GetBlockIdx 0 and 1) the client of its own half of C. Run as AIC-only, the one core would leave the
# second half unwritten.
MIX_HALVES = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_mix(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    if (GetBlockIdx() >= t.usedCoreNum) return;
    const int32_t row0 = GetBlockIdx() * t.singleCoreM;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a + row0 * t.Ka, t.singleCoreM * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c + row0 * t.N, t.singleCoreM * t.N);
    TPipe pipe;
    Matmul<AType, AType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
'''


def test_a_matmul_kernel_without_cube_only_is_mix_and_both_aivs_compute_their_half():
    from ascendcraft.emu import Tiling
    from test_emu_cube import tcube_tiling
    m, n, k = 64, 48, 32
    rng = np.random.default_rng(9)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=m // 2, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"mix.cpp": MIX_HALVES})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
    # the same kernel marked cube-only runs on one AIC per block: one block computes only the first half
    cube = build({"cube.cpp": MIX_HALVES.replace('#include "lib/matmul_intf.h"',
                                                 '#define ASCENDC_CUBE_ONLY\n#include "lib/matmul_intf.h"')})
    rc = run(cube, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                    GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert rc.ok, "\n".join(map(str, rc.diagnostics))
    np.testing.assert_allclose(rc.outputs["c"][: m // 2], (a.astype(np.float64) @ bm.astype(np.float64))[: m // 2],
                               rtol=1e-5, atol=1e-4)
    assert not np.allclose(rc.outputs["c"][m // 2:], (a.astype(np.float64) @ bm.astype(np.float64))[m // 2:])


def test_an_aiv_client_registered_with_a_null_tiling_computes_with_the_servers_tiling():
    # ops-transformer incre_flash_attention: its kernel gives REGIST_MATMUL_OBJ the TCubeTiling only in the cube core's
    # pass (`#ifdef __DAV_C220_CUBE__`) and a typed nullptr in the vector core's; AscendC's client keeps the null pointer
    # and the server on the AIC does the work with its own tiling, so both AIVs compute their half with it
    from ascendcraft.emu import Tiling
    from test_emu_cube import tcube_tiling
    src = MIX_HALVES.replace("    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);",
                             "#ifdef __DAV_C220_CUBE__\n    const TCubeTiling* mmTiling = &t;\n#else\n"
                             "    const TCubeTiling* mmTiling = nullptr;\n#endif\n"
                             "    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, mmTiling);")
    assert "mmTiling = nullptr" in src
    m, n, k = 64, 48, 32
    rng = np.random.default_rng(11)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=m // 2, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"mix_null.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
