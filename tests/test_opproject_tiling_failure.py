"""A tiling function that refuses the run is named at its `return ge::GRAPH_FAILED`, with the shapes it was given and
what it printed; before, the run said "the host tiling function ascendcraft_tiling returned 3 ... check the host
arguments (host_args)", at the kernel file, and warned that the never-started kernel wrote into y's padding."""
import shutil
from pathlib import Path

import torch

from ascendcraft.opproject import load_project, run_project

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "leaky_relu_custom"
REFERENCE = lambda x, negative_slope: torch.nn.functional.leaky_relu(x, negative_slope)


def _run(folder, n):
    return run_project(load_project(folder), {"x": torch.randn(n)}, attrs={"negative_slope": 0.2}, reference=REFERENCE)


def test_a_refused_shape_is_named_at_the_return_that_refused_it_and_nothing_else_is_said():
    r = _run(FOLDER, 100)   # 100 floats: not whole 256-byte units
    assert not r.run.ok
    [d] = r.run.diagnostics   # no padding warning: the kernel never started
    assert (d.kind, d.file, d.line, d.col) == ("host-tiling", "op_host/leaky_relu_custom.cpp", 16, 53), d.render()
    assert "x DT_FLOAT (100,), negative_slope=0.2" in d.message
    assert d.source_line.strip() == "if (total <= 0 || total % unit != 0) return ge::GRAPH_FAILED;"
    assert _run(FOLDER, 128).ok   # the same project on a shape it takes


def test_the_innermost_return_is_the_place_and_a_comparison_that_held_is_not(tmp_path):
    shutil.copytree(FOLDER, tmp_path / "p", ignore=shutil.ignore_patterns("__pycache__"))
    host = tmp_path / "p" / "op_host" / "leaky_relu_custom.cpp"
    text = host.read_text()
    helper = ("static ge::graphStatus CheckUnits(int64_t total, uint32_t unit)\n{\n"
              "    const ge::graphStatus none = total == 0 ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;\n"
              "    if (none == ge::GRAPH_FAILED) return none;\n"
              "    if (total % unit != 0) {\n"
              "        std::printf(\"%ld elements are not whole units of %u\\n\", static_cast<long>(total), unit);\n"
              "        return ge::GRAPH_FAILED;\n"
              "    }\n"
              "    return ge::GRAPH_SUCCESS;\n}\n")
    old = "    if (total <= 0 || total % unit != 0) return ge::GRAPH_FAILED;\n"
    assert old in text and "static ge::graphStatus TilingFunc" in text
    text = text.replace("static ge::graphStatus TilingFunc", helper + "static ge::graphStatus TilingFunc", 1)
    text = text.replace(old, "    if (CheckUnits(total, unit) != ge::GRAPH_SUCCESS)\n        return ge::GRAPH_FAILED;\n")
    host.write_text("#include <cstdio>\n" + text)
    lines = host.read_text().splitlines()
    inner = next(k for k, l in enumerate(lines, 1) if l.strip() == "return ge::GRAPH_FAILED;" and "printf" in lines[k - 2])
    outer = next(k for k, l in enumerate(lines, 1) if "CheckUnits(total, unit) != ge::GRAPH_SUCCESS" in l) + 1
    r = _run(tmp_path / "p", 100)
    [d] = r.run.diagnostics
    assert (d.file, d.line) == ("op_host/leaky_relu_custom.cpp", inner), d.render()
    assert f"then at op_host/leaky_relu_custom.cpp:{outer}" in d.message
    assert "100 elements are not whole units of 64" in d.hint   # what the function printed
    assert _run(tmp_path / "p", 128).ok


def test_a_using_declaration_of_graph_failed_compiles_and_its_returns_are_still_placed(tmp_path):
    # cann-ops conv3d_backprop_filter_v2's definition file says `using ge::GRAPH_FAILED;` and returns the bare name: the
    # emulated header's GRAPH_FAILED macro (which notes each place) made that declaration `using ge::graph_failed_at(
    # __FILE__, __LINE__);`, "expected ';' before '(' token", and the project no longer built
    shutil.copytree(FOLDER, tmp_path / "p", ignore=shutil.ignore_patterns("__pycache__"))
    host = tmp_path / "p" / "op_host" / "leaky_relu_custom.cpp"
    text = host.read_text()
    old = "    if (total <= 0 || total % unit != 0) return ge::GRAPH_FAILED;\n"
    assert old in text and "namespace optiling {\n" in text
    text = text.replace("namespace optiling {\n", "using ge::GRAPH_FAILED;\nnamespace optiling {\n", 1)
    host.write_text(text.replace(old, "    if (total <= 0 || total % unit != 0) return GRAPH_FAILED;\n"))
    line = next(k for k, l in enumerate(host.read_text().splitlines(), 1) if "return GRAPH_FAILED;" in l)
    r = _run(tmp_path / "p", 100)
    assert not r.run.ok
    [d] = r.run.diagnostics
    assert (d.kind, d.file, d.line) == ("host-tiling", "op_host/leaky_relu_custom.cpp", line), d.render()
    assert _run(tmp_path / "p", 128).ok
