"""An op definition is linked as a library of its own, apart from the tiling sources, as CANN links them (the definition
into opsproto / op_host_aclnn, the tiling into optiling: cann-ops gelu_quant's CMakeLists.txt). A header both include
may then define a non-inline function, each library holding its copy: cann-ops gelu_quant's
op_host/gelu_quant_tiling_base.h defines `int64_t GetMod(const int64_t, const int64_t)`, included by gelu_quant_def.cpp
(the definition, its InferShape) and gelu_quant.cpp (the tiling). The emulated build links the definition (through the
host glue) and the tiling unit into one program, which stopped at "multiple definition of `optiling::GetMod(long,
long)`". The project here is our own, in that style."""
from pathlib import Path

import numpy as np
import torch

from ascendcraft.emu import OWN_LIBRARY_MACRO, kernel_host_duplicates
from ascendcraft.opproject import build_project, glue_source, load_project, run_project

# the header both sources include: constants and two non-inline functions (one a copy in each library)
BASE_H = r"""#pragma once
#include <cstdint>
namespace optiling {
constexpr int64_t kUnit = 64;
int64_t CeilDivOwn(const int64_t a, const int64_t b) {
    if (b == 0) return a;
    return (a + b - 1) / b;
}
int64_t ModOwn(const int64_t a, const int64_t b) {
    if (b == 0) return a;
    return a % b;
}
}  // namespace optiling
"""

DEF = r"""#include "register/op_def_registry.h"
#include "mod_scale_base.h"
namespace ops {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    if (x == nullptr || optiling::ModOwn(x->GetShapeSize(), optiling::kUnit) != 0) return ge::GRAPH_FAILED;
    *context->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(ModScale).InferShape(InferShape);
class ModScale : public OpDef {
public:
    explicit ModScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ModScale);
}  // namespace ops
"""

TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ModScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ModScale, ModScaleTilingData)
}  // namespace optiling
"""

# the tiling: as many 64-float units a block as fit 4 blocks; the factor 3
TILING = r"""#include "register/op_def_registry.h"
#include "mod_scale_tiling.h"
#include "mod_scale_base.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const int64_t blocks = 4;
    if (ModOwn(n, kUnit * blocks) != 0) return ge::GRAPH_FAILED;
    ModScaleTilingData tiling;
    tiling.set_perCore(static_cast<uint32_t>(CeilDivOwn(n, blocks)));
    tiling.set_factor(3.0f);
    context->SetBlockDim(blocks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(ModScale).Tiling(TilingFunc);
}  // namespace optiling
"""

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mod_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * t.perCore, t.perCore);
    yg.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * t.perCore, t.perCore);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xg, t.perCore);
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, t.factor, t.perCore);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, v, t.perCore);
}
"""


def _project(folder: Path, definition: str = DEF) -> Path:
    files = {"op_host/mod_scale_def.cpp": definition, "op_host/mod_scale_base.h": BASE_H,
             "op_host/mod_scale_tiling.h": TILING_H, "op_host/mod_scale.cpp": TILING, "op_kernel/mod_scale.cpp": KERNEL}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_a_header_function_the_definition_and_the_tiling_both_define_is_a_copy_in_each(tmp_path):
    project = load_project(_project(tmp_path))
    assert project.host_file == "op_host/mod_scale_def.cpp"
    b = build_project(project)
    assert b.ok, [d.render() for d in b.diagnostics]   # before: multiple definition of `optiling::CeilDivOwn(long, long)'
    x = torch.randn(4 * 64 * 3)
    # no outputs given: the definition's InferShape (ModOwn) gives y's shape; the tiling (CeilDivOwn, ModOwn) runs
    r = run_project(project, {"x": x}, reference=lambda x: x * 3)
    assert r.ok and r.run.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
    assert r.block_dim == 4
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 3, rtol=1e-6)


def test_only_a_definition_that_registers_no_tiling_is_a_library_of_its_own(tmp_path):
    # a definition that registers the tiling (SetTiling, IMPL_OP_OPTILING) is a source of CANN's optiling library too,
    # where a clash with another tiling source is CANN's link error as well: the glue keeps it in the one program
    assert OWN_LIBRARY_MACRO in glue_source(load_project(_project(tmp_path / "a")))
    with_tiling = DEF.replace('this->AICore().AddConfig("ascend910b");',
                              'this->AICore().SetTiling(optiling::TilingFunc);\n        this->AICore().AddConfig("ascend910b");')
    with_tiling = with_tiling.replace("namespace ops {", "namespace optiling { ge::graphStatus TilingFunc(gert::TilingContext*); }\nnamespace ops {")
    assert OWN_LIBRARY_MACRO not in glue_source(load_project(_project(tmp_path / "b", with_tiling)))
    # the own library's copies are those another host object defines too, not the kernel's (kept apart already)
    listing = ("\n__ascendcraft_main.o:\n0000000000000000 D _ZN8optiling4kVarE\n"
               "\n__ascendcraft_host0/host.o:\n0000000000000000 T _ZN8optiling6ModOwnEll\n0000000000000000 D _ZN8optiling4kVarE\n"
               "0000000000000000 T ascendcraft_tiling\n0000000000000000 W _Z6inlinedv\n"
               "\n__ascendcraft_host1/host.o:\n0000000000000000 T _ZN8optiling6ModOwnEll\n0000000000000000 W _Z6inlinedv\n")
    glue, unit = "__ascendcraft_host0/host.o", "__ascendcraft_host1/host.o"
    assert kernel_host_duplicates(listing, glue, [unit]) == ["_ZN8optiling6ModOwnEll"]
    assert kernel_host_duplicates(listing, "__ascendcraft_main.o") == ["_ZN8optiling4kVarE"]
