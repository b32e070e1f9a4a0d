"""The multi-core Matmul tiling keeps to the two constraints on its split that the API reference documents:
SetAlignSplit (singleCoreM / singleCoreN are multiples of the given values) and SetSingleRange (singleCoreM /
singleCoreN lie inside the given bounds); a pair of constraints no split meets makes GetTiling fail (-1). Without them
the split is the emulation's own heuristic (the documents give no rule for it: docs/corpus.md, thirty-first round)."""
import subprocess

import pytest

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    matmul_tiling::MultiCoreMatmulTiling t;
    t.SetDim(8);
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(M, N, 64);
    t.SetOrgShape(M, N, 64);
    CONSTRAINT;
    optiling::TCubeTiling td;
    long r = t.GetTiling(td);
    std::printf("%ld %d %d %d\n", r, (int)td.singleCoreM, (int)td.singleCoreN, (int)td.usedCoreNum);
}
'''


def split(tmp_path, m, n, constraint):
    src = tmp_path / "split.cpp"
    src.write_text(HOST.replace("M, N", f"{m}, {n}").replace("CONSTRAINT", constraint or "(void)0"))
    exe = tmp_path / "split"
    cc = subprocess.run(["g++", "-std=c++17", f"-I{INCLUDE_DIR}", str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    return [int(v) for v in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]


@pytest.mark.parametrize("m,n", [(512, 512), (200, 1000)])
def test_align_split_and_single_range_bound_the_split(tmp_path, m, n):
    r, sm, sn, cores = split(tmp_path, m, n, "")
    assert r == 0 and cores <= 8
    r, sm, sn, cores = split(tmp_path, m, n, "t.SetAlignSplit(128, 96, -1)")
    assert r == 0 and cores <= 8
    assert (sm % 128 == 0 or sm == m) and (sn % 96 == 0 or sn == n), (sm, sn)
    r, sm, sn, cores = split(tmp_path, m, n, "t.SetSingleRange(64, -1, -1, -1, 256, -1)")
    assert r == 0 and sm <= 64 and sn >= 256 and cores <= 8, (sm, sn, cores)


def test_a_range_no_split_meets_fails_the_tiling(tmp_path):
    # 8 cores cannot give 512 rows in pieces of at most 32 (16 pieces)
    r, *_ = split(tmp_path, 512, 64, "t.SetSingleRange(32, 64, -1, -1, 64, -1)")
    assert r == -1
