"""A tiling object bound to the tiling buffer with SetDataPtr (CANN's tiling data objects; NPUKernelBench's
FlashAttentionScoreWithLargeHeadDim): the op host writes its fields, nested structs' too, through setters and references,
and never calls SaveToBuffer; it only sets the data size. Our tiling structs stay plain structs (the kernel reads the
same struct), so their values reach the buffer when the object is destroyed or when the tiling function returns. The
project is our own: y = x * factor + offset, tiled over the cores."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.opproject import load_project, run_project

TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(BindParams)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BindParamsOp, BindParams)
BEGIN_TILING_DATA_DEF(BindScaleTilingData)
TILING_DATA_FIELD_DEF_STRUCT(BindParams, params);
TILING_DATA_FIELD_DEF(float, offset);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BindScaleCustom, BindScaleTilingData)
}  // namespace optiling
"""

# The tiling object is a member of a helper allocated on the heap and deleted before TilingFunc returns (as the
# FlashAttention op host does); `{storage}` may instead make it a static object, alive after the return.
HOST = r"""#include "bind_scale_custom_tiling.h"
namespace optiling {
class BindTiling {
public:
    explicit BindTiling(gert::TilingContext* context) : context_(context) {
        tilingData.SetDataPtr(context_->GetRawTilingData()->GetData());
    }
    void Tile() {
        const int64_t n = context_->GetInputTensor(0)->GetShapeSize();
        tilingData.params.set_perCore(static_cast<uint32_t>(n / 4));   // a nested struct's setter
        auto& params = tilingData.params;                               // a reference kept and written through
        params.factor = 2.5f;
        context_->SetBlockDim(4);
        context_->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());   // no SaveToBuffer
        context_->GetWorkspaceSizes(1)[0] = 0;
        tilingData.set_offset(-1.25f);                                  // written after the size was set
    }
    gert::TilingContext* context_;
    {storage}BindScaleTilingData tilingData;
};
{definition}
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    BindTiling* t = new BindTiling(context);
    t->Tile();
    {release}
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class BindScaleCustom : public OpDef {
public:
    explicit BindScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BindScaleCustom);
}  // namespace ops
"""

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bind_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    // the fields alone (no binding state), padded to 8 bytes as the framework pads a tiling struct
    static_assert(sizeof(t) == 4 * sizeof(uint32_t), "the kernel side's layout is the fields alone");
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.params.perCore * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * t.params.perCore, t.params.perCore);
    yg.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * t.params.perCore, t.params.perCore);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xg, t.params.perCore);
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, t.params.factor, t.params.perCore);
    PipeBarrier<PIPE_ALL>();
    Adds(v, v, t.offset, t.params.perCore);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, v, t.params.perCore);
}
"""


def _project(tmp_path: Path, storage: str, definition: str, release: str) -> Path:
    host = HOST.replace("{storage}", storage).replace("{definition}", definition).replace("{release}", release)
    files = {"op_host/bind_scale_custom.cpp": host, "op_host/bind_scale_custom_tiling.h": TILING_H,
             "op_kernel/bind_scale_custom.cpp": KERNEL}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize("storage,definition,release", [
    ("", "", "delete t;"),                                                      # destroyed inside TilingFunc
    ("static ", "BindScaleTilingData BindTiling::tilingData;", "delete t;"),   # outlives the call
], ids=["destroyed", "static"])
def test_a_tiling_object_bound_with_set_data_ptr_fills_the_buffer_without_save_to_buffer(tmp_path, storage, definition,
                                                                                         release):
    project = load_project(_project(tmp_path, storage, definition, release))
    x = torch.randn(4 * 64 * 2)
    r = run_project(project, {"x": x}, outputs={"y": (tuple(x.shape), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    assert r.block_dim == 4
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 2.5 - 1.25, rtol=1e-6, atol=1e-6)
