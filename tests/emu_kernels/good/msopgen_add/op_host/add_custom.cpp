/* The msopgen host file: operator definition for the graph engine. It needs CANN's headers, so the
 * CPU emulation does not compile it (it defines no ascendcraft_tiling). */
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    }
};
OP_ADD(AddCustom);
}  // namespace ops
