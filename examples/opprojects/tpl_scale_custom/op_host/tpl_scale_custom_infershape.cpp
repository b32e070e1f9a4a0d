// TplScaleCustom's output has x's shape (ops-base's elementwise InferShape).
#include "register/op_impl_registry.h"
#include "infershape_elewise_util.h"
#include "log/log.h"

namespace ops {
static ge::graphStatus InferShapeForTplScaleCustom(gert::InferShapeContext* context)
{
    OP_LOGD(context, "InferShapeForTplScaleCustom");
    return Ops::Base::InferShape4Elewise(context);
}
IMPL_OP_INFERSHAPE(TplScaleCustom).InferShape(InferShapeForTplScaleCustom);
}  // namespace ops
