/* RmsScaleCustom: y = x / sqrt(mean(x^2, last axis) + epsilon), one row per core at a time.
 * Tiling key 1: a row fits in one chunk; key 2: two passes over the chunks of a long row. */
#include "rms_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 4096;   // floats: x, x^2, the reduction's work area and y stay well inside the UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RmsScaleTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 1) return ge::GRAPH_FAILED;
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    if (cols % 64 != 0) return ge::GRAPH_FAILED;              // whole 256-byte repeats per row
    uint32_t chunk = cols <= MAX_CHUNK ? cols : MAX_CHUNK;
    while (cols % chunk != 0) chunk -= 64;
    const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    tiling.shape.set_rows(rows);
    tiling.shape.set_cols(cols);
    tiling.set_chunk(chunk);
    tiling.set_epsilon(*context->GetAttrs()->GetFloat(0));
    context->SetBlockDim(rows < cores ? rows : cores);
    context->SetTilingKey(chunk == cols ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RmsScaleCustom : public OpDef {
public:
    explicit RmsScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RmsScaleCustom);
}  // namespace ops
