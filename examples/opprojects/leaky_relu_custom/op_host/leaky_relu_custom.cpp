/* LeakyReluCustom: y = x >= 0 ? x : negative_slope * x, float16 and float32.
 * The length is split into 256-byte units; when they do not divide evenly among the cores the first cores
 * take one unit more (tiling key 2, per-core offsets and lengths in the arrays); otherwise key 1. */
#include "leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LeakyReluTilingData tiling;
    const uint32_t coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    const int64_t total = context->GetInputTensor(0)->GetShapeSize();
    const int32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const uint32_t unit = 256 / static_cast<uint32_t>(typeSize);
    if (total <= 0 || total % unit != 0) return ge::GRAPH_FAILED;
    const uint32_t units = static_cast<uint32_t>(total / unit);
    const uint32_t cores = units < coreNum ? units : (coreNum < MAX_CORES ? coreNum : MAX_CORES);
    const uint32_t base = units / cores, extra = units % cores;
    uint32_t offsets[MAX_CORES] = {}, lengths[MAX_CORES] = {};
    uint32_t at = 0, longest = 0;
    for (uint32_t c = 0; c < cores; ++c) {
        lengths[c] = (base + (c < extra ? 1 : 0)) * unit;
        offsets[c] = at;
        at += lengths[c];
        longest = lengths[c] > longest ? lengths[c] : longest;
    }
    const uint32_t tile = longest < 8 * unit ? longest : 8 * unit;  // the kernel shortens each core's last tile
    const float* slope = context->GetAttrs()->GetFloat(0);
    tiling.set_usedCores(cores);
    tiling.set_tileLength(tile);
    tiling.set_negativeSlope(slope ? *slope : 0.01f);
    tiling.set_coreOffset(offsets);
    tiling.set_coreLength(lengths);
    context->SetBlockDim(cores);
    context->SetTilingKey(extra == 0 ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyReluCustom);
}  // namespace ops
