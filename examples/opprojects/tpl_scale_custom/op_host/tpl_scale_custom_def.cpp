// TplScaleCustom's definition (the newer repositories keep it apart from the tiling function).
#include "register/op_def_registry.h"

namespace ops {
class TplScaleCustom : public OpDef {
public:
    explicit TplScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("square").AttrType(OPTIONAL).Bool(false);
        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value", "tpl_scale_custom");
        this->AICore().AddConfig("ascend910b", config);
    }
};
OP_ADD(TplScaleCustom);
}  // namespace ops
