/* RowNormCustom: softmax (kind 0, tiling key 1) or RMS normalisation with gamma (kind 1, tiling key 2) over the
 * last axis, with the SoftMax / RmsNorm advanced APIs and their host tiling functions. */
#include "row_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t MAX_TILE_ROWS = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RowNormTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if ((cols * typeSize) % 32 != 0) return ge::GRAPH_FAILED;  // the APIs take a 32-byte aligned last axis
    const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    const uint32_t rowsPerCore = (rows + cores - 1) / cores;
    const uint32_t tileRows = rowsPerCore < MAX_TILE_ROWS ? rowsPerCore : MAX_TILE_ROWS;
    std::vector<int64_t> tileShape = {tileRows, cols};
    ge::Shape srcShape(tileShape);
    const int64_t kind = *context->GetAttrs()->GetInt(0);
    uint32_t tmpBytes = 0;
    if (kind == 0) {
        tmpBytes = AscendC::GetSoftMaxMinTmpSize(srcShape, typeSize, false);
        AscendC::SoftMaxTilingFunc(srcShape, typeSize, tmpBytes, tiling.softmax);
        context->SetTilingKey(1);
    } else {
        uint32_t maxBytes = 0;
        if (!AscendC::GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxBytes, tmpBytes)) return ge::GRAPH_FAILED;
        if (!AscendC::GetRmsNormTilingInfo(srcShape, srcShape, tmpBytes, typeSize, tiling.rms)) return ge::GRAPH_FAILED;
        context->SetTilingKey(2);
    }
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileRows(tileRows);
    tiling.set_tmpBytes(tmpBytes);
    tiling.set_epsilon(*context->GetAttrs()->GetFloat(1));
    context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RowNormCustom : public OpDef {
public:
    explicit RowNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("kind").AttrType(OPTIONAL).Int(0);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowNormCustom);
}  // namespace ops
