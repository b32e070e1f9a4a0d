"""CANN's A2 build compiles every source under an op's op_host/op_tiling/, its arch35/ folder too (ops-nn
cmake/func.cmake `add_tiling_sources`: a recursive glob of op_tiling/*.cpp for every SoC); only op_host/arch35/, the
Ascend 950 TILING_DIR, is left out of A2's. ops-nn quant_batch_matmul_v4's A2 registry registers its Ascend 950
templates beside the A2 ones and picks among them at run time, so the A2 link needs their classes, defined under
op_tiling/arch35/. The project build's first tries (the registering sources, then the tiling sources) left every
arch35 folder out, so such an op failed them and linked only in its last try. The project here is our own, in that
layout: a registry source that registers an A2 template and an Ascend 950 one (which refuses on A2), their members
in op_tiling/ and op_tiling/arch35/, and an op_host/arch35/ source that A2 does not compile."""
from pathlib import Path

import numpy as np
import torch

from ascendcraft import opproject
from ascendcraft.opproject import build_project, load_project, run_project
from test_opproject_host_units import HOST, KERNEL, REGISTRY, TILING_H

TEMPLATES_H = r"""#pragma once
#include "../tpl_scale_custom_tiling.h"
#include "../tpl_registry.h"
namespace optiling {
class SplitTiling : public TplTiling {         // the A2 template: doubles on 8 cores
public:
    bool Fits(gert::TilingContext* context) override;
    ge::graphStatus Tile(gert::TilingContext* context) override;
};
class RegBaseTiling : public TplTiling {       // the Ascend 950 one: asked first, refuses on A2
public:
    bool Fits(gert::TilingContext* context) override;
    ge::graphStatus Tile(gert::TilingContext* context) override;
};
}  // namespace optiling
"""

REGISTRY_CPP = r"""#include "tpl_scale_templates.h"
namespace optiling {
REGISTER_TILING_TEMPLATE("TplScaleCustom", RegBaseTiling, 0);
REGISTER_TILING_TEMPLATE("TplScaleCustom", SplitTiling, 1);
}  // namespace optiling
"""

SPLIT_CPP = r"""#include "tpl_scale_templates.h"
namespace optiling {
bool SplitTiling::Fits(gert::TilingContext* context) { return context->GetInputTensor(0)->GetShapeSize() % (8 * 64) == 0; }
ge::graphStatus SplitTiling::Tile(gert::TilingContext* context) {
    TplScaleTilingData tiling;
    tiling.set_perCore(static_cast<uint32_t>(context->GetInputTensor(0)->GetShapeSize() / 8));
    tiling.set_factor(2.0f);
    context->SetBlockDim(8);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
"""

REGBASE_CPP = r"""#include "../tpl_scale_templates.h"
namespace optiling {
bool RegBaseTiling::Fits(gert::TilingContext*) { return false; }   // an Ascend 950 platform check, false on A2
ge::graphStatus RegBaseTiling::Tile(gert::TilingContext*) { return ge::GRAPH_FAILED; }
}  // namespace optiling
"""


