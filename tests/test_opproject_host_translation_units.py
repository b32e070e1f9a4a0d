"""Op_host sources are translation units of their own, as CANN's build compiles and links them. Public projects define
a file-local helper of one name in two of their sources (cann-ops conv3d_backprop_input_v2: `static inline bool
CheckRange` in conv3_d_backprop_input_v2.cpp and conv3d_backprop_input.cpp, both registering a tiling function) and
anonymous-namespace constants and functions of one name; the host glue that #included every registering source into
one unit refused them ("redefinition of ..."). The project here is our own, in that style: the definition, the tiling
(IMPL_OP_OPTILING) and the InferShape (IMPL_OP, as 89 of ops-nn's sources register) in three sources, the last two
each with its own `CheckRange`, `kLimit` and `BlockCount`."""
from pathlib import Path

import numpy as np
import torch

from ascendcraft.opproject import build_project, load_project, run_project

DEF = r"""#include "register/op_def_registry.h"
namespace ops {
class ClashScale : public OpDef {
public:
    explicit ClashScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClashScale);
}  // namespace ops
"""

TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ClashScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ClashScale, ClashScaleTilingData)
}  // namespace optiling
"""

# the tiling: 4 blocks, each a whole number of 64-float units, at most kLimit elements
TILING = r"""#include "clash_scale_tiling.h"
namespace {
constexpr int64_t kLimit = 1 << 20;
uint32_t BlockCount() { return 4; }
}  // namespace
static inline bool CheckRange(int64_t value, int64_t low, int64_t up)
{
    return value >= low && value <= up;
}
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (!CheckRange(n, 64 * BlockCount(), kLimit) || n % (64 * BlockCount()) != 0) return ge::GRAPH_FAILED;
    ClashScaleTilingData tiling;
    tiling.set_perCore(static_cast<uint32_t>(n / BlockCount()));
    tiling.set_factor(2.0f);
    context->SetBlockDim(BlockCount());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(ClashScale).Tiling(TilingFunc);
}  // namespace optiling
"""

# the InferShape function: y has x's shape; the same helper names as the tiling's, other meanings
INFERSHAPE = r"""#include "register/op_def_registry.h"
namespace {
constexpr int64_t kLimit = 8;   // dimensions
uint32_t BlockCount() { return 1; }
}  // namespace
static inline bool CheckRange(int64_t value, int64_t low, int64_t up)
{
    return low <= value && value < up;
}
namespace ops {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    if (!CheckRange(static_cast<int64_t>(x->GetDimNum()), BlockCount(), kLimit + 1)) return ge::GRAPH_FAILED;
    *context->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP(ClashScale).InferShape(InferShape);
}  // namespace ops
"""

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void clash_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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


def _project(folder: Path, tiling: str = TILING) -> Path:
    files = {"op_host/clash_scale_def.cpp": DEF, "op_host/clash_scale_tiling.h": TILING_H,
             "op_host/clash_scale_tiling.cpp": tiling, "op_host/clash_scale_infershape.cpp": INFERSHAPE,
             "op_kernel/clash_scale.cpp": KERNEL}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_two_sources_with_file_local_helpers_of_one_name_build_and_run(tmp_path):
    project = load_project(_project(tmp_path))
    x = torch.randn(4 * 64 * 3)
    # no outputs given: the InferShape function (its own unit in the infer program too) gives y's shape
    r = run_project(project, {"x": x}, reference=lambda x: x * 2)
    assert r.ok and r.run.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
    assert r.block_dim == 4
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 2, rtol=1e-6)


def test_a_refusal_in_a_unit_of_its_own_is_named_at_its_file_and_line(tmp_path):
    project = load_project(_project(tmp_path))
    r = run_project(project, {"x": torch.randn(100)}, outputs={"y": ((100,), np.float32)})
    assert not r.run.ok
    [d] = r.run.diagnostics
    line = TILING.splitlines().index(next(l for l in TILING.splitlines() if "!CheckRange(n" in l)) + 1
    assert (d.kind, d.file, d.line) == ("host-tiling", "op_host/clash_scale_tiling.cpp", line), d.render()


def test_a_compile_error_in_a_unit_of_its_own_names_that_source_and_line(tmp_path):
    broken = TILING.replace("tiling.set_factor(2.0f);", "tiling.set_factor(undeclaredFactor);")
    project = load_project(_project(tmp_path, broken))
    b = build_project(project)
    assert not b.ok
    line = broken.splitlines().index("    tiling.set_factor(undeclaredFactor);") + 1
    errors = [d for d in b.diagnostics if d.is_error]
    assert errors and "undeclaredFactor" in errors[0].message, [d.render() for d in b.diagnostics]
    assert errors[0].file.removesuffix(".inc").removesuffix(".cpp") == "op_host/clash_scale_tiling", errors[0].render()
    assert errors[0].line == line, errors[0].render()


NODE_PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::TilingContext ctx;   // one input list of 3; outputs: y (a list of 2), z (optional, absent), w (one tensor)
    for (int k = 0; k < 3; ++k) { ctx.inputs_.emplace_back(); ctx.outputs_.emplace_back(); }
    ctx.ir_inputs_ = {{0, 3}};
    ctx.ir_outputs_ = {{0, 2}, {2, 0}, {2, 1}};
    const gert::ComputeNodeInfo* node = ctx.GetComputeNodeInfo();
    std::printf("%zu %zu %zu %zu|", node->GetInputsNum(), node->GetIrInputsNum(), node->GetOutputsNum(),
                node->GetIrOutputsNum());
    const gert::AnchorInstanceInfo* z = node->GetOutputInstanceInfo(1);
    const gert::AnchorInstanceInfo* w = node->GetOutputInstanceInfo(2);
    std::printf("%zu %zu %zu %zu %d|", z->GetInstanceStart(), z->GetInstanceNum(), w->GetInstanceStart(),
                w->GetInstanceNum(), node->GetOutputInstanceInfo(3) == nullptr);
    gert::TilingContext plain;   // no IR layout given: one instance per output
    plain.outputs_.emplace_back(); plain.outputs_.emplace_back();
    std::printf("%zu", plain.GetComputeNodeInfo()->GetIrOutputsNum());
    return 0;
}
"""


def test_the_compute_node_info_counts_the_definitions_outputs(tmp_path):
    # ComputeNodeInfo::GetIrOutputsNum / GetOutputInstanceInfo (size_t GetIrOutputsNum() const in CANN's
    # exe_graph/runtime/compute_node_info.h): ops-transformer mc2's tilings count their IR outputs with it
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(NODE_PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    assert out == "3 1 3 3|2 0 2 1 1|2"
