"""Forms vllm-ascend's csrc op projects (vLLM's Ascend backend, run on 910B / 910C) take from CANN's headers, found by
the conformance corpus: the device compiler's raw clz (lightning_indexer_vllm: `63 - clz(value)`), the header
register/op_def.h by its own name (the k2q_csr ops' definitions), and optiling::TilingDef named in a tiling class's
declaration (sparse_flash_attention: `SetTilingData(TilingDef &tilingData)`), and a tiling struct saved through a
TilingDef& (the same op's SetTilingData body). Kernels and host programs written here in those styles.

Also the rules where g++ and CANN's device compiler (bisheng, a clang) differ, which `build` recognises by g++'s exact
errors and compiles again under the g++ option that adopts bisheng's reading (`emu.COMPAT_RULES`): a member declared
with the name of a type it used (vllm-ascend / SGLang compressor, `static constexpr bool X_DTYPE = COMP::xDtype ==
X_DTYPE::BF16;`) and a call `ReduceSum<float>(...)` found by argument-dependent lookup only (SGLang's LoRA shrink
kernels, C++20's P0846)."""
import subprocess
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

CLZ = r'''#include "kernel_operator.h"
// the index of each value's highest set bit (-1 for 0), as a top-k bucketing does it with the raw intrinsic
extern "C" __global__ __aicore__ void highest_bit(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<uint64_t> xg;
    AscendC::GlobalTensor<int64_t> yg;
    xg.SetGlobalBuffer((__gm__ uint64_t*)x, 8);
    yg.SetGlobalBuffer((__gm__ int64_t*)y, 16);
    for (int i = 0; i < 8; ++i) {
        const uint64_t value = xg.GetValue(i);
        yg.SetValue(i, 63 - clz(value));
        yg.SetValue(8 + i, clz(value) == AscendC::ScalarCountLeadingZero(value) ? 1 : 0);
    }
}
'''


