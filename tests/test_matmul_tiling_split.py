"""MultiCoreMatmulTiling::GetTiling splits M x N (and K when asked) over the cores as CANN's GetTiling does
(matmul_tiling.h's core_split; the rule is restated in docs/corpus.md, thirty-third round, split).

Each case is a published outcome: a shape, the host settings that gave it, and the TCubeTiling fields the page or the
example prints or relies on. The first group are the documents' outcomes, the second the host settings of the three
asc-devkit examples whose kernels depend on the split (their GM offsets assume it)."""
import subprocess

import pytest

from ascendcraft.emu import INCLUDE_DIR

FIELDS = ("usedCoreNum", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN", "baseK", "depthA1", "depthB1",
          "stepM", "stepN", "stepKa", "stepKb")

HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
using namespace matmul_tiling;
int main() {
    platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    MultiCoreMatmulTiling t(*platform);
    SETUP
    optiling::TCubeTiling d;
    long r = t.GetTiling(d);
    std::printf("r %ld\n", r);
    PRINTS
}
'''

# A, B fp16 ND in GM (A in TSCM / NZ where said), C float, bias float
FP16 = ("t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);"
        "t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);"
        "t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);"
        "t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);")


def tiling(tmp_path, setup):
    prints = "".join(f'std::printf("{f} %d\\n", (int)d.{f});' for f in FIELDS)
    src = tmp_path / "split.cpp"
    src.write_text(HOST.replace("SETUP", setup).replace("PRINTS", prints))
    exe = tmp_path / "split"
    cc = subprocess.run(["g++", "-std=c++17", f"-I{INCLUDE_DIR}", str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    out = dict(line.split() for line in run.stdout.splitlines())
    return {k: int(v) for k, v in out.items()}, run.stderr


def shape(m, n, k, *, dim, set_shape=True, bias=False):
    s = f"t.SetDim({dim});" + FP16 + f"t.SetOrgShape({m}, {n}, {k});"
    if set_shape: s += f"t.SetShape({m}, {n}, {k});"
    return s + ("t.EnableBias(true);" if bias else "")


NBUFFER33 = "t.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::N_BUFFER_33, MatrixTraverse::NOSET, false));"

DOCUMENTED = {
    # Matmul性能调优案例 / Matmul高阶API使能NBuffer33模板 (the matmul_nbuffer33 example's shape, 24 AIC cores): two
    # cores along N, A's 2 x 3 base blocks whole in L1
    "nbuffer33_tuning_case": (shape(256, 512, 192, dim=24, bias=True) + NBUFFER33,
                              dict(usedCoreNum=2, singleCoreM=256, singleCoreN=256, singleCoreK=192, baseM=128, baseN=256,
                                   baseK=64, stepM=2, stepN=1, stepKa=3, stepKb=3)),
    # matmul_leakyrelu_advanced_api's README: 512 x 128 x 128 on SetDim(2) with SetFixSplit(128, 64, 128) splits N only
    "leakyrelu_readme_n_split": (shape(512, 128, 128, dim=2, bias=True) + "t.SetFixSplit(128, 64, 128);",
                                 dict(usedCoreNum=2, singleCoreM=512, singleCoreN=64, baseM=128, baseN=64)),
    # matmul_tscm copies the whole A into each core's TSCM from that core's offset: 64 x 64 x 64 on 24 cores is one core
    "tscm_small_shape_one_core": (shape(64, 64, 64, dim=24, bias=True).replace(
                                      "t.SetAType(TPosition::GM, CubeFormat::ND", "t.SetAType(TPosition::TSCM, CubeFormat::NZ"),
                                  dict(usedCoreNum=1, singleCoreM=64, singleCoreN=64, singleCoreK=64)),
    # Matmul高阶API使能多核切K: 16 x 16 x 1024 on 24 cores; EnableMultiCoreSplitK halves K
    "split_k_on": (shape(16, 16, 1024, dim=24) + "t.EnableMultiCoreSplitK(true);",
                   dict(usedCoreNum=2, singleCoreM=16, singleCoreN=16, singleCoreK=512)),
    "split_k_off": (shape(16, 16, 1024, dim=24), dict(usedCoreNum=1, singleCoreM=16, singleCoreN=16, singleCoreK=1024)),
    # matmul_advanced_api's README: 512 x 512 x 128 on SetDim(2) splits M
    "advanced_api_m_split": (shape(512, 512, 128, dim=2, bias=True), dict(usedCoreNum=2, singleCoreM=256, singleCoreN=512)),
    # Matmul高阶API使能MDL模板: 128 x 30720 x 1024 on 24 AIC cores, base 128 x 256 x 64 (with and without SetShape)
    "mdl_case": (shape(128, 30720, 1024, dim=24),
                 dict(usedCoreNum=24, singleCoreM=128, singleCoreN=1280, singleCoreK=1024)),
    "mdl_case_org_shape_only": (shape(128, 30720, 1024, dim=24, set_shape=False),
                                dict(usedCoreNum=24, singleCoreM=128, singleCoreN=1280, singleCoreK=1024, baseM=128,
                                     baseN=256, baseK=64)),
    # Matmul高阶API使能MTE2-Preload: 128 x 24576 x 512 on 24 cores
    "mte2_preload_case": (shape(128, 24576, 512, dim=24), dict(usedCoreNum=24, singleCoreM=128, singleCoreN=1024,
                                                               singleCoreK=512)),
    # the precision FAQ's printed tiling: 1024 x 640 x 256 with a bias -> singleCoreM 512, singleCoreN 640 (its SetDim
    # is not shown; cann-ops' matmul_api_constant, the same shape, uses SetDim(2))
    "precision_faq": (shape(1024, 640, 256, dim=2, bias=True), dict(usedCoreNum=2, singleCoreM=512, singleCoreN=640,
                                                                    singleCoreK=256)),
}

# The three asc-devkit examples' GenerateTiling, call for call (examples/01_simd_cpp_api/...; their kernels'
# offsets assume CANN's split).
EXAMPLES = {
    # 00_introduction/03_fusion_operation/matmul_leakyrelu_advanced_api: SetDim(2) AIVs, C to VECIN, UB given back
    "matmul_leakyrelu_advanced_api": (
        "t.SetDim(2);" + FP16.replace("TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT)",
                                                                              "TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT)", 1)
        + "t.SetOrgShape(512, 128, 128); t.SetShape(512, 128, 128); t.EnableBias(true); t.SetFixSplit(128, 64, 128);"
          "uint64_t ub = 0; platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);"
          "t.SetBufferSpace(-1, -1, ub - 128 * 64 * sizeof(float));",
        dict(usedCoreNum=2, singleCoreM=512, singleCoreN=64, singleCoreK=128, baseM=128, baseN=64)),
    # 04_advanced_api/00_matmul/matmul_nbuffer33: GetCoreNumAic() cores, N_BUFFER_33, no SetTail in its kernel
    "matmul_nbuffer33": (
        "t.SetDim(platform->GetCoreNumAic());" + FP16
        + "t.SetOrgShape(256, 512, 192); t.SetShape(256, 512, 192); t.EnableBias(true); t.SetBufferSpace(-1, -1, -1);"
        + NBUFFER33,
        dict(usedCoreNum=2, singleCoreM=256, singleCoreN=256, singleCoreK=192, baseM=128, baseN=256, baseK=64, stepM=2,
             stepKa=3, stepKb=3)),
    # 04_advanced_api/00_matmul/matmul_tscm: A NZ in TSCM, the whole A copied into each used core
    "matmul_tscm": (
        "t.SetDim(platform->GetCoreNumAic());"
        + FP16.replace("t.SetAType(TPosition::GM, CubeFormat::ND", "t.SetAType(TPosition::TSCM, CubeFormat::NZ")
        + "t.SetOrgShape(64, 64, 64); t.SetShape(64, 64, 64); t.EnableBias(true); t.SetBufferSpace(-1, -1, -1);",
        dict(usedCoreNum=1, singleCoreM=64, singleCoreN=64, singleCoreK=64)),
}


@pytest.mark.parametrize("case", sorted(DOCUMENTED))
def test_documented_outcome(tmp_path, case):
    setup, expected = DOCUMENTED[case]
    got, err = tiling(tmp_path, setup)
    assert got["r"] == 0, err
    assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_example_host_settings(tmp_path, example):
    setup, expected = EXAMPLES[example]
    got, err = tiling(tmp_path, setup)
    assert got["r"] == 0, err
    assert {k: got[k] for k in expected} == expected


def test_nbuffer33_with_a_long_k_stops_named(tmp_path):
    # NBuffer33 keeps A's K whole in at most three base blocks; K = 512 halves are eight: CANN's GetTiling fails, and so
    # does ours, with the reason and the fix
    got, err = tiling(tmp_path, shape(256, 512, 512, dim=24) + NBUFFER33)
    assert got["r"] == -1
    assert "NBuffer33" in err and "EnableMultiCoreSplitK" in err


def test_nbuffer33_with_k_split_takes_three_blocks_of_k_a_core(tmp_path):
    got, err = tiling(tmp_path, shape(256, 512, 512, dim=24) + NBUFFER33 + "t.EnableMultiCoreSplitK(true);")
    assert got["r"] == 0, err
    assert got["singleCoreK"] <= 3 * got["baseK"] and got["stepKa"] == got["stepKb"] <= 3
