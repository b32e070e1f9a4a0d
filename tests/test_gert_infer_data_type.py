"""The emulated op-host SDK names hicann ops-transformer's op_host sources use and it lacked (each checked with a host
program in the public sources' form): gert::InferDataTypeContext's GetAttrs, GetRequiredInputDataType and
GetComputeNodeOutputNum (flash_attention_score's, mla_prolog's and grouped_matmul's InferDataType), InferShapeContext's
GetOptionalInputTensor / GetOptionalInputDesc and fe::PlatformInfoManager (grouped_matmul's InferShape),
ge::GetFormatName (mla_prolog's tiling checks) and the list form of OpMC2Def::HcclGroup (moe_distribute_combine's
definition). Without them those op projects' host code did not compile."""
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


def _runs(tmp_path, program: str) -> str:
    "What a host program with the emulated SDK headers prints."
    (tmp_path / "t.cpp").write_text(program)
    c = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-2000:]
    return subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout


def test_an_infer_data_type_function_reads_the_ops_attributes(tmp_path):
    out = _runs(tmp_path, HOST_PROGRAM)
    # attribute 1 -> bfloat16, 0 -> float16, 7 -> failure; a float16 input needs no attribute; no attributes: nullptr
    assert out == "0 1 1|0 1|1|0 1 1|1"


# graph/types.h's ge::GetFormatName: a format's name, as a C string (ops-transformer mla_prolog's tiling checks print
# the expected and the given format with it); the same names as TypeUtils::FormatToSerialString. And its
# kDataTypeSizeBitOffset, below which a byte type's size stays (flash_attention_score_grad's tilings compare with it)
FORMAT_PROGRAM = r"""
#include <cstdio>
#include <string>
#include "graph/types.h"
#include "graph/utils/type_utils.h"
int main() {
    const char* nd = ge::GetFormatName(ge::FORMAT_ND);
    const char* nz = ge::GetFormatName(ge::FORMAT_FRACTAL_NZ);
    std::printf("%s %s %s %d %d", nd, nz, ge::GetFormatName(ge::FORMAT_NCDHW),
                ge::TypeUtils::FormatToSerialString(ge::FORMAT_FRACTAL_NZ) == std::string(nz),
                ge::GetSizeByDataType(ge::DT_BF16) < ge::kDataTypeSizeBitOffset);
    return 0;
}
"""


def test_get_format_name_names_a_format(tmp_path):
    out = _runs(tmp_path, FORMAT_PROGRAM)
    assert out == "ND FRACTAL_NZ NCDHW 1 1"


# gert::InferShapeContext's GetOptionalInputTensor and GetOptionalInputDesc: an optional input's tensor and description
# by its IR index, after the dynamic inputs' instances (ops-transformer grouped_matmul's InferShape reads group_list's
# length and dtype after the x and weight lists); nullptr when the input is absent; the IR index is the place when the
# context has no IR layout
OPTIONAL_INPUT_PROGRAM = r"""
#include <cstdio>
#include "ascendcraft_emu/op_host.h"
#include "register/op_impl_registry.h"
// as grouped_matmul's InferShape: the optional group_list (IR input 2) after the x and weight lists
static int64_t GroupListLength(const gert::InferShapeContext* context) {
    const gert::Tensor* groupList = context->GetOptionalInputTensor(2);
    return groupList == nullptr ? -1 : groupList->GetStorageShape().GetDim(0);
}
// and its dtype, by the description placed the same way (-1: absent)
static int GroupListDtype(const gert::InferShapeContext* context) {
    const gert::CompileTimeTensorDesc* desc = context->GetOptionalInputDesc(2);
    return desc == nullptr ? -1 : static_cast<int>(desc->GetDataType());
}
int main() {
    gert::InferShapeContext c;
    c.in_tensors_.resize(5);
    c.in_tensors_[2].GetShape().MutableStorageShape() = gert::Shape({7});
    c.in_tensors_[4].GetShape().MutableStorageShape() = gert::Shape({3});
    c.in_desc_.resize(5);
    c.in_desc_[2].dtype_ = ge::DT_FLOAT16;
    c.in_desc_[4].dtype_ = ge::DT_INT64;
    c.ir_inputs_ = {gert::AnchorInstanceInfo(0, 2), gert::AnchorInstanceInfo(2, 2), gert::AnchorInstanceInfo(4, 1)};
    long a = GroupListLength(&c);
    int at = GroupListDtype(&c) == ge::DT_INT64;
    c.ir_inputs_[2] = gert::AnchorInstanceInfo(4, 0);   // absent
    long b = GroupListLength(&c);
    int bt = GroupListDtype(&c);
    c.ir_inputs_.clear();                               // no IR layout: the IR index is the place
    long d = GroupListLength(&c);
    int dt = GroupListDtype(&c) == ge::DT_FLOAT16;
    std::printf("%ld %ld %ld|%d %d %d", a, b, d, at, bt, dt);
    return 0;
}
"""