def _project(tmp_path: Path) -> Path:
    files = {
        "op_host/tpl_scale_custom.cpp": HOST,
        "op_host/tpl_scale_custom_tiling.h": TILING_H,
        "op_host/tpl_registry.h": REGISTRY,
        "op_host/op_tiling/tpl_scale_templates.h": TEMPLATES_H,
        "op_host/op_tiling/tpl_scale_registry.cpp": REGISTRY_CPP,
        "op_host/op_tiling/tpl_scale_split_tiling.cpp": SPLIT_CPP,
        "op_host/op_tiling/arch35/tpl_scale_regbase_tiling.cpp": REGBASE_CPP,
        # the Ascend 950 TILING_DIR: not in A2's library, and not compilable here
        "op_host/arch35/tpl_scale_tiling_arch35.cpp": "#error op_host/arch35 is Ascend 950's TILING_DIR, not A2's\n",
        "op_kernel/tpl_scale_custom.cpp": KERNEL,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_op_tiling_arch35_is_an_a2_source_and_op_host_arch35_is_not():
    assert opproject._a2_host_source("op_host/op_tiling/arch35/x_tiling")
    assert opproject._a2_host_source("op_host/op_tiling/arch35/backward_compatible/x_tiling")
    assert opproject._a2_host_source("op_host/op_tiling/x_tiling")
    assert not opproject._a2_host_source("op_host/arch35/x_tiling_arch35")
    assert not opproject._a2_host_source("op_host/arch35/op_tiling/x")


def test_the_op_tiling_arch35_sources_are_in_the_tiling_try_and_the_project_runs(tmp_path, monkeypatch):
    folder = _project(tmp_path)
    builds = _counted_build(monkeypatch)
    b = build_project(load_project(folder), 0)
    assert b.ok, b.log[-2000:]
    # the registering try misses the templates' members; the tiling try, with op_tiling/ and op_tiling/arch35/ and
    # without op_host/arch35/, links (before: it left op_tiling/arch35/ out too, and a later try without the registry
    # linked, so the TilingFunc found no template)
    assert [ok for _, ok in builds] == [False, True], builds
    units = builds[-1][0]
    assert any("regbase_tiling" in u for u in units) and any("split_tiling" in u for u in units), units
    assert not any("tiling_arch35" in u for u in units), units
    monkeypatch.undo()
    x = torch.randn(8 * 64 * 3)
    r = run_project(load_project(folder), {"x": x}, outputs={"y": (tuple(x.shape), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    assert (r.tiling_key, r.block_dim) == (1, 8)   # the Ascend 950 template asked first refused, the A2 one tiled
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 2, rtol=1e-6)


# ops-nn's layout: the definition names no tiling; the registry source registers the templates and the tiling function
# (IMPL_OP_OPTILING), so it is compiled as a unit of its own from the first try, and the other sources come in the
# tries after a link that misses their symbols
DEF_ONLY = HOST.replace("static ge::graphStatus TilingFunc(gert::TilingContext* context) { return RunTemplates(context); }\n", "") \
               .replace("        this->AICore().SetTiling(optiling::TilingFunc);\n", "")

IMPL_REGISTRY_CPP = REGISTRY_CPP.replace("}  // namespace optiling", """static ge::graphStatus TplTilingFunc(gert::TilingContext* context) { return RunTemplates(context); }
IMPL_OP_OPTILING(TplScaleCustom).Tiling(TplTilingFunc);
}  // namespace optiling""")


def _counted_build(monkeypatch):
    builds = []
    real = opproject.build
    def counted(sources, *a, **k):
        b = real(sources, *a, **k)
        builds.append((sorted(s for s in sources if s.startswith("__ascendcraft_host")), b.ok))
        return b
    monkeypatch.setattr(opproject, "build", counted)
    return builds


def test_the_tiling_try_after_a_failed_link_takes_op_tiling_arch35(tmp_path, monkeypatch):
    folder = _project(tmp_path)
    assert "SetTiling" not in DEF_ONLY and "IMPL_OP_OPTILING" in IMPL_REGISTRY_CPP
    (folder / "op_host/tpl_scale_custom.cpp").write_text(DEF_ONLY)
    (folder / "op_host/op_tiling/tpl_scale_registry.cpp").write_text(IMPL_REGISTRY_CPP)
    builds = _counted_build(monkeypatch)
    b = build_project(load_project(folder), 0)
    assert b.ok, b.log[-2000:]
    # the first try (the registry alone) misses both templates' members; the next, op_tiling/ with op_tiling/arch35/
    # and without op_host/arch35/, links. Before: op_tiling/ alone, then every source (op_host/arch35/'s too, which
    # does not compile): no try linked
    assert [ok for _, ok in builds] == [False, True], builds
    assert [u for u, _ in builds][0] == []
    units = builds[-1][0]
    assert any("regbase_tiling" in u for u in units) and any("split_tiling" in u for u in units), units
    assert not any("tiling_arch35" in u for u in units), units


def test_an_op_tiling_arch35_source_that_does_not_compile_leaves_the_a2_tries(tmp_path, monkeypatch):
    # an Ascend 950 source under op_tiling/arch35/ the emulated headers do not compile, and the link does not need:
    # the try with it fails to compile, and the A2 sources' try after it links (as before)
    folder = _project(tmp_path)
    (folder / "op_host/tpl_scale_custom.cpp").write_text(DEF_ONLY)
    (folder / "op_host/op_tiling/tpl_scale_registry.cpp").write_text(
        IMPL_REGISTRY_CPP.replace('REGISTER_TILING_TEMPLATE("TplScaleCustom", RegBaseTiling, 0);\n', ""))
    (folder / "op_host/op_tiling/arch35/tpl_scale_regbase_tiling.cpp").write_text("#error not compiled by the emulated headers\n")
    builds = _counted_build(monkeypatch)
    b = build_project(load_project(folder), 0)
    assert b.ok, b.log[-2000:]
    assert [ok for _, ok in builds] == [False, False, True], builds
    assert any("regbase_tiling" in u for u in builds[1][0]) and not any("regbase_tiling" in u for u in builds[2][0])
