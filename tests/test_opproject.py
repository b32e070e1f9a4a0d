"""CANN msopgen-style op projects on the emulator (ascendcraft.opproject): the three example projects run end to end
from their folders (TilingFunc on the emulated gert::TilingContext, the kernel with its DTYPE_<NAME> macros, the
PyTorch reference), through the Python API and the CLI; what lies outside the emulated subset is an error naming it."""
import shutil
from pathlib import Path

import pytest
import torch

from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.opproject import load_project, run_cases, run_project

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "opprojects"
PROJECTS = {  # folder -> (op type, tiling keys its cases expect, nested / array tiling fields)
    "scale_add_custom": ("ScaleAddCustom", {1, 2}),
    "leaky_relu_custom": ("LeakyReluCustom", {1, 2}),
    "rms_scale_custom": ("RmsScaleCustom", {1, 2}),
    "row_norm_custom": ("RowNormCustom", {1, 2}),     # SoftMax / RmsNorm with their host tiling functions
    "scale_by_scalar_custom": ("ScaleByScalarCustom", {1, 2}),   # the OpDef written by a macro, a computed dtype list
}


@pytest.mark.parametrize("folder", sorted(PROJECTS))
def test_each_example_project_runs_end_to_end_from_its_folder(folder):
    project = load_project(EXAMPLES / folder)
    assert project.op.type == PROJECTS[folder][0]
    results = run_cases(EXAMPLES / folder)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert {r.tiling_key for _, r in results} == PROJECTS[folder][1]     # every key the tiling function picks, run


def test_the_projects_have_different_tiling_structs_and_a_dtype_macro_each():
    heads = {f: "".join((EXAMPLES / f / "op_host").glob("*_tiling.h").__next__().read_text()) for f in PROJECTS}
    assert "TILING_DATA_FIELD_DEF_ARR" in heads["leaky_relu_custom"]
    assert "TILING_DATA_FIELD_DEF_STRUCT" in heads["rms_scale_custom"]
    assert "float, alpha" in heads["scale_add_custom"]
    for f in PROJECTS:
        kernel = next((EXAMPLES / f / "op_kernel").glob("*.cpp")).read_text()
        assert "DTYPE_X" in kernel and "TILING_KEY_IS" in kernel and "GET_TILING_DATA" in kernel


def test_the_cli_runs_a_project_folder(capsys):
    assert main(["op", str(EXAMPLES / "scale_add_custom")]) == 0
    out = capsys.readouterr().out
    assert "3 of 3 case(s) match the reference" in out and "tiling key 2" in out


def test_the_dtype_picks_the_column_and_a_wrong_reference_is_a_mismatch():
    x = torch.randn(2048, dtype=torch.float16)
    r = run_project(EXAMPLES / "leaky_relu_custom", {"x": x}, attrs={"negative_slope": 0.1},
                    reference=lambda x, negative_slope: torch.nn.functional.leaky_relu(x.float(), 0.3).half(), atol=1e-3, rtol=1e-3)
    assert r.run.ok and r.dtypes == {"x": "DT_FLOAT16", "y": "DT_FLOAT16"} and "y" in r.mismatches


def test_a_kernel_relying_on_auto_sync_fails_with_it_off():
    x = torch.randn(4, 1024)
    r = run_project(EXAMPLES / "rms_scale_custom", {"x": x}, attrs={"epsilon": 1e-5},
                    reference=lambda x, epsilon: x, settings=load_settings().replace(auto_sync=False))
    assert [d.kind for d in r.run.errors] == ["ub-race"] and r.run.errors[0].context["event"] == "V_S"


def copy_project(tmp_path, name):
    dst = tmp_path / name
    shutil.copytree(EXAMPLES / name, dst)
    return dst