def test_an_infershape_function_reads_an_optional_inputs_tensor_and_desc_by_its_ir_index(tmp_path):
    # group_list: 3 long, int64; absent: none; without the layout, instance 2: 7 long, float16
    assert _runs(tmp_path, OPTIONAL_INPUT_PROGRAM) == "3 -1 7|1 -1 1"


# an MC2 op's communication groups, one name or a list (ops-transformer moe_distribute_combine's definition)
HCCL_GROUP_PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include "ascendcraft_emu/op_host.h"
#include "register/op_def_registry.h"
namespace ops {
class MoeCombineLike : public OpDef {
public:
    explicit MoeCombineLike(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->MC2().HcclGroup({"group_ep", "group_tp"});
    }
};
}  // namespace ops
int main() {
    ops::MoeCombineLike op("MoeCombineLike");
    auto& g = op.MC2().groups_;
    std::printf("%zu %s %s|", g.size(), g[0], g[1]);
    op.MC2().HcclGroup("group");
    std::printf("%zu %s", g.size(), g[0]);
    return 0;
}
"""


def test_an_mc2_definition_names_its_communication_groups_as_a_list(tmp_path):
    assert _runs(tmp_path, HCCL_GROUP_PROGRAM) == "2 group_ep group_tp|1 group"


# fe::PlatformInfoManager: the emulated chip's names and core counts, as gert::PlatformInfoHandle gives them
# (ops-transformer grouped_matmul's InferShape tells a 310P from an A2 by OptionalInfo's soc_version)
PLATFORM_MANAGER_PROGRAM = r"""
#include <cstdio>
#include <string>
#include "register/op_impl_registry.h"
#include "platform/platform_info.h"
// as grouped_matmul's InferShape: a 310P or an A2, from the platform-info manager
int main() {
    fe::PlatformInfo platformInfo;
    fe::OptionalInfo optionalInfo;
    auto ret = fe::PlatformInfoManager::Instance().GetPlatformInfoWithOutSocVersion(platformInfo, optionalInfo);
    bool is310p = optionalInfo.soc_version.find("310P") != std::string::npos;
    std::printf("%u %s %s %d %u %u", ret, optionalInfo.soc_version.c_str(),
                platformInfo.str_info.short_soc_version.c_str(), is310p, platformInfo.soc_info.ai_core_cnt,
                platformInfo.soc_info.vector_core_cnt);
    return 0;
}
"""


def test_the_platform_info_manager_answers_with_the_emulated_chip(tmp_path):
    assert _runs(tmp_path, PLATFORM_MANAGER_PROGRAM) == "0 Ascend910B1 Ascend910B 0 24 48"


# InferDataTypeContext::GetComputeNodeOutputNum: the node's outputs, as the context's filler sets them (grouped_matmul's
# InferDataType gives each of its y outputs a dtype)
OUTPUT_NUM_PROGRAM = r"""
#include <cstdio>
#include "ascendcraft_emu/op_host.h"
static ge::graphStatus InferDataTypeEachY(gert::InferDataTypeContext* context) {
    size_t numY = context->GetComputeNodeOutputNum();
    for (size_t k = 0; k < numY; ++k) context->SetOutputDataType(k, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
int main() {
    gert::InferDataTypeContext c;
    c.in_ = {ge::DT_BF16};
    c.node_outputs_ = 3;
    InferDataTypeEachY(&c);
    std::printf("%zu %d %d", c.out_.size(), c.GetOutputDataType(2) == ge::DT_BF16,
                c.GetOutputDataType(3) == ge::DT_UNDEFINED);
    return 0;
}
"""


def test_an_infer_data_type_function_sets_each_of_the_nodes_outputs(tmp_path):
    assert _runs(tmp_path, OUTPUT_NUM_PROGRAM) == "3 1 1"
