"""The op-host contexts an InferDataType function is given: gert::InferDataTypeContext gives the op's attributes
(GetAttrs), as every gert context does, and a required input's dtype by its IR index (GetRequiredInputDataType). hicann
ops-transformer flash_attention_score's InferDataType reads its outDtype attribute to choose the outputs' dtype for
float8 inputs, mla_prolog's the required inputs' dtypes; without them the op project's host code did not compile."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

# an InferDataType function in the form of the public ones: the first output's dtype is the required input 1's
# (GetRequiredInputDataType, by IR index, as mla_prolog's); the second output's follows input 0's, except for a float8
# input, where the op's attribute 1 chooses float16 (0) or bfloat16 (1) and any other value is a failure
HOST_PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include "ascendcraft_emu/op_host.h"
#include "register/op_impl_registry.h"
using namespace ge;
static graphStatus InferDataTypeScale(gert::InferDataTypeContext* context)
{
    DataType x = context->GetInputDataType(0);
    context->SetOutputDataType(0, context->GetRequiredInputDataType(1));
    if (x == DT_FLOAT8_E4M3FN) {
        auto attrs = context->GetAttrs();
        if (attrs == nullptr) return GRAPH_FAILED;
        const int64_t* outDtype = attrs->GetAttrPointer<int64_t>(1);
        if (outDtype == nullptr) return GRAPH_FAILED;
        if (*outDtype == 0) context->SetOutputDataType(1, DT_FLOAT16);
        else if (*outDtype == 1) context->SetOutputDataType(1, DT_BF16);
        else return GRAPH_FAILED;
        return GRAPH_SUCCESS;
    }
    context->SetOutputDataType(1, x);
    return GRAPH_SUCCESS;
}
static void set_attr(gert::InferDataTypeContext& c, int64_t v) { std::memcpy(c.attrs_.slots_[1].bytes, &v, sizeof v); }
int main() {
    gert::InferDataTypeContext c;
    c.in_ = {DT_FLOAT8_E4M3FN, DT_FLOAT};
    c.attrs_.slots_.resize(2);
    set_attr(c, 1);
    graphStatus st = InferDataTypeScale(&c);
    std::printf("%d %d %d|", st, c.GetOutputDataType(0) == DT_FLOAT, c.GetOutputDataType(1) == DT_BF16);
    set_attr(c, 0);
    st = InferDataTypeScale(&c);
    std::printf("%d %d|", st, c.GetOutputDataType(1) == DT_FLOAT16);
    set_attr(c, 7);
    st = InferDataTypeScale(&c);
    std::printf("%d|", st == GRAPH_FAILED);
    c.in_ = {DT_FLOAT16, DT_BF16};
    c.attrs_ = gert::RuntimeAttrs();
    st = InferDataTypeScale(&c);
    std::printf("%d %d %d|%d", st, c.GetOutputDataType(0) == DT_BF16, c.GetOutputDataType(1) == DT_FLOAT16,
                c.GetAttrs()->GetAttrPointer<int64_t>(1) == nullptr);
    return 0;
}
"""


def test_an_infer_data_type_function_reads_the_ops_attributes(tmp_path):
    (tmp_path / "t.cpp").write_text(HOST_PROGRAM)
    c = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    # attribute 1 -> bfloat16, 0 -> float16, 7 -> failure; a float16 input needs no attribute; no attributes: nullptr
    assert out == "0 1 1|0 1|1|0 1 1|1"
