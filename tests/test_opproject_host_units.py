"""Op_host sources that nothing calls into but that register a tiling template with a static object, as CANN's shared
tiling registries do (`REGISTER_TILING_TEMPLATE("Op", SomeTiling, priority)` in their own .cpp: NPUKernelBench's
DequantSwigluQuant, LayerNormV4, BatchNormV3). CANN's build links every op_host source, so the registrations are there
when the TilingFunc asks the registry; a build that linked only what the TilingFunc calls lost them, and the tiling
failed with "no valid template". The project here is our own: a small registry, two templates in two files."""
from pathlib import Path

import numpy as np
import torch

from ascendcraft.opproject import load_project, run_project

REGISTRY = r"""#pragma once
// A tiny tiling-template registry: templates register themselves by priority from static objects in their own files.
#include <map>
#include <memory>
#include "register/op_def_registry.h"
namespace optiling {
struct TplTiling {
    virtual ~TplTiling() = default;
    virtual bool Fits(gert::TilingContext* context) = 0;     // can this template tile the case?
    virtual ge::graphStatus Tile(gert::TilingContext* context) = 0;
};
using TplMaker = std::unique_ptr<TplTiling> (*)();
inline std::map<int, TplMaker>& Templates() { static std::map<int, TplMaker> all; return all; }
struct TplRegister {
    TplRegister(int priority, TplMaker make) { Templates()[priority] = make; }
};
#define REGISTER_TILING_TEMPLATE(op, cls, priority) \
    static optiling::TplRegister cls##_registered_##priority(priority, []() -> std::unique_ptr<optiling::TplTiling> { return std::unique_ptr<optiling::TplTiling>(new cls()); })
inline ge::graphStatus RunTemplates(gert::TilingContext* context) {
    for (auto& [priority, make] : Templates()) {
        auto t = make();
        if (t->Fits(context)) return t->Tile(context);
    }
    std::printf("no template fits\n");
    return ge::GRAPH_FAILED;
}
}  // namespace optiling
"""

TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TplScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TplScaleCustom, TplScaleTilingData)
}  // namespace optiling
"""

HOST = r"""#include "tpl_scale_custom_tiling.h"
#include "tpl_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) { return RunTemplates(context); }
}  // namespace optiling
namespace ops {
class TplScaleCustom : public OpDef {
public:
    explicit TplScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TplScaleCustom);
}  // namespace ops
"""

# key 1 doubles on 8 cores when the length splits into whole 64-float blocks per core; key 2 triples on one core
TEMPLATE = r"""#include "tpl_scale_custom_tiling.h"
#include "tpl_registry.h"
namespace optiling {
class {cls} : public TplTiling {
public:
    bool Fits(gert::TilingContext* context) override {
        const int64_t n = context->GetInputTensor(0)->GetShapeSize();
        return {fits};
    }
    ge::graphStatus Tile(gert::TilingContext* context) override {
        const int64_t n = context->GetInputTensor(0)->GetShapeSize();
        TplScaleTilingData tiling;
        tiling.set_perCore(static_cast<uint32_t>(n / {cores}));
        tiling.set_factor({factor}f);
        context->SetBlockDim({cores});
        context->SetTilingKey({key});
        tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
        context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
        context->GetWorkspaceSizes(1)[0] = 0;
        return ge::GRAPH_SUCCESS;
    }
};
REGISTER_TILING_TEMPLATE("TplScaleCustom", {cls}, {priority});
}  // namespace optiling
"""

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void tpl_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * t.perCore, t.perCore);
    yg.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * t.perCore, t.perCore);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xg, t.perCore);
    PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(1)) {
        Muls(v, v, t.factor, t.perCore);
    } else if (TILING_KEY_IS(2)) {
        Muls(v, v, t.factor, t.perCore);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, v, t.perCore);
}
"""


def _template(cls, fits, cores, factor, key, priority):
    text = TEMPLATE
    for k, v in dict(cls=cls, fits=fits, cores=cores, factor=factor, key=key, priority=priority).items():
        text = text.replace("{" + k + "}", str(v))
    return text


