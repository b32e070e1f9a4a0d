"""GE's graph status codes an op host returns: hicann ops-nn rms_norm_quant's tiling returns
`ge::GRAPH_PARAM_OUT_OF_RANGE` for a shape it does not take; the project did not build ("'GRAPH_PARAM_OUT_OF_RANGE' is
not a member of 'ge'"). GE's value (ge_error_codes.h) is 50331644, one of the GRAPH_PARAM_INVALID family."""
import shutil
from pathlib import Path

import torch

from ascendcraft.opproject import load_project, run_project

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "tpl_scale_custom"


def test_a_tiling_that_returns_graph_param_out_of_range_builds_and_the_run_stops_at_the_tiling(tmp_path):
    shutil.copytree(FOLDER, tmp_path / "p")
    host = tmp_path / "p" / "op_host" / "tpl_scale_custom_tiling.cpp"
    text = host.read_text()
    old = "    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();\n"
    assert old in text
    host.write_text(text.replace(old, old + "    static_assert(ge::GRAPH_PARAM_OUT_OF_RANGE == 50331644u, \"GE's value\");\n"
                                 "    if (context->GetInputShape(0)->GetStorageShape().GetShapeSize() > 100000)"
                                 " return ge::GRAPH_PARAM_OUT_OF_RANGE;\n"))
    x = torch.randn(48 * 64)
    r = run_project(load_project(tmp_path / "p"), {"x": x}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]
    r = run_project(load_project(tmp_path / "p"), {"x": torch.randn(200000)}, attrs={"scale": 2.0},
                    reference=lambda x, scale: x * scale)
    assert not r.run.ok and [d.kind for d in r.run.diagnostics if d.is_error][:1] == ["host-tiling"]
