/* MatmulBiasReluCustom: c = relu(a x b + bias), a [M, K] and b [K, N] in float16, bias [N] and c in float32.
 * A mixed kernel: the Matmul object on each vector core (AIV) asks its group's cube core for one single-core tile of
 * the product, block by block into UB, where the vector core adds nothing more than the ReLU and writes the block out.
 * The host splits M x N over all AIVs with MultiCoreMatmulTiling::SetDim; the launch's block_dim counts groups of one
 * AIC and two AIVs (CalcTschBlockDim). */
#include "matmul_bias_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    const int32_t M = static_cast<int32_t>(a.GetDim(0)), K = static_cast<int32_t>(a.GetDim(1));
    const int32_t N = static_cast<int32_t>(b.GetDim(1));
    if (b.GetDim(0) != K) return ge::GRAPH_FAILED;
    const uint32_t aic = platform.GetCoreNumAic(), aiv = platform.GetCoreNumAiv();
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(static_cast<int32_t>(aiv));
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    MatmulBiasReluTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) return ge::GRAPH_FAILED;
    context->SetBlockDim(platform.CalcTschBlockDim(tiling.cubeTilingData.get_usedCoreNum(), aic, aiv));
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulBiasReluCustom : public OpDef {
public:
    explicit MatmulBiasReluCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulBiasReluCustom);
}  // namespace ops
