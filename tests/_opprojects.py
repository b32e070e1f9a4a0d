"""What the emulator tests that run a small op project share: the op_host side of a one-input, one-output float op in
CANN's msopgen style (a tiling struct holding the element count n, a TilingFunc on one core, the OpDef), written beside
the kernel a test gives."""
from pathlib import Path

TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(@Op@TilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(@Op@, @Op@TilingData)
}  // namespace optiling
"""

HOST = r"""#include "@op@_tiling.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    @Op@TilingData tiling;
    tiling.set_n(static_cast<uint32_t>(context->GetInputShape(0)->GetShape().GetDim(0)));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class @Op@ : public OpDef {
public:
    explicit @Op@(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(@Op@);
}  // namespace ops
"""


def unary_float_project(folder: Path, op: str, kernel: str) -> Path:
    """Write the op project `op` (CamelCase, e.g. "TailCustom"; its files and kernel entry are the snake_case name) into
    `folder`: op_host/<name>.cpp and <name>_tiling.h from the templates above, and op_kernel/<name>.cpp = `kernel`,
    whose entry takes (x, y, workspace, tiling) and reads `n` with GET_TILING_DATA."""
    name = "".join(f"_{c.lower()}" if c.isupper() else c for c in op).lstrip("_")
    files = {f"op_host/{name}.cpp": HOST, f"op_host/{name}_tiling.h": TILING_H, f"op_kernel/{name}.cpp": kernel}
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text.replace("@Op@", op).replace("@op@", name))
    return folder
