/* ScaleByScalarCustom: y = x * scalar, x float16 or float32, scalar a one-element float tensor (the macro's
 * computed dtype list). Tiling key 1: one tile per core; key 2: a loop over 1024-element tiles. */
#include "scale_by_scalar_custom_tiling.h"
#include "ewise/ewise_opdef.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleByScalarTilingData tiling;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t blocks = total / 1024 < cores ? total / 1024 : cores;
    if (blocks == 0 || total % (blocks * 1024) != 0) blocks = 1;
    if (total % 128 != 0) return ge::GRAPH_FAILED;
    const uint32_t blockLength = total / blocks;
    const uint32_t tileLength = blockLength > 1024 && blockLength % 1024 == 0 ? 1024 : blockLength;
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);
    context->SetBlockDim(blocks);
    context->SetTilingKey(tileLength == blockLength ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
EWISE_TENSOR_SCALAR_OPDEF(ScaleByScalarCustom, optiling::TilingFunc, ge::DT_FLOAT16, ge::DT_FLOAT);
}  // namespace ops
