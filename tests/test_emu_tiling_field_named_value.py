"""A tiling field named `value` (the official samples' AddcdivCustom: `TILING_DATA_FIELD_DEF(float, value)`, set from
its attribute with `tiling.set_value(*pvalue)`). The emulated TILING_DATA_FIELD_DEF's setter took a parameter named
`value`, which hid the field in `set_value`: the setter assigned the parameter to itself, the field stayed 0, and the
kernel computed x + y / z * 0. Now the setters' parameter has a name no field takes.

The op is written for the test: ScaleBy, y = x * value (a float attribute copied into the tiling struct as `value`,
beside an array field named `value_arr` set from a `value` array), over 2 blocks."""
import numpy as np

from ascendcraft.opproject import load_project, run_project

TILING_H = r'''#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleByTilingData)
TILING_DATA_FIELD_DEF(float, value);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 2, value_arr);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleBy, ScaleByTilingData)
}  // namespace optiling
'''

HOST = r'''#include "scale_by_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleByTilingData tiling;
    const float* value = context->GetAttrs()->GetFloat(0);
    tiling.set_value(*value);
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    tiling.set_perCore(total / 2);
    uint32_t arr[2] = {7, 64};
    tiling.set_value_arr(arr);
    context->SetBlockDim(2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class ScaleBy : public OpDef {
public:
    explicit ScaleBy(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("value").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleBy);
}  // namespace ops
'''

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_by(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t tile = t.value_arr[1];
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * t.perCore, t.perCore);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * t.perCore, t.perCore);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, tile * sizeof(float));
    pipe.InitBuffer(outQ, 1, tile * sizeof(float));
    for (uint32_t i = 0; i < t.perCore / tile; i++) {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        DataCopy(a, xGm[i * tile], tile);
        inQ.EnQue(a);
        a = inQ.DeQue<float>();
        LocalTensor<float> b = outQ.AllocTensor<float>();
        Muls(b, a, t.value + (float)(t.value_arr[0] - 7), tile);
        outQ.EnQue(b);
        inQ.FreeTensor(a);
        b = outQ.DeQue<float>();
        DataCopy(yGm[i * tile], b, tile);
        outQ.FreeTensor(b);
    }
}
'''


def test_a_tiling_field_named_value_reaches_the_kernel(tmp_path):
    for rel, text in {"op_host/scale_by_tiling.h": TILING_H, "op_host/scale_by.cpp": HOST,
                      "op_kernel/scale_by.cpp": KERNEL}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    x = np.random.default_rng(3).standard_normal(1024).astype(np.float32)
    r = run_project(load_project(tmp_path), {"x": x}, outputs={"y": ((1024,), "float32")}, attrs={"value": 2.5})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(2.5))
