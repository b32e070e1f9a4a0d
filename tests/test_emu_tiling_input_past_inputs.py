"""A tiling function that reads an output's shape through an input index past the op's inputs (round 42, newsrc). CANN's
tiling context keeps the inputs and then the outputs' shapes in one list, so GetInputTensor(n), n the number of inputs,
reads the first output's shape: yueliang13/cann-ops-adv-vllm's select_position and compute_cent tilings take their
output's last dimension so. Before, the emulated context returned nullptr there and the tiling crashed (SIGSEGV). An
index past the outputs too is still nullptr.

GetInputShape(n) is not GetInputTensor(n): CANN's TilingContext::GetInputShape checks the index against the compute
node's input count and gives nullptr past it (metadef's exe_graph/runtime/tiling_context.h, read for behaviour); only
GetInputTensor reads on into the outputs unchecked. linnlh's BallQuery tells its two optional inputs' absence by
`GetInputShape(2) == nullptr` (forty-third round, lowmatch: the round-42 change sent it down its other path).

The op is written for the test: HeadRows copies the first `rows` rows of x (the output's row count) into y, doubled."""
import numpy as np

from ascendcraft.opproject import run_project

TILING_H = r'''#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(HeadRowsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);
TILING_DATA_FIELD_DEF(uint32_t, past);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HeadRows, HeadRowsTilingData)
}  // namespace optiling
'''

HOST = r'''#include "head_rows_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HeadRowsTilingData tiling;
    // one input: index 1 is the output y, as on CANN
    uint32_t rows = context->GetInputTensor(1)->GetStorageShape().GetDim(0);
    uint32_t width = context->GetInputTensor(1)->GetStorageShape().GetDim(1);
    tiling.set_count(rows * width);
    // past the outputs too: nothing; GetInputShape past the inputs: nothing, as CANN checks its index
    tiling.set_past(context->GetInputTensor(2) == nullptr && context->GetInputShape(1) == nullptr ? 1 : 0);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class HeadRows : public OpDef {
public:
    explicit HeadRows(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HeadRows);
}  // namespace ops
'''

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void head_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, t.count);
    yGm.SetGlobalBuffer((__gm__ float *)y, t.count);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.count * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    DataCopy(a, xGm, t.count);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(a, a, 2.0f * t.past, t.count);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, a, t.count);
}
'''


def test_an_input_index_past_the_inputs_reads_the_output_shape(tmp_path):
    for rel, text in (("op_host/head_rows_tiling.h", TILING_H), ("op_host/head_rows.cpp", HOST),
                      ("op_kernel/head_rows.cpp", KERNEL)):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    x = np.random.default_rng(3).standard_normal((12, 16)).astype(np.float32)
    r = run_project(tmp_path, {"x": x}, outputs={"y": ((5, 16), "float32")})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x[:5] * 2)