def _runs_and_doubles(folder: Path):
    "The project builds, its TilingFunc picks a template, and the kernel doubles x: the run, for its key and grid."
    x = torch.randn(8 * 64 * 3)
    r = run_project(load_project(folder), {"x": x}, outputs={"y": (tuple(x.shape), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 2, rtol=1e-6)
    return r


def _project(tmp_path: Path) -> Path:
    files = {
        "op_host/tpl_scale_custom.cpp": HOST,
        "op_host/tpl_scale_custom_tiling.h": TILING_H,
        "op_host/tpl_registry.h": REGISTRY,
        "op_host/tpl_scale_split.cpp": _template("SplitTiling", "n % (8 * 64) == 0", 8, 2.0, 1, 0),
        "op_host/tpl_scale_single.cpp": _template("SingleTiling", "n % 64 == 0", 1, 3.0, 2, 1),
        "op_kernel/tpl_scale_custom.cpp": KERNEL,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_templates_registered_by_static_objects_in_their_own_files_are_linked(tmp_path):
    project = load_project(_project(tmp_path))
    x = torch.randn(8 * 64 * 3)
    r = run_project(project, {"x": x}, outputs={"y": (tuple(x.shape), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    assert (r.tiling_key, r.block_dim) == (1, 8)          # the priority-0 template, from tpl_scale_split.cpp
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 2, rtol=1e-6)
    x = torch.randn(64 * 5)                                 # does not split over 8 cores: the next template
    r = run_project(project, {"x": x}, outputs={"y": (tuple(x.shape), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    assert (r.tiling_key, r.block_dim) == (2, 1)
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 3, rtol=1e-6)


def test_an_infershape_function_that_logs_without_a_newline_still_gives_its_shapes(tmp_path):
    # NPUKernelBench's op_hosts define OP_LOGI as a bare printf: its text ran into the first shape line of the infer
    # program's output, and that output's shape was lost
    from ascendcraft.opproject import infer_output_shapes
    logged = HOST.replace("namespace ops {", r"""static ge::graphStatus Infer(gert::InferShapeContext* context) {
    std::printf("Begin to do InferShape.");
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    std::printf("End to do InferShape.");
    return ge::GRAPH_SUCCESS;
}
namespace ops {""", 1).replace("this->AICore().SetTiling", "this->SetInferShape(Infer);\n        this->AICore().SetTiling")
    folder = _project(tmp_path)
    (folder / "op_host/tpl_scale_custom.cpp").write_text("#include <cstdio>\n" + logged)
    project = load_project(folder)
    assert infer_output_shapes(project, [torch.randn(4, 128)], {}) == {"y": (4, 128)}
    x = torch.randn(8, 64)   # run_project without outputs or a reference: the shapes come from that function
    r = run_project(project, {"x": x})
    assert r.run.ok and r.outputs["y"].shape == (8, 64)
    np.testing.assert_allclose(r.outputs["y"], x.numpy() * 2, rtol=1e-6)


def test_an_infershape_function_reads_its_outputs_dtype_and_format(tmp_path):
    # cann-ops conv2d_backprop_filter_v2's InferShape folds a depthwise filter's dims by the output's format,
    # `context->GetOutputDesc(0)->GetOriginFormat()`: the output's dtype and format are its definition column's
    from ascendcraft.opproject import infer_output_shapes
    reads = HOST.replace("namespace ops {", r"""static ge::graphStatus Infer(gert::InferShapeContext* context) {
    const auto* y = context->GetOutputDesc(0);
    if (y == nullptr || y->GetOriginFormat() != ge::FORMAT_NCHW || y->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, x->GetDim(0) * x->GetDim(1));   // NCHW: the two leading dims folded, as the depthwise filter's
    return ge::GRAPH_SUCCESS;
}
namespace ops {""", 1).replace("this->AICore().SetTiling", "this->SetInferShape(Infer);\n        this->AICore().SetTiling")
    reads = reads.replace('this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})',
                          'this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW})', 1)
    assert "FORMAT_NCHW" in reads and "SetInferShape(Infer)" in reads
    folder = _project(tmp_path)
    (folder / "op_host/tpl_scale_custom.cpp").write_text(reads)
    assert infer_output_shapes(load_project(folder), [torch.randn(4, 128)], {}) == {"y": (512,)}


def test_an_op_host_file_has_numeric_limits_from_the_sdk_headers(tmp_path):
    # CANN's gert::Shape header (exe_graph/runtime/shape.h) includes <limits>, so op_host files use std::numeric_limits
    # without including it themselves (NPUKernelBench's FlashAttentionScoreWithLargeHeadDim); here a template's test
    folder = _project(tmp_path)
    registry = folder / "op_host/tpl_registry.h"
    text = registry.read_text()
    assert "<limits>" not in text
    registry.write_text(text.replace("if (t->Fits(context))",
                                     "if (std::numeric_limits<int>::max() > priority && t->Fits(context))"))
    _runs_and_doubles(folder)


def test_a_gert_shape_is_written_through_its_subscript_and_keeps_its_slots(tmp_path):
    # CANN's gert::Shape returns references from operator[] (NPUKernelBench ReverseSequence's strided-slice helper
    # writes `dense->begin[i] = dense->end[i] = 0` after SetDimNum), and SetDimNum moves only the count: a slot written
    # before the count shrank keeps its value when it grows again. A wrong value makes no template fit.
    folder = _project(tmp_path)
    registry = folder / "op_host/tpl_registry.h"
    registry.write_text(registry.read_text().replace("if (t->Fits(context))", """gert::Shape s;
        s.SetDimNum(3);
        s[0] = s[2] = priority + 7;
        s[1] = 5;
        s.SetDimNum(1);
        const bool shrunk = s.GetDimNum() == 1 && s.GetShapeSize() == priority + 7;
        s.SetDimNum(3);
        const gert::Shape& view = s;
        const int64_t& last = view[2];
        s.AppendDim(9);
        if (shrunk && last == priority + 7 && s.GetDim(1) == 5 && s.GetDimNum() == 4 && s[3] == 9 &&
            s == gert::Shape({priority + 7, 5, priority + 7, 9}) && t->Fits(context))"""))
    r = _runs_and_doubles(folder)
    assert r.tiling_key == 1



def test_a_check_support_function_on_ge_operator_compiles_and_reads_descs_and_attrs(tmp_path):
    # An OpDef's check-support function takes GE's graph view of the operator (NPUKernelBench ReverseSequence:
    # SetCheckSupport(CheckSupported) reading GetInputDescByName("x").GetShape().GetDims() and GetAttr("seq_dim", int64_t&),
    # and returning ge::GRAPH_NOT_CHANGED for an unknown case). The emulated host calls no such function; here the
    # TilingFunc builds a view and asks it: a wrong answer fails the tiling.
    folder = _project(tmp_path)
    host = folder / "op_host/tpl_scale_custom.cpp"
    text = host.read_text().replace("namespace optiling {", """namespace optiling {
static ge::graphStatus CheckSupported(const ge::Operator& op, ge::AscendString& result) {
    const ge::Shape x = op.GetInputDescByName("x").GetShape();
    int64_t dim = 0;
    float scale = 0;
    if (op.GetAttr("dim", dim) != ge::GRAPH_SUCCESS) return ge::GRAPH_NOT_CHANGED;
    if (op.GetAttr("dim", scale) == ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;   // an int attribute is not a float one
    if (op.GetAttr("missing", dim) == ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    const bool fits = x.GetDims() == std::vector<int64_t>{8, 192} && dim == 1 &&
        op.GetInputDescByName("x").GetDataType() == ge::DT_FLOAT && op.GetOutputDescByName("y").GetShape().GetDimNum() == 0;
    result = ge::AscendString(fits ? "{\\"isSupported\\": \\"True\\"}" : "{\\"isSupported\\": \\"False\\"}");
    return fits ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}""", 1).replace("static ge::graphStatus TilingFunc(gert::TilingContext* context) { return RunTemplates(context); }",
                 """static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    ge::Operator op;
    op.UpdateInputDesc("x", ge::TensorDesc(ge::Shape({8, 192}), ge::FORMAT_ND, ge::DT_FLOAT));
    ge::AscendString answer;
    if (CheckSupported(op, answer) != ge::GRAPH_NOT_CHANGED) return ge::GRAPH_FAILED;   // no attribute yet
    op.SetAttr("dim", int64_t(1));
    if (CheckSupported(op, answer) != ge::GRAPH_SUCCESS || std::string(answer.GetString()).find("True") == std::string::npos)
        return ge::GRAPH_FAILED;
    return RunTemplates(context);
}""", 1).replace("this->AICore().SetTiling(optiling::TilingFunc);",
                 "this->AICore().SetTiling(optiling::TilingFunc);\n        this->AICore().SetCheckSupport(optiling::CheckSupported);", 1)
    assert text.count("CheckSupported") == 4
    host.write_text(text)
    _runs_and_doubles(folder)



def test_templates_whose_base_class_is_defined_in_another_source_link_it_too(tmp_path):
    # BatchNormV3: its templates (full_reduce, welford) derive from a class whose methods are defined in
    # batch_norm_v3_tiling_base.cpp, which registers nothing; CANN links every op_host source, so that one is linked as
    # well, but not its aclnn wrapper code (opdev / aclnn_kernels headers, which no device launch needs)
    folder = _project(tmp_path)
    registry = folder / "op_host/tpl_registry.h"
    registry.write_text(registry.read_text().replace("namespace optiling {", "namespace optiling {\nint SplitCores();", 1))
    split = folder / "op_host/tpl_scale_split.cpp"
    split.write_text(split.read_text().replace("n / 8", "n / SplitCores()").replace(
        "SetBlockDim(8)",   # the input's formats (gert::StorageFormat, as BatchNormV3's tiling reads x's)
        "SetBlockDim(context->GetInputDesc(0)->GetFormat().GetStorageFormat() == ge::FORMAT_ND ? SplitCores() : 1)"))
    assert "SplitCores()" in split.read_text()
    (folder / "op_host/tpl_scale_base.cpp").write_text(
        '#include "tpl_registry.h"\nnamespace optiling {\nint SplitCores() { return 8; }\n}  // namespace optiling\n')
    (folder / "op_host/aclnn_tpl_scale.cpp").write_text(
        '#include "opdev/op_executor.h"   // CANN\'s aclnn runtime: not in the emulated SDK\n'
        'aclnnStatus aclnnTplScaleGetWorkspaceSize(const aclTensor* x, aclTensor* y, uint64_t* size, aclOpExecutor** e);\n')
    r = _runs_and_doubles(folder)
    assert (r.tiling_key, r.block_dim) == (1, 8)


PROTO = r"""#pragma once
// the op's IR, as hicann ops-nn keeps it in op_graph/<op>_proto.h
#include "graph/operator_reg.h"
namespace ge {
REG_OP(TplScaleCustom)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16, DT_BF16}))
    .OPTIONAL_INPUT(group_index, TensorType::IndexNumberType())
    .DYNAMIC_INPUT(extra, "T")
    .OUTPUT(y, "T")
    .ATTR(dim, Int, -1)
    .ATTR(alpha, Float, 1.702)
    .ATTR(mode, String, "fast")
    .ATTR(pads, ListInt, {0, 0, 0, 0})
    .ATTR(dst_type, Type, DT_FLOAT)
    .ATTR(value, Tensor, Tensor())
    .REQUIRED_ATTR(strides, ListInt)
    .DATATYPE(T, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(TplScaleCustom)
}  // namespace ge
"""


TILING_FUNC = "static ge::graphStatus TilingFunc(gert::TilingContext* context) { return RunTemplates(context); }"


def _with_ir(tmp_path: Path, includes: str = "") -> Path:
    "The project with its IR in op_graph/, which its tiling header includes as hicann ops-nn's do, after `includes`."
    folder = _project(tmp_path)
    (folder / "op_graph").mkdir()
    (folder / "op_graph/tpl_scale_custom_proto.h").write_text(PROTO)
    tiling = folder / "op_host/tpl_scale_custom_tiling.h"
    tiling.write_text(tiling.read_text().replace('#include "register/tilingdata_base.h"', '#include "register/tilingdata_base.h"\n'
                                                 + includes + '#include "../op_graph/tpl_scale_custom_proto.h"', 1))
    return folder


def test_an_op_ir_of_op_graph_compiles_and_its_operator_class_answers(tmp_path):
    # hicann ops-nn's tiling headers include the op's IR (`#include "../op_graph/clipped_swiglu_proto.h"`: REG_OP(...)
    # .INPUT(...).ATTR(...).OP_END_FACTORY_REG(...) from graph/operator_reg.h), and shared headers include
    # graph/operator.h. The IR makes ge::op::<Op>, a ge::Operator: the TilingFunc here builds one and checks what it says
    # (attribute defaults and settings, the registered inputs, its type); a wrong answer fails the tiling. The OpDef's
    # attribute and input take a `.Version(n)` (the op version that added them), as clipped_swiglu's does.
    # graph/types.h's ge::GetSizeInBytes and ops-base's GetSafeStr / D_OP_LOGD are checked too.
    folder = _with_ir(tmp_path, '#include "graph/operator.h"\n#include "log/log.h"\n')
    host = folder / "op_host/tpl_scale_custom.cpp"
    text = host.read_text().replace(
        TILING_FUNC,
        """static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    ge::op::TplScaleCustom op("scale1");
    ge::AscendString type, name;
    op.GetOpType(type);
    op.GetName(name);
    if (std::string(type.GetString()) != "TplScaleCustom" || std::string(name.GetString()) != "scale1") return ge::GRAPH_FAILED;
    if (op.get_attr_dim() != -1 || op.get_attr_alpha() != 1.702f || op.get_attr_mode() != "fast") return ge::GRAPH_FAILED;
    if (op.get_attr_pads() != std::vector<int64_t>{0, 0, 0, 0} || op.get_attr_dst_type() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
    op.set_attr_dim(1).set_attr_mode("exact");
    int64_t dim = 0;
    if (op.get_attr_dim() != 1 || op.GetAttr("dim", dim) != ge::GRAPH_SUCCESS || dim != 1) return ge::GRAPH_FAILED;
    if (op.get_attr_mode() != "exact" || ge::op::TplScaleCustom::name_attr_strides() != "strides") return ge::GRAPH_FAILED;
    op.update_input_desc_x(ge::TensorDesc(ge::Shape({8, 192}), ge::FORMAT_ND, ge::DT_FLOAT));
    if (op.get_input_desc_x().GetShape().GetDims() != std::vector<int64_t>{8, 192}) return ge::GRAPH_FAILED;
    if (op.GetInputDescByName("x").GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
    // graph/types.h's byte size of a count of elements (experimental relu_v3's tiling): int4 packs two to a byte
    if (ge::GetSizeInBytes(5, ge::DT_FLOAT16) != 10 || ge::GetSizeInBytes(3, ge::DT_INT4) != 2) return ge::GRAPH_FAILED;
    // the log helpers ops-nn's common error_util.h builds its macros from
    D_OP_LOGD(Ops::Base::GetSafeStr(Ops::Base::GetOpInfo(context)), "tiling %d", 1);
    if (std::string(Ops::Base::GetSafeStr(Ops::Base::GetOpInfo(std::string("op1")))) != "op1") return ge::GRAPH_FAILED;
    return RunTemplates(context);
}""", 1).replace('this->Input("x").ParamType(REQUIRED)', 'this->Input("x").ParamType(REQUIRED).Version(1)', 1)
    assert text.count("TplScaleCustom op") == 1 and ".Version(1)" in text
    host.write_text(text)
    _runs_and_doubles(folder)


def test_an_ir_operator_gives_its_descs_by_index_and_an_infer_data_type_context_its_optional_inputs(tmp_path):
    # ops-nn dynamic_rnnv2's OpSelectFormat reads op.GetInputDesc(0).GetShape() (a ge::Operator's inputs by index: the
    # IR's order, a dynamic input's instances where they are created); cann-ops dynamic_rnnv2's InferDataType reads
    # context->GetOptionalInputDataType(3). The TilingFunc asks both; a wrong answer fails the tiling.
    folder = _with_ir(tmp_path)
    host = folder / "op_host/tpl_scale_custom.cpp"
    text = host.read_text().replace(
        TILING_FUNC,
        """static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    ge::op::TplScaleCustom op("scale1");
    op.update_input_desc_group_index(ge::TensorDesc(ge::Shape({3}), ge::FORMAT_ND, ge::DT_INT64));
    op.update_input_desc_x(ge::TensorDesc(ge::Shape({8, 192}), ge::FORMAT_ND, ge::DT_FLOAT));
    op.create_dynamic_input_extra(2);
    op.UpdateInputDesc("extra1", ge::TensorDesc(ge::Shape({5}), ge::FORMAT_ND, ge::DT_FLOAT16));
    if (op.GetInputDesc(0).GetShape().GetDims() != std::vector<int64_t>{8, 192}) return ge::GRAPH_FAILED;   // x, IR order
    if (op.GetInputDesc(1).GetDataType() != ge::DT_INT64 || op.GetInputDesc(3).GetDataType() != ge::DT_FLOAT16)
        return ge::GRAPH_FAILED;
    if (op.GetInputDesc(4).GetShape().GetDimNum() != 0 || op.GetOutputDesc(0).GetShape().GetDimNum() != 0) return ge::GRAPH_FAILED;
    gert::InferDataTypeContext types;
    types.in_ = {ge::DT_FLOAT16, ge::DT_INT64};
    if (types.GetOptionalInputDataType(1) != ge::DT_INT64 || types.GetOptionalInputDataType(2) != ge::DT_UNDEFINED)
        return ge::GRAPH_FAILED;
    return RunTemplates(context);
}""", 1)
    assert text.count("TplScaleCustom op") == 1
    host.write_text(text)
    _runs_and_doubles(folder)


def test_a_link_that_still_fails_names_what_the_furthest_try_misses(tmp_path):
    # CANN links every op_host source; a build that fails to link tries again with the project's other op_host sources.
    # When that still fails, the error is the try that got furthest (every unit compiled, fewest symbols missing): here
    # Beta, which no source defines, and not Alpha too, which op_host/alpha.cpp defines (conv3d's projects reported
    # the first try's long list, hiding the one symbol the emulated SDK lacked)
    from ascendcraft.opproject import build_project
    folder = _project(tmp_path)
    host = folder / "op_host/tpl_scale_custom.cpp"
    host.write_text(host.read_text().replace(
        TILING_FUNC,
        "int Alpha();\nint Beta();\nstatic ge::graphStatus TilingFunc(gert::TilingContext* context) "
        "{ return Alpha() + Beta() < 0 ? ge::GRAPH_FAILED : RunTemplates(context); }"))
    (folder / "op_host/alpha.cpp").write_text("namespace optiling {\nint Alpha() { return 1; }\n}  // namespace optiling\n")
    b = build_project(load_project(folder))
    assert not b.ok and "undefined reference" in b.log
    assert "optiling::Beta()" in b.log and "optiling::Alpha()" not in b.log, b.log[-2000:]


def test_a_source_that_registers_only_the_aclnn_fallback_is_left_out_of_the_host_build(tmp_path):
    # hicann ops-transformer's fallback_<op>.cpp: `IMPL_OP(Op).OpExecuteFunc(fn)` over the aclnn headers (graph mode's
    # fallback to the aclnn API), which nothing here calls and the emulation does not have: the project builds and runs
    # without it, as it did before the file was there
    folder = _project(tmp_path)
    (folder / "op_host/fallback_tpl_scale_custom.cpp").write_text(
        '#include "aclnn/aclnn_base.h"\n#include "register/op_impl_registry.h"\nnamespace fallback {\n'
        "static ge::graphStatus ScaleHostExecuteFunc(gert::OpExecuteContext* host_api_ctx) { return aclnnScale(host_api_ctx); }\n"
        "IMPL_OP(TplScaleCustom).OpExecuteFunc(ScaleHostExecuteFunc);\n}  // namespace fallback\n")
    _runs_and_doubles(folder)
