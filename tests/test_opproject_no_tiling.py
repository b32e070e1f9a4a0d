"""An op project whose kernel reads its tiling data (GET_TILING_DATA) while its host build registers no tiling function
for the op's type is a `no-tiling` build error at the kernel's read, not a build that looks whole: CANN's runtime finds
no tiling function for such an op and fails its launch (GE's FindImplFuncs: "auto funcs/tiling/tiling_parse is null").
Before, the build was ok (cann-ops' foreach ops "built whole" with their shared tiling source missing, forty-sixth
round) and only a run said it, from the glue, at no line of the project."""
import shutil
from pathlib import Path

import pytest
import torch

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.opproject import build_project, load_project, run_project

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
SET_TILING = "        this->AICore().SetTiling(optiling::TilingFunc);\n"


def _copy(tmp_path, host_edit) -> Path:
    """scale_add_custom with its op_host source edited by `host_edit` (text -> text); the OpDef's SetTiling line is
    taken out first."""
    folder = tmp_path / "scale_add_custom"
    shutil.copytree(FOLDER, folder)
    host = folder / "op_host" / "scale_add_custom.cpp"
    text = host.read_text()
    assert text.count(SET_TILING) == 1, "scale_add_custom's OpDef no longer calls SetTiling once"
    host.write_text(host_edit(text.replace(SET_TILING, "")))
    return folder


def test_a_project_that_registers_no_tiling_is_a_build_error_at_the_kernels_read(tmp_path):
    project = load_project(_copy(tmp_path, lambda t: t))
    b = build_project(project)
    assert not b.ok
    d = b.errors[0]
    assert (d.kind, d.file, d.line) == ("no-tiling", "op_kernel/scale_add_custom.cpp", 68), d.render()
    assert d.source_line.strip() == "GET_TILING_DATA(tilingData, tiling);" and d.col == 5
    text = d.render()
    assert "registers no tiling function for ScaleAddCustom" in text and "op_host/scale_add_custom.cpp" in text
    assert "^^^^^^^^^^^^^^^\n" in text and "IMPL_OP_OPTILING(ScaleAddCustom).Tiling(fn)" in text   # the caret and the hint
    with pytest.raises(AscendCraftError, match="registers no tiling function"):   # a run stops at the build, so
        run_project(project, {"x": torch.zeros(512), "y": torch.zeros(512)}, outputs={"z": ((512,), "float32")})


def test_a_tiling_registered_apart_or_by_a_macro_builds(tmp_path):
    impl = "\nnamespace ops {\nIMPL_OP_OPTILING(ScaleAddCustom)\n    .Tiling(optiling::TilingFunc);\n}\n"
    b = build_project(load_project(_copy(tmp_path / "a", lambda t: t + impl)))
    assert b.ok, [d.render() for d in b.errors]
    # a registration whose type a macro pastes (cann-ops' FOREACH_OPDEF style): text cannot resolve it, so it counts
    macro = ("\n#define REGISTER_TILING(OP) IMPL_OP_OPTILING(OP).Tiling(optiling::TilingFunc)\n"
             "namespace ops {\nREGISTER_TILING(ScaleAddCustom);\n}\n")
    b = build_project(load_project(_copy(tmp_path / "m", lambda t: t + macro)))
    assert b.ok, [d.render() for d in b.errors]
    # an IMPL_OP of the op's type that registers only its shape inference registers no tiling
    infer = "\nnamespace ops {\nIMPL_OP_INFERSHAPE(ScaleAddCustom).InferShape(ge::InferShape);\n}\n"
    b = build_project(load_project(_copy(tmp_path / "i", lambda t: t + infer)))
    assert [d.kind for d in b.errors][:1] == ["no-tiling"], [d.render() for d in b.errors]


def test_a_kernel_reads_its_tiling_by_the_macros_or_by_its_tiling_parameter():
    from ascendcraft.opproject import _tiling_read_at
    head = '#include "kernel_operator.h"\n'
    raw = (head + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tilingGm)\n{\n'
           '    auto t = reinterpret_cast<__gm__ uint8_t *>(tilingGm);\n}\n')
    assert _tiling_read_at({"op_kernel/k.cpp": raw}, "op_kernel/k.cpp", "k") == ("op_kernel/k.cpp", 4, 49, 8)
    # the read in a header the kernel includes, in a macro's body (the name a #define defines is no read)
    hdr = '#define GET_TILING_DATA_LOCAL(a, b) GET_TILING_DATA(a, b)\n    GET_TILING_DATA_WITH_STRUCT(T, t, tiling);\n'
    kern = '#include "k.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {}\n'
    assert _tiling_read_at({"op_kernel/k.cpp": kern, "op_kernel/k.h": hdr}, "op_kernel/k.cpp", "k")[:3] == \
        ("op_kernel/k.h", 1, 37)
    none = head + 'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)\n{\n}\n'
    assert _tiling_read_at({"op_kernel/k.cpp": none}, "op_kernel/k.cpp", "k") is None
