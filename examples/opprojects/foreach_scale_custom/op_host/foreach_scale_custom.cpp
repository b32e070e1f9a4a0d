/* ForeachScaleCustom: y[i] = alpha * x[i] for every tensor of the list x (ParamType(DYNAMIC)), float16 or float32.
 * One core per tensor (up to 8); tiling key 1 for float16, 2 for float32. */
#include "foreach_scale_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t MAX_TENSORS = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ForeachScaleTilingData tiling;
    uint32_t lengths[MAX_TENSORS] = {};
    uint32_t count = 0;
    const gert::AnchorInstanceInfo* list = context->GetIrInputInstanceInfo(0);
    for (; count < MAX_TENSORS; ++count) {
        const gert::Tensor* t = context->GetDynamicInputTensor(0, count);
        if (t == nullptr) break;
        lengths[count] = static_cast<uint32_t>(t->GetStorageShape().GetShapeSize());
        if (lengths[count] % 64 != 0) return ge::GRAPH_FAILED;
    }
    if (count == 0 || list == nullptr || list->GetInstanceNum() != count) return ge::GRAPH_FAILED;
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_tensorCount(count);
    tiling.set_alpha(alpha ? *alpha : 1.0f);
    tiling.set_lengths(lengths);
    context->SetBlockDim(count);
    context->SetTilingKey(context->GetDynamicInputDesc(0, 0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ForeachScaleCustom : public OpDef {
public:
    explicit ForeachScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachScaleCustom);
}  // namespace ops