def test_a_host_api_outside_the_subset_is_a_compile_error_naming_it(tmp_path):
    folder = copy_project(tmp_path, "scale_add_custom")
    host = folder / "op_host" / "scale_add_custom.cpp"
    host.write_text(host.read_text().replace("    context->SetBlockDim(blocks);",
                                             "    context->SetBlockDim(blocks);\n    context->SetNeedAtomic(true);"))
    with pytest.raises(AscendCraftError) as e:
        run_project(folder, {"x": torch.zeros(512), "y": torch.zeros(512)}, outputs={"z": ((512,), "float32")})
    text = str(e.value)
    assert "SetNeedAtomic" in text and "scale_add_custom" in text


def test_a_failing_tiling_function_and_bad_attributes_are_errors(tmp_path):
    project = load_project(EXAMPLES / "scale_add_custom")
    r = run_project(project, {"x": torch.zeros(100), "y": torch.zeros(100)}, outputs={"z": ((100,), "float32")})
    assert not r.run.ok and [d.kind for d in r.run.errors] == ["host-tiling"]
    with pytest.raises(AscendCraftError, match="has no attribute beta"):
        run_project(project, {"x": torch.zeros(512), "y": torch.zeros(512)}, attrs={"beta": 1.0},
                    outputs={"z": ((512,), "float32")})
    with pytest.raises(AscendCraftError, match="needs input"):
        run_project(project, {"x": torch.zeros(512)}, outputs={"z": ((512,), "float32")})


def test_a_folder_that_is_not_a_project_is_refused(tmp_path):
    with pytest.raises(AscendCraftError, match="op_host/ and op_kernel/"):
        load_project(tmp_path)


def test_dtype_lists_named_by_a_variable_or_computed_at_run_time():
    from ascendcraft.opproject import dtype_macros, parse_op_definition
    src = """namespace ops {
class ForeachScaleCustom : public OpDef {
public:
    explicit ForeachScaleCustom(const char* name) : OpDef(name) {
        std::vector<ge::DataType> tensor_dtypes = {ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32};
        std::vector<ge::DataType> scalar_dtypes;
        std::for_each(tensor_dtypes.cbegin(), tensor_dtypes.cend(), [&](ge::DataType d) { scalar_dtypes.push_back(d); });
        this->Input("x").ParamType(REQUIRED).DataType(tensor_dtypes).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scalar").ParamType(REQUIRED).DataType(scalar_dtypes);
        this->Output("y").ParamType(REQUIRED).DataType(tensor_dtypes);
    }
};
OP_ADD(ForeachScaleCustom);
}"""
    op = parse_op_definition(src, "op_host/foreach_scale_custom.cpp")
    assert [p.dtypes for p in op.inputs + op.outputs] == [["DT_FLOAT16", "DT_FLOAT", "DT_INT32"]] * 3
    assert dtype_macros(op, 1)["DTYPE_SCALAR"] == "float"


def test_a_definition_written_by_a_macro_is_read_from_the_compiled_op_host():
    # EWISE_TENSOR_SCALAR_OPDEF (include/ewise/ewise_opdef.h) writes the class; the scalar's dtypes are computed in a
    # loop (float for float16 tensors): only the compiled definition gives them, as CANN's build reads it
    from ascendcraft.opproject import dtype_macros
    op = load_project(EXAMPLES / "scale_by_scalar_custom").op
    assert op.type == "ScaleByScalarCustom" and [p.name for p in op.inputs] == ["x", "scalar"]
    assert [p.dtypes for p in op.inputs + op.outputs] == [["DT_FLOAT16", "DT_FLOAT"], ["DT_FLOAT", "DT_FLOAT"],
                                                         ["DT_FLOAT16", "DT_FLOAT"]]
    assert dtype_macros(op, 0)["DTYPE_SCALAR"] == "float" and dtype_macros(op, 0)["DTYPE_X"] == "half"


def test_a_macro_definition_that_does_not_compile_names_the_compiler_error(tmp_path):
    folder = copy_project(tmp_path, "scale_by_scalar_custom")
    shutil.rmtree(folder / "include")
    with pytest.raises(AscendCraftError) as e:
        load_project(folder)
    assert "no operator definition" in str(e.value) and "ewise/ewise_opdef.h" in str(e.value)
