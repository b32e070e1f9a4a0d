// TplScaleCustom's tiling function in the ops-math / ops-nn style: ops-base's log and check macros and integer helpers,
// the tiling struct written in place (GetTilingData<T>), the key set from the template parameters it chose.
#include "log/log.h"
#include "util/math_util.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/tpl_scale_custom_tiling_data.h"
#include "../op_kernel/tpl_scale_custom_tiling_key.h"

namespace optiling {
struct TplScaleCustomCompileInfo {};

static ge::graphStatus TplScaleCustomTilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int64_t cores = platform.GetCoreNumAiv();
    OP_CHECK_IF(cores <= 0, OP_LOGE(context, "no vector core"), return ge::GRAPH_FAILED);
    auto xShape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, xShape);
    const int64_t total = xShape->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const auto* attrs = context->GetAttrs();
    OP_CHECK_NULL_WITH_CONTEXT(context, attrs);
    const float scale = *attrs->GetAttrPointer<float>(0);
    const bool square = *attrs->GetAttrPointer<bool>(1);
    // four tiles a core when each is at least 64 elements, else one (float16 always takes four)
    const uint32_t tiles = (dtype == ge::DT_FLOAT16 || total >= cores * 4 * 64) ? TPL_SCALE_TILES_4 : TPL_SCALE_TILES_1;
    const int64_t unit = 16 * tiles;
    OP_CHECK_IF(total % unit != 0, OP_LOGE(context, "x has %ld elements: not a multiple of %ld", total, unit),
                return ge::GRAPH_FAILED);
    const int64_t used = std::min<int64_t>(cores, Ops::Base::CeilDiv<int64_t>(total, unit));
    OP_CHECK_IF(total % used != 0 || (total / used) % unit != 0,
                OP_LOGE(context, "x's %ld elements do not split over %ld cores", total, used), return ge::GRAPH_FAILED);
    TplScaleCustomTilingData* tiling = context->GetTilingData<TplScaleCustomTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    tiling->perCore = static_cast<uint32_t>(total / used);
    tiling->usedCores = static_cast<uint32_t>(used);
    tiling->scale = scale;
    context->SetBlockDim(static_cast<uint32_t>(used));
    ASCENDC_TPL_SEL_PARAM(context, dtype, tiles, square);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingParseForTplScaleCustom([[maybe_unused]] gert::TilingParseContext* context)
{
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(TplScaleCustom).Tiling(TplScaleCustomTilingFunc).TilingParse<TplScaleCustomCompileInfo>(TilingParseForTplScaleCustom);
}  // namespace optiling
