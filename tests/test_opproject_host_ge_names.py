"""GE host names an op_host source reaches through `register/op_def_registry.h` alone, as CANN's headers give them (the
op_def API's headers bring in GE's graph/types.h, operator.h and tensor.h): cann-ops lin_space's op_host declares a
template in `namespace ge` taking `const Tensor&` (ge::Tensor: a Const input's bytes, for a graph fusion pass), and
moe_init_routing_v2's InferShape compares a dim with `ge::UNKNOWN_DIM_NUM` (-2, the dim of an unknown-rank shape). The
project here is our own: the shared one-input float op, its op_host extended with both names."""
import numpy as np

from _opprojects import unary_float_project
from ascendcraft.opproject import load_project, run_project

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ge_names_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.n * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.n);
    yg.SetGlobalBuffer((__gm__ float*)y, t.n);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xg, t.n);
    PipeBarrier<PIPE_ALL>();
    Adds(v, v, 1.0f, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, v, t.n);
}
"""

# lin_space's form: a helper in namespace ge over a Const tensor's bytes, with only op_def_registry.h included
GE_TENSOR = r"""
namespace ge {
template <typename T>
static void ReadConstValues(const Tensor& const_tensor, std::vector<int64_t>& values) {
    const T* data = reinterpret_cast<const T*>(const_tensor.GetData());
    for (size_t i = 0; i < const_tensor.GetSize() / sizeof(T); ++i) values.push_back(static_cast<int64_t>(data[i]));
}
}  // namespace ge
namespace optiling {
static bool GeNamesHold() {
    const std::vector<uint8_t> bytes = {3, 0, 0, 0, 5, 0, 0, 0};
    ge::Tensor t(ge::TensorDesc(ge::Shape({2}), ge::FORMAT_ND, ge::DT_INT32), bytes);
    std::vector<int64_t> values;
    ge::ReadConstValues<int32_t>(t, values);
    // moe_init_routing_v2's form: an unknown-rank input's one dim is ge::UNKNOWN_DIM_NUM
    return values == std::vector<int64_t>{3, 5} && ge::UNKNOWN_DIM_NUM == -2;
}
}  // namespace optiling
"""


def test_ge_tensor_and_unknown_dim_num_come_with_the_op_def_header(tmp_path):
    unary_float_project(tmp_path, "GeNamesCustom", KERNEL)
    host = tmp_path / "op_host/ge_names_custom.cpp"
    text = host.read_text().replace('#include "ge_names_custom_tiling.h"\n',
                                    '#include <vector>\n#include "register/op_def_registry.h"\n'
                                    '#include "ge_names_custom_tiling.h"\n' + GE_TENSOR, 1)
    text = text.replace("    context->SetBlockDim(1);\n",
                        "    if (!GeNamesHold()) return ge::GRAPH_FAILED;\n    context->SetBlockDim(1);\n", 1)
    assert "GeNamesHold()) return" in text and "const Tensor&" in text
    host.write_text(text)
    x = np.arange(16, dtype=np.float32)
    r = run_project(load_project(tmp_path), {"x": x}, outputs={"y": ((16,), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics][:3]
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
