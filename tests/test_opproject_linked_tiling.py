"""An op whose tiling function another op's host source registers (hicann ops-nn gemma_rms_norm: its op_host holds only
the definition; its op_host/CMakeLists.txt names `DEPENDENCIES rms_norm`, whose rms_norm_tiling.cpp has
`IMPL_OP_OPTILING(GemmaRmsNorm)`). The corpus links that source into the project as a one-line
op_host/ascendcraft_linked_N.cpp over the source stored as <its path>.cpp.inc (examples/corpus/corpus.py `_link_in`).
The host glue includes only the op_host sources that register something, and did not look through that include: every
run stopped at "GemmaRmsNorm registers no tiling function" (the host tiling function returned 2), 12 of 12 cases."""
import shutil
from pathlib import Path

import pytest
import torch

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.opproject import load_project, run_project

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "tpl_scale_custom"


def _tiling_in_another_op(tmp_path: Path, wrapper: bool = True) -> Path:
    shutil.copytree(FOLDER, tmp_path / "p")
    host = tmp_path / "p" / "op_host"
    tiling = (host / "tpl_scale_custom_tiling.cpp").read_text().replace('"../op_kernel/', '"../../../op_kernel/')
    (host / "tpl_scale_custom_tiling.cpp").unlink()
    other = tmp_path / "p" / "corpus_repo" / "other_op" / "op_host"
    other.mkdir(parents=True)
    (other / "other_op_tiling.cpp.inc").write_text(tiling)
    if wrapper:
        (host / "ascendcraft_linked_0.cpp").write_text(
            "// a host source of the same build target\n#include \"../corpus_repo/other_op/op_host/other_op_tiling.cpp.inc\"\n")
    return tmp_path / "p"


def test_a_linked_host_source_that_registers_the_tiling_is_built_in(tmp_path):
    x = torch.randn(48 * 64)
    r = run_project(load_project(_tiling_in_another_op(tmp_path)), {"x": x}, attrs={"scale": 2.0},
                    reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]


def test_without_the_linked_source_there_is_still_no_tiling_function(tmp_path):
    # since the forty-seventh round the build says so (`no-tiling`), naming the host sources it compiled
    with pytest.raises(AscendCraftError) as e:
        run_project(load_project(_tiling_in_another_op(tmp_path, wrapper=False)), {"x": torch.randn(48 * 64)},
                    attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    [d] = e.value.diagnostics
    assert d.kind == "no-tiling" and "registers no tiling function for TplScaleCustom (host sources compiled: " \
        "op_host/tpl_scale_custom_def.cpp)" in d.message, d.render()


def test_one_linked_source_under_two_wrappers_is_built_in_once(tmp_path):
    # a kept project folder materialised again links the source again (ascendcraft_linked_1.cpp, the same include):
    # included twice, its definitions clashed ("multiple definition", hicann ops-nn swi_glu_grad)
    folder = _tiling_in_another_op(tmp_path)
    (folder / "op_host" / "ascendcraft_linked_1.cpp").write_text((folder / "op_host" / "ascendcraft_linked_0.cpp").read_text())
    x = torch.randn(48 * 64)
    r = run_project(load_project(folder), {"x": x}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]


def test_a_linked_source_that_registers_other_ops_stays_out_of_the_glue(tmp_path):
    # hicann ops-nn foreach_norm links foreach_reduce_tiling_func.cpp (IMPL_OP_OPTILING(ForeachNorm)) and
    # foreach_tiling_func.cpp (the other foreach ops'), whose constants clash with the first's in one translation unit
    folder = _tiling_in_another_op(tmp_path)
    other = folder / "corpus_repo" / "other_op" / "op_host"
    tiling = other / "other_op_tiling.cpp.inc"
    tiling.write_text(tiling.read_text() + "\nnamespace optiling { constexpr int kShared = 1; }\n")
    (other / "more_ops_tiling.cpp.inc").write_text(
        '#include "register/op_def_registry.h"\nnamespace optiling { constexpr int kShared = 2; }\n'
        "static ge::graphStatus MoreTiling(gert::TilingContext*) { return ge::GRAPH_FAILED; }\n"
        "IMPL_OP_OPTILING(SomeOtherOp).Tiling(MoreTiling);\n")
    (folder / "op_host" / "ascendcraft_linked_1.cpp").write_text(
        '#include "../corpus_repo/other_op/op_host/more_ops_tiling.cpp.inc"\n')
    x = torch.randn(48 * 64)
    r = run_project(load_project(folder), {"x": x}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]
