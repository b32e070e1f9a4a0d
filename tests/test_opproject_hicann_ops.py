"""hicann ops-nn / ops-math main-tree op projects run by examples/corpus/hicann_ops_by_hand.py: what their host side
needs of the emulation.

An A2 tiling source that compiles the Ascend 950 one (hicann ops-math bessel_i1e: op_host/arch22/
bessel_i1e_tiling_arch22.cpp is the line `#include "../arch35/bessel_i1e_tiling_arch35.cpp"`, whose
IMPL_OP_OPTILING registers the tiling function): the A2 build links the registration through it, as CANN's build of the
arch22 source does. Before, the host build left both out (the arch22 source registers nothing itself, the arch35 one is
the 950's) and every run stopped at "the host tiling function ascendcraft_tiling returned 2" (no tiling function)."""
import shutil
from pathlib import Path

import pytest
import torch

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.opproject import load_project, run_project

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "tpl_scale_custom"


def _arch22_over_arch35(tmp_path: Path) -> Path:
    shutil.copytree(FOLDER, tmp_path / "p")
    host = tmp_path / "p" / "op_host"
    tiling = (host / "tpl_scale_custom_tiling.cpp").read_text().replace('"../op_kernel/', '"../../op_kernel/')
    (host / "tpl_scale_custom_tiling.cpp").unlink()
    (host / "arch35").mkdir()
    (host / "arch35" / "tpl_scale_custom_tiling_arch35.cpp").write_text(tiling)
    (host / "arch22").mkdir()
    (host / "arch22" / "tpl_scale_custom_tiling_arch22.cpp").write_text(
        '#include "../arch35/tpl_scale_custom_tiling_arch35.cpp"\n')
    return tmp_path / "p"


def test_an_arch22_source_that_includes_the_arch35_tiling_registers_it(tmp_path):
    x = torch.randn(48 * 64)
    r = run_project(load_project(_arch22_over_arch35(tmp_path)), {"x": x}, attrs={"scale": 2.0},
                    reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]


def test_the_arch35_tiling_alone_is_still_left_out_of_the_a2_build(tmp_path):
    folder = _arch22_over_arch35(tmp_path)
    (folder / "op_host" / "arch22" / "tpl_scale_custom_tiling_arch22.cpp").unlink()
    # the A2 build has no tiling function then: since the forty-seventh round the build itself says so (`no-tiling`)
    with pytest.raises(AscendCraftError) as e:
        run_project(load_project(folder), {"x": torch.randn(48 * 64)}, attrs={"scale": 2.0},
                    reference=lambda x, scale: x * scale)
    [d] = e.value.diagnostics
    assert d.kind == "no-tiling" and "registers no tiling function for TplScaleCustom" in d.message, d.render()
    assert "arch35" not in d.message, d.render()   # the host sources it names: the Ascend 950 one is not among them


def test_the_ge_data_type_boundary_names_a_not_yet_known_dtype(tmp_path):
    # hicann ops-nn mse_loss_v2's arch22 tiling starts its dtype at `ge::DT_MAX` (GE's boundary of the data types, past
    # every real one) until it reads the input's; the project stopped at "'DT_MAX' is not a member of 'ge'"
    shutil.copytree(FOLDER, tmp_path / "p")
    host = tmp_path / "p" / "op_host" / "tpl_scale_custom_tiling.cpp"
    text = host.read_text()
    old = "    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();\n"
    assert old in text
    host.write_text(text.replace(old, "    ge::DataType dtype = ge::DT_MAX;\n"
                                      "    static_assert(ge::DT_MAX > ge::DT_FLOAT4_E1M2, \"past every data type\");\n"
                                      "    if (dtype == ge::DT_MAX) dtype = context->GetInputDesc(0)->GetDataType();\n"))
    x = torch.randn(48 * 64)
    r = run_project(load_project(tmp_path / "p"), {"x": x}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]
