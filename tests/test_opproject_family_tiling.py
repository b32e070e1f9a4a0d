"""An op project that carries a shared family's tiling headers: one registers this op's struct, another registers
only other ops' (hicann ops-nn foreach_norm links the foreach family's host sources: foreach_reduce_tiling_def.h
registers ForeachNorm, foreach_tiling_def.h the other foreach ops, and both define MAX_TENSOR_CONT). CANN's kernel
tiling header holds only the structs registered for the op, so the kernel never sees the other header; the emulator's
driver included every tiling header and the kernel did not compile ("redefinition of MAX_CORES")."""
import shutil
from pathlib import Path

import pytest
import torch

from ascendcraft.emu import other_ops_tiling_headers
from ascendcraft.opproject import load_project, run_project

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "leaky_relu_custom"

OTHER = """/* Tiling data of the family's other ops: the same constant as LeakyReluCustom's header defines. */
#ifndef FAMILY_OTHER_TILING_H
#define FAMILY_OTHER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t MAX_CORES = 48;

BEGIN_TILING_DATA_DEF(FamilyOtherTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FamilyAbs, FamilyOtherTilingData)
REGISTER_TILING_DATA_CLASS(FamilyAbs_10001, FamilyOtherTilingData)
}  // namespace optiling
#endif  // FAMILY_OTHER_TILING_H
"""


def test_a_tiling_header_of_other_ops_only_is_not_in_the_kernel(tmp_path):
    shutil.copytree(FOLDER, tmp_path / "p", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "p" / "op_host" / "family_other_tiling.h").write_text(OTHER)
    x = torch.randn(48 * 2 * 64)
    r = run_project(load_project(tmp_path / "p"), {"x": x}, attrs={"negative_slope": 0.2},
                    reference=lambda x, negative_slope: torch.nn.functional.leaky_relu(x, negative_slope))
    assert r.ok, [d.render() for d in r.run.diagnostics]


@pytest.mark.parametrize("op_type, kernel_includes, left_out", [
    ("LeakyReluCustom", "", {"op_host/other.h"}),                  # registers FamilyAbs (and a key of it) only
    ("LeakyReluCustom", '#include "other.h"\n', set()),             # the kernel includes it itself
    ("FamilyAbs", "", {"op_host/mine.h"}),                          # the per-key name counts as the op's
    ("Unregistered", "", set()),                                     # no header registers the op: all stay
    (None, "", set()),                                               # not an op project
])
def test_which_tiling_headers_are_left_out(op_type, kernel_includes, left_out):
    mine = "#include \"register/tilingdata_base.h\"\nnamespace optiling {\nREGISTER_TILING_DATA_CLASS(LeakyReluCustom, T)\n}\n"
    sources = {"op_host/mine.h": mine, "op_host/other.h": OTHER, "op_host/shared.h": "BEGIN_TILING_DATA_DEF(S)\n",
               "op_kernel/k.cpp": kernel_includes + "extern \"C\" __global__ __aicore__ void k() {}\n"}
    headers = {n: t for n, t in sources.items() if n.endswith(".h")}
    assert other_ops_tiling_headers(headers, sources, op_type, "op_kernel/k.cpp") == left_out
