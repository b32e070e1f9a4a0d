/* ScaleAddCustom: z = x + alpha * y for float16 and float32.
 * Tiling key 1: each core's slice fits in one tile (no loop); key 2: double-buffered loop over tiles. */
#include "scale_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_BYTES = 256;          // every core's slice is a whole number of 256-byte repeats
constexpr uint32_t UB_TILES = 3 * 2;           // x, y, z, double-buffered

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleAddTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t typeSize = static_cast<uint32_t>(ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType()));
    const uint32_t align = ALIGN_BYTES / typeSize;
    if (total == 0 || total % align != 0) return ge::GRAPH_FAILED;
    uint32_t blocks = total / align < coreNum ? total / align : coreNum;
    while (total % (blocks * align) != 0) --blocks;
    const uint32_t blockLength = total / blocks;
    uint32_t tileLength = static_cast<uint32_t>(ubSize / UB_TILES / typeSize) / align * align;
    if (tileLength > 4096) tileLength = 4096;
    while (blockLength % tileLength != 0) tileLength -= align;
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);

    tiling.set_totalLength(total);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);
    tiling.set_alpha(alpha ? *alpha : 1.0f);
    context->SetBlockDim(blocks);
    context->SetTilingKey(blockLength == tileLength ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaleAddCustom : public OpDef {
public:
    explicit ScaleAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleAddCustom);
}  // namespace ops
