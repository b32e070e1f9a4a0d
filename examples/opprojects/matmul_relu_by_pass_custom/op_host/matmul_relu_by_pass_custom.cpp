/* MatmulReluByPassCustom: y = relu(x . w^T) (tiling key 1) or leaky_relu(x . w^T, negative_slope) (key 2), x [M, K]
 * and w [N, K] (a linear layer's weight) in float16, y [M, N] in float32.
 *
 * A mixed kernel written the way CANN's fused attention kernels are: one source whose cube side is under
 * __DAV_C220_CUBE__ and whose vector side is under __DAV_C220_VEC__, which the device compiler builds once per core
 * type. The host splits M into 16-row tiles over at most one group per cube core; w must fit L0B whole (N x K <= 32768
 * halves) and every size must be a multiple of 16, else the tiling fails. The workspace holds, after the system's
 * share, two 16-row slots per group through which a cube core hands its tiles to its vector cores. */
#include "matmul_relu_by_pass_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& w = context->GetInputShape(1)->GetStorageShape();
    const uint32_t M = static_cast<uint32_t>(x.GetDim(0)), K = static_cast<uint32_t>(x.GetDim(1));
    const uint32_t N = static_cast<uint32_t>(w.GetDim(0));
    if (w.GetDim(1) != K || M % 16 != 0 || K % 16 != 0 || N % 16 != 0 || M == 0 || N * K > 32768) {
        return ge::GRAPH_FAILED;
    }
    const float* slope = context->GetAttrs()->GetFloat(0);
    const uint32_t tiles = M / 16, aic = platform.GetCoreNumAic();
    const uint32_t groups = tiles < aic ? tiles : aic;
    const uint32_t perGroup = (tiles + groups - 1) / groups;
    MatmulReluByPassTilingData tiling;
    tiling.set_m(M);
    tiling.set_n(N);
    tiling.set_k(K);
    tiling.set_tiles(tiles);
    tiling.set_tilesPerGroup(perGroup);
    tiling.set_negativeSlope(slope == nullptr ? 0.0f : *slope);
    context->SetBlockDim((tiles + perGroup - 1) / perGroup);   // groups of one AIC and two AIVs (MIX_AIC_1_2)
    context->SetTilingKey(tiling.get_negativeSlope() == 0.0f ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize() + groups * 2 * 16 * N * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulReluByPassCustom : public OpDef {
public:
    explicit MatmulReluByPassCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulReluByPassCustom);
}  // namespace ops