def test_the_raw_clz_counts_leading_zeros_as_scalar_count_leading_zero():
    x = np.array([0, 1, 2, 3, 1 << 20, (1 << 40) + 7, 1 << 63, (1 << 64) - 1], np.uint64)
    r = run(build({"clz.cpp": CLZ}), [GM("x", x), GM("y", np.zeros(16, np.int64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["y"][:8].tolist() == [-1, 0, 1, 1, 20, 40, 63, 63]   # 63 - 64 for 0
    assert r.outputs["y"][8:].tolist() == [1] * 8


HOST = r"""
#include <cstdio>
#include "register/op_def.h"
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(DemoTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
class DemoTiling {
public:
    ge::graphStatus SetTilingData(TilingDef &tilingData) const;   // declared, as the op's header does; not called
    DemoTilingData tilingData_;
};
}  // namespace optiling
namespace ops {
class Demo : public OpDef {
public:
    explicit Demo(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
}  // namespace ops
int main() {
    ops::Demo op("Demo");
    optiling::DemoTiling t;
    t.tilingData_.set_n(7);
    std::printf("%zu %u %zu\n", op.inputs_.size(), t.tilingData_.get_n(), sizeof(optiling::DemoTilingData));
}
"""


def _compile(tmp_path, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "p.cpp").write_text(text)
    return subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "p.cpp", "-o", "p"], cwd=tmp_path,
                          capture_output=True, text=True)


def test_op_def_h_and_a_declaration_naming_tiling_def_compile(tmp_path):
    assert _compile(tmp_path, HOST).returncode == 0
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    # the tiling struct is its fields alone, padded to 8 bytes as the framework pads a tiling struct (a base class with
    # virtual functions would add a pointer: 16)
    assert out == ["1", "7", "8"]


SAVE_THROUGH_BASE = r"""
#include <cstdio>
#include <cstring>
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(InnerTiling)
TILING_DATA_FIELD_DEF(uint32_t, a);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(OuterTiling)
TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);   // first: the inner struct has the outer one's address
TILING_DATA_FIELD_DEF(uint64_t, b);
END_TILING_DATA_DEF;
// as sparse_flash_attention_tiling.cpp's SetTilingData: the object known only by the framework's base class
static size_t Save(TilingDef &tilingData, void *data, size_t capacity) {
    tilingData.SaveToBuffer(data, capacity);
    return tilingData.GetDataSize();
}
}  // namespace optiling
int main() {
    optiling::OuterTiling t;
    t.inner.set_a(7);
    t.set_b(9);
    unsigned char raw[64];
    std::memset(raw, 0xEE, sizeof raw);
    size_t n = optiling::Save(t, raw, sizeof raw);
    size_t m = optiling::Save(t.inner, raw + 32, 4);   // a capacity smaller than the struct: that many bytes
    uint32_t a; uint64_t b; uint32_t a2;
    std::memcpy(&a, raw, 4); std::memcpy(&b, raw + 8, 8); std::memcpy(&a2, raw + 32, 4);
    const optiling::TilingDef &same = t, &again = t;
    std::printf("%zu %zu %u %llu %u %d %d %zu\n", n, m, a, (unsigned long long)b, a2, raw[36], &same == &again,
                sizeof(optiling::OuterTiling));
}
"""


def test_a_tiling_struct_saved_through_tiling_def_gives_its_own_bytes(tmp_path):
    assert (r := _compile(tmp_path, SAVE_THROUGH_BASE)).returncode == 0, r.stderr
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    # the outer struct's 16 bytes (its nested struct padded to 8), the inner one's 8 with 4 of them saved; the layout
    # stays the fields' own (no base class in the struct); one view per object
    assert out == ["16", "8", "7", "9", "7", str(0xEE), "1", "16"]


def test_passing_a_tiling_struct_as_tiling_def_compiles(tmp_path):
    use = HOST.replace("int main() {", "ge::graphStatus optiling::DemoTiling::SetTilingData(TilingDef &d) const {\n"
                       "    return d.GetDataSize() ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;\n}\nint main() {")
    use = use.replace("    std::printf(", "    std::printf(\"%d \", (int)t.SetTilingData(t.tilingData_));\n    std::printf(")
    assert (r := _compile(tmp_path, use)).returncode == 0, r.stderr
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1", "7", "8"]   # GRAPH_SUCCESS


# g++ and bisheng: a member named as a type the class used ([basic.scope.class], no diagnostic required)
CHANGES_MEANING = r'''#include "kernel_operator.h"
enum class X_DTYPE { FP16, BF16 };
struct CompConf { static constexpr X_DTYPE xDtype = X_DTYPE::BF16; };
template <class COMP> class Scale {
public:
    static constexpr bool X_DTYPE = COMP::xDtype == X_DTYPE::BF16;   // as compressor's CompressorBlockVectorPerf
    __aicore__ inline float Factor() const { return X_DTYPE ? 2.0f : 1.0f; }
};
extern "C" __global__ __aicore__ void scale_by_dtype(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 8);
    yg.SetGlobalBuffer((__gm__ float*)y, 8);
    Scale<CompConf> s;
    for (int i = 0; i < 8; ++i) yg.SetValue(i, xg.GetValue(i) * s.Factor());
}
'''

# ... and a function template called with explicit arguments that only argument-dependent lookup finds (P0846): no
# `using namespace AscendC`, as SGLang's bgmv_shrink kernel calls ReduceSum
ADL_TEMPLATE_CALL = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    yg.SetGlobalBuffer((__gm__ float*)y, 8);
    AscendC::LocalTensor<float> in = buf.Get<float>(), out = in[64], work = in[128];
    AscendC::DataCopy(in, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    ReduceSum<float>(out, in, work, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    yg.SetValue(0, out.GetValue(0));
}
'''


def test_a_member_that_changes_a_names_meaning_builds_under_the_compat_rule():
    b = build({"scale.cpp": CHANGES_MEANING})
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    note = next(d for d in b.diagnostics if d.kind == "gxx-compat")
    assert note.severity == "note" and "changes-meaning (-fpermissive)" in note.message and note.line == 6
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"].tolist() == (2 * x).tolist()   # the bool member: BF16, so 2


def test_an_adl_only_template_call_builds_under_c_plus_plus_20_and_runs():
    b = build({"row_sum.cpp": ADL_TEMPLATE_CALL})
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    note = next(d for d in b.diagnostics if d.kind == "gxx-compat")
    assert "template-name-lookup (-std=c++20)" in note.message and note.line == 13
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][0] == x.sum()


def test_other_errors_keep_the_compat_rules_out():
    # a genuinely unknown template name: g++'s errors of the first build stand
    b = build({"row_sum.cpp": ADL_TEMPLATE_CALL.replace("ReduceSum<float>", "ReduceSumm<float>")})
    assert not b.ok and not any(d.kind == "gxx-compat" for d in b.diagnostics)
    assert any("ReduceSumm" in d.message for d in b.errors)
    # a changes-meaning error beside another error: no retry, both reported
    other = CHANGES_MEANING.replace("yg.SetValue(i, xg.GetValue(i) * s.Factor());", "yg.SetValue(i, undeclared_name);")
    b = build({"scale.cpp": other})
    assert not b.ok and not any(d.kind == "gxx-compat" for d in b.diagnostics)
    assert any("changes meaning" in d.message for d in b.errors) and any("undeclared_name" in d.message for d in b.errors)


def test_compat_rules_read_gxx_diagnostics_exactly():
    from ascendcraft.emu import compat_admits, compat_rules_for, COMPAT_RULES
    cm = ("k.h:4:27: error: declaration of 'constexpr const bool S<C>::X' changes meaning of 'X' [-fpermissive]\n"
          "    4 |     static constexpr bool X = C::x == X::B;\n      |                           ^\n")
    assert [r.name for r in compat_rules_for(cm)] == ["changes-meaning"]
    adl = ("k.cpp:9:5: error: 'ReduceSum' was not declared in this scope; did you mean 'AscendC::ReduceSum'?\n"
           "    9 |     ReduceSum<float>(o, i, w, 64);\n      |     ^~~~~~~~~\n"
           "k.cpp:9:15: error: expected primary-expression before 'float'\n"
           "    9 |     ReduceSum<float>(o, i, w, 64);\n      |               ^~~~~\n"
           "k.cpp:11:19: error: expected primary-expression before 'float'\n"   # a second call: no 'not declared'
           "   11 |     x = ReduceSum<float>(o, i, w, 64);\n      |                   ^~~~~\n")
    assert [r.name for r in compat_rules_for(adl)] == ["template-name-lookup"]
    assert [r.name for r in compat_rules_for(cm + adl)] == ["changes-meaning", "template-name-lookup"]
    # an undeclared name that is not followed by '<', a link error, an internal compiler error: no rule
    plain = "k.cpp:9:5: error: 'foo' was not declared in this scope\n    9 |     foo(1);\n      |     ^~~\n"
    assert compat_rules_for(plain) is None and compat_rules_for(adl + plain) is None
    assert compat_rules_for(cm + "collect2: error: ld returned 1 exit status\n") is None
    assert compat_rules_for("k.cpp:3:1: internal compiler error: in tsubst, at cp/pt.cc:15867\n") is None
    # -fpermissive passes other permissive errors too: the retry stands only when each one it let through is the rule's
    assert compat_admits([COMPAT_RULES["changes-meaning"]], cm.replace(": error: ", ": warning: "))
    other = "k.cpp:5:3: warning: invalid conversion from 'const int*' to 'int*' [-fpermissive]\n"
    assert not compat_admits([COMPAT_RULES["changes-meaning"]], other)
    assert not compat_admits([COMPAT_RULES["template-name-lookup"]], cm.replace(": error: ", ": warning: "))


def test_a_list_bool_attribute_reaches_the_tiling_function_as_one_byte_bools(tmp_path):
    """rms_norm_dynamic_quant's definition: Attr("output_mask").AttrType(OPTIONAL).ListBool({}), which its tiling reads as
    GetAttrPointer<gert::ContinuousVector>(i) cast to `const bool*`. The definition records the default (read from
    the compiled definition and from the text alike), a run passes a list of bools, and GetListInt gives no int view
    of it. The tiling scales alpha by how many are true, so a wrong element or count shows in the numbers."""
    import shutil
    from pathlib import Path

    import torch

    from ascendcraft.opproject import load_project, parse_op_definition, run_project
    folder = tmp_path / "scale_add_custom"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom", folder)
    host = folder / "op_host" / "scale_add_custom.cpp"
    text = host.read_text().replace('this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);',
                                    'this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);\n'
                                    '        this->Attr("mask").AttrType(OPTIONAL).ListBool({true, false, true});')
    text = text.replace("tiling.set_alpha(alpha ? *alpha : 1.0f);", """const gert::ContinuousVector* mask = context->GetAttrs()->GetAttrPointer<gert::ContinuousVector>(1);
    if (mask == nullptr || context->GetAttrs()->GetListInt(1) != nullptr) return ge::GRAPH_FAILED;
    const bool* m = static_cast<const bool*>(mask->GetData());
    float on = 0;
    for (size_t i = 0; i < mask->GetSize(); ++i) on += m[i] ? 1.0f : 0.0f;
    tiling.set_alpha((alpha ? *alpha : 1.0f) * on);""")
    host.write_text(text)
    attrs = {a.name: (a.kind, a.default) for a in load_project(folder).op.attrs}
    assert attrs["mask"] == ("list_bool", [True, False, True])
    parsed = {a.name: (a.kind, a.default) for a in parse_op_definition(text, "scale_add_custom.cpp").attrs}
    assert parsed["mask"] == ("list_bool", [True, False, True])
    x, y = torch.randn(4096), torch.randn(4096)
    for given, factor in (({}, 2.0), ({"mask": [False, False, True, True, True]}, 3.0)):
        r = run_project(folder, {"x": x, "y": y}, attrs={"alpha": 0.5, **given},
                        reference=lambda x, y, alpha, **_: x + alpha * factor * y)
        assert r.ok, (given, r.mismatches, [d.render() for d in r.run.diagnostics])


TENSOR_SHAPE = r"""
#include <cstdio>
#include "register/op_def_registry.h"
static int dims(const gert::StorageShape* shape) { return static_cast<int>(shape->GetStorageShape().GetDimNum()); }
int main() {
    gert::Tensor t;
    t.GetShape().MutableOriginShape() = gert::Shape({2, 3, 4});
    t.GetShape().MutableStorageShape() = gert::Shape({2, 12});
    const gert::Tensor& c = t;
    std::printf("%d %lld %lld\n", dims(&c.GetShape()), (long long)c.GetShape().GetOriginShape().GetDim(2),
                (long long)c.GetStorageShape().GetDim(1));
}
"""


def test_a_tensors_get_shape_gives_both_shapes(tmp_path):
    "gert::Tensor::GetShape(): the StorageShape (origin and storage) a tiling passes on as `const gert::StorageShape*`."
    r = _compile(tmp_path, TENSOR_SHAPE)
    assert r.returncode == 0, r.stderr[-2000:]
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["2", "4", "12"]


MX_SCALE = r'''#include "kernel_operator.h"
// a layout trait specialised on the MX-scale type, as a tla copy does it; on A2 the type is a byte (uint8_t)
template <typename T> struct IsMxScale { static constexpr int value = 0; };
template <> struct IsMxScale<AscendC::fp8_e8m0_t> { static constexpr int value = 1; };
extern "C" __global__ __aicore__ void mx_bytes(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<fp8_e8m0_t> xg;
    AscendC::GlobalTensor<int32_t> yg;
    xg.SetGlobalBuffer((__gm__ fp8_e8m0_t*)x, 4);
    yg.SetGlobalBuffer((__gm__ int32_t*)y, 4);
    yg.SetValue(0, IsMxScale<fp8_e8m0_t>::value + IsMxScale<fp4x2_e2m1_t>::value + IsMxScale<half>::value);
    yg.SetValue(1, static_cast<int32_t>(sizeof(fp8_e4m3fn_t) + sizeof(fp8_e5m2_t) + sizeof(fp4x2_e1m2_t)));
    yg.SetValue(2, xg.GetValue(3));
    yg.SetValue(3, 0);
}
'''


def test_the_a2_names_of_the_fp8_and_mx_scale_types_are_bytes():
    "fp8_e8m0_t (also AscendC::), fp8_e4m3fn_t, fp8_e5m2_t, fp4x2_e2m1_t, fp4x2_e1m2_t: uint8_t on A2, as the devkit has them."
    r = run(build({"mx.cpp": MX_SCALE}), [GM("x", np.array([1, 2, 3, 127], np.uint8)), GM("y", np.zeros(4, np.int32), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["y"].tolist() == [2, 3, 127, 0]   # every one-byte type is the same uint8_t: both match the trait


# moe_grouped_matmul's form: the op_host registers the tiling struct with BEGIN_TILING_DATA_DEF, and the kernel side
# defines a struct of the same name itself, `struct alignas(8) Name {`, which it reads by REGISTER_TILING_DEFAULT /
# GET_TILING_DATA_WITH_STRUCT: the kernel's own struct is that one (CANN's generated header does not clash with it)
OWN_STRUCT_HOST_H = r'''#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(DemoMoeTilingData)
TILING_DATA_FIELD_DEF(uint32_t, group_num);
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DemoMoe, DemoMoeTilingData)
}  // namespace optiling
'''
OWN_STRUCT_KERNEL_H = r'''#ifndef DEMO_MOE_TILING_DATA_H
#define DEMO_MOE_TILING_DATA_H
#include <cstdint>
#pragma pack(push, 8)
struct alignas(8) DemoMoeTilingData {
    uint32_t group_num;
    uint32_t n;
};
#pragma pack(pop)
#endif
'''
OWN_STRUCT_KERNEL = r'''#include "kernel_operator.h"
#include "demo_moe_tiling_data.h"
extern "C" __global__ __aicore__ void demo_moe(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(DemoMoeTilingData);
    GET_TILING_DATA_WITH_STRUCT(DemoMoeTilingData, t, tiling);
    AscendC::GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 8);
    yg.SetValue(0, t.group_num * t.n);
}
'''


def test_a_kernel_sides_own_aligned_tiling_struct_is_the_one_it_reads():
    import struct
    from ascendcraft.emu import Tiling, file_scope_types
    assert file_scope_types(OWN_STRUCT_KERNEL_H) == {"DemoMoeTilingData"}
    assert file_scope_types("struct [[deprecated]] A {};\nclass alignas(16) B final {};\nstruct C;\n") == {"A", "B"}
    b = build({"op_host/demo_moe_tiling.h": OWN_STRUCT_HOST_H, "op_kernel/demo_moe_tiling_data.h": OWN_STRUCT_KERNEL_H,
               "op_kernel/demo_moe.cpp": OWN_STRUCT_KERNEL}, "demo_moe")
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    r = run(b, [GM("y", np.zeros(8, np.uint32), "out"), GM("workspace", np.zeros(8, np.uint8), "workspace"),
                Tiling(struct.pack("<II", 6, 7))], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 42


def test_a_template_entry_is_called_by_its_global_name():
    # vllm_quant_lightning_indexer's op_host header has `constexpr uint32_t vllm_quant_lightning_indexer = 0;` in
    # namespace optiling and its kernel `using namespace optiling;`: the dispatching entry names the kernel as ::name
    from ascendcraft.emu import Entry, Param
    from ascendcraft.opproject import TplInstance, tpl_entry_source
    entry = Entry("demo_indexer", "op_kernel/demo_indexer.cpp", 3, (Param("x", "GM_ADDR", "pointer"),), "int D", "1")
    text = tpl_entry_source(entry, [TplInstance(5, ("1",))])
    assert "case 5ull: ::demo_indexer<1>(x); return;" in text


PLACEMENT = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::Tensor onDevice, onHost;
    onHost.data_.push_back(4);   // a value-dependent input's values, as the glue copies them in
    using U = gert::TensorPlacementUtils;
    // as sparse_attention_score's tiling: `if (!gert::TensorPlacementUtils::IsOnHost(t->GetPlacement())) ...`
    std::printf("%d %d %d %d %d %d\n", U::IsOnHost(onDevice.GetPlacement()), U::IsOnDevice(onDevice.GetPlacement()),
                U::IsOnHost(onHost.GetPlacement()), U::IsOnHostNotFollowing(onHost.GetPlacement()),
                U::IsOnHostFollowing(gert::kFollowing) && U::IsOnHost(gert::kFollowing),
                U::IsOnDeviceP2p(gert::kOnDeviceP2p) && U::IsOnDevice(gert::kOnDeviceP2p) && !U::IsOnDeviceHbm(gert::kOnDeviceP2p));
}
"""


def test_a_tiling_inputs_placement_is_the_host_when_its_values_were_given(tmp_path):
    assert (r := _compile(tmp_path, PLACEMENT)).returncode == 0, r.stderr
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1", "1", "1", "1", "1"]


# moe_grouped_matmul's op_host: its definition source includes its InferShape source by name (`#include
# "moe_grouped_matmul_infershape.cpp"`), which reads a dynamic input's description and dtype
INFERSHAPE_SOURCE = r'''namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::CompileTimeTensorDesc* xDesc = context->GetDynamicInputDesc(0, 0);
    if (xDesc == nullptr || ge::GetPrimaryFormat(xDesc->GetStorageFormat()) != ge::FORMAT_ND) return GRAPH_FAILED;
    *context->GetOutputShape(0) = *context->GetDynamicInputShape(0, 0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetDynamicInputDataType(0, 0));
    return GRAPH_SUCCESS;
}
}  // namespace ge
'''


def test_a_host_source_included_by_name_and_a_dynamic_inputs_desc(tmp_path):
    import re
    import shutil
    import torch
    from ascendcraft.opproject import load_project, run_project
    folder = tmp_path / "scale_add_custom"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom", folder)
    host = folder / "op_host" / "scale_add_custom.cpp"
    text, n = re.subn(r"namespace ge \{.*?\}  // namespace ge\n", '#include "scale_add_custom_infershape.cpp"\n',
                      host.read_text(), flags=re.S)
    assert n == 1
    host.write_text(text)
    (folder / "op_host" / "scale_add_custom_infershape.cpp").write_text(INFERSHAPE_SOURCE)
    x, y = torch.randn(4096), torch.randn(4096)
    r = run_project(load_project(folder), {"x": x, "y": y}, attrs={"alpha": 0.5},
                    reference=lambda x, y, alpha: x + alpha * y)
    assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])


REGISTER_PLACEMENTS = r"""
#include <cstdio>
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus DemoTiling(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }
// as sparse_attention_score_tiling.cpp registers its tiling: the inputs whose values it reads, and where it may run
IMPL_OP_OPTILING(DemoSparse)
    .Tiling(DemoTiling)
    .TilingInputsDataDependency({5, 6, 7}, {gert::TilingPlacement::TILING_ON_HOST, gert::TilingPlacement::TILING_ON_AICPU});
}  // namespace optiling
int main() { std::printf("ok\n"); }
"""


def test_tiling_inputs_data_dependency_takes_the_placements(tmp_path):
    assert (r := _compile(tmp_path, REGISTER_PLACEMENTS)).returncode == 0, r.stderr
