"""The Matmul API as public op projects use it: the host side of tiling/tiling_api.h (matmul_tiling::
MultiCoreMatmulTiling filling a TCubeTiling inside the op's tiling struct, TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...))
and a mixed kernel in which each vector core's Matmul object takes one single-core tile into UB for a vector epilogue
(examples/opprojects/matmul_bias_relu_custom, our own project in that style), run end to end against torch; the
constant-tiling form (GetMMConfig / GetMatmulApiTiling as MM_CFG, REGIST_MATMUL_OBJ with (TCubeTiling*)nullptr)."""
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
        # the only finding allowed: the epilogue's Relu over whole baseN-wide rows of a block whose columns end short
        # of baseN reads the row padding GetTensorC leaves unwritten (a note; DataCopyPad then skips those columns)
        extra = [d for d in r.run.diagnostics if not (d.kind == "ub-uninitialised" and d.severity == "note"
                                                        and "Relu(y, x" in d.source_line)]
        assert not extra, [d.render() for d in extra]
    # MultiCoreMatmulTiling splits M x N as CANN's GetTiling does (SetShape given: its search over the divisors of the
    # 16-row / 16-column counts): 200 x 256 over 48 AIVs is 13 AIVs of 16 rows, 64 x 96 x 64 fits L0 whole and takes
    # one AIV; the launch counts groups of 1 AIC + 2 AIVs
    assert [r.block_dim for _, r in results] == [7, 1]


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


def test_tiling_base_class_runs_its_steps_in_order_and_stops_at_a_failure(tmp_path):
    "tiling/tiling_base.h on the host: DoTiling calls the steps in order, stops at the first failure, sets the key."
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    src = tmp_path / "t.cpp"
    src.write_text(r'''
#include <cstdio>
#include <string>
#include "tiling/tiling_base.h"
std::string trail;
struct T : optiling::TilingBaseClass {
    using TilingBaseClass::TilingBaseClass;
    bool failLib = false;
    ge::graphStatus GetShapeAttrsInfo() override { trail += "S"; return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetPlatformInfo() override { trail += "P"; return ge::GRAPH_SUCCESS; }
    bool IsCapable() override { trail += "C"; return true; }
    ge::graphStatus DoOpTiling() override { trail += "O"; return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoLibApiTiling() override { trail += "L"; return failLib ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS; }
    ge::graphStatus GetWorkspaceSize() override { trail += "W"; return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override { trail += "T"; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 7; }
};
int main() {
    T ok(nullptr), bad(nullptr);
    bad.failLib = true;
    const bool a = ok.DoTiling() == ge::GRAPH_SUCCESS;
    trail += "|";
    const bool b = bad.DoTiling() == ge::GRAPH_FAILED;
    std::printf("%s %d %d\n", trail.c_str(), a, b);
}
''')
    exe = tmp_path / "t"
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), str(src), "-o", str(exe)], check=True, capture_output=True)
    assert subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split() == ["SPCOLWT|SPCOL", "1", "1"]


def test_bfloat16_under_both_of_its_matmul_tiling_names(tmp_path):
    "matmul_tiling::DataType::DT_BFLOAT16 (33, the later name; ops-nn fused_linear_cross_entropy_loss_grad) tiles as DT_BF16."
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    src = tmp_path / "t.cpp"
    src.write_text(r'''
#include <cstdio>
#include "tiling/tiling_api.h"
static_assert(static_cast<int>(matmul_tiling::DataType::DT_BFLOAT16) == 33, "the official value");
int main() {
    for (auto dt : {matmul_tiling::DataType::DT_BF16, matmul_tiling::DataType::DT_BFLOAT16}) {
        matmul_tiling::MatmulApiTiling mm;
        mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
        mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
        mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
        mm.SetShape(256, 192, 512);
        mm.SetOrgShape(256, 192, 512);
        mm.SetBias(false);
        mm.SetBufferSpace(-1, -1, -1);
        optiling::TCubeTiling t;
        int r = mm.GetTiling(t);
        std::printf("%d %d %d %d %d %d\n", r, t.get_baseM(), t.get_baseN(), t.get_baseK(), t.get_depthA1(), t.get_stepKa());
    }
}
''')
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), str(src), "-o", str(tmp_path / "t")], check=True)
    bf16, bfloat16 = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout.splitlines()
    assert bf16 == bfloat16 and bf16.split()[0] == "0", (bf16, bfloat16)


def test_the_fp8_types_have_matmul_tilings_own_numbers(tmp_path):
    """matmul_tiling::DataType numbers FP8 as the official enum does (E4M3FN 35, E5M2 36), the other way round from
    ge::DataType (E5M2 35, E4M3FN 36): host code that casts a GE dtype by value sees what it sees under CANN."""
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    src = tmp_path / "t.cpp"
    src.write_text(r'''
#include "tiling/tiling_api.h"
#include "register/op_def_registry.h"
static_assert(static_cast<int>(matmul_tiling::DataType::DT_FLOAT8_E4M3FN) == 35, "matmul_tiling's E4M3FN");
static_assert(static_cast<int>(matmul_tiling::DataType::DT_FLOAT8_E5M2) == 36, "matmul_tiling's E5M2");
static_assert(static_cast<int>(ge::DT_FLOAT8_E5M2) == 35 && static_cast<int>(ge::DT_FLOAT8_E4M3FN) == 36, "GE's");
static_assert(static_cast<matmul_tiling::DataType>(ge::DT_FLOAT8_E5M2) == matmul_tiling::DataType::DT_FLOAT8_E4M3FN,
              "a cast by value swaps them, as under CANN");
int main() {}
''')
    subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", str(INCLUDE_DIR), str(src)], check=True)
