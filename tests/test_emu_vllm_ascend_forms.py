"""Forms vllm-ascend's csrc op projects (vLLM's Ascend backend, run on 910B / 910C) take from CANN's headers, found by
the conformance corpus: the device compiler's raw clz (lightning_indexer_vllm: `63 - clz(value)`), the header
register/op_def.h by its own name (the k2q_csr ops' definitions), and optiling::TilingDef named in a tiling class's
declaration (sparse_flash_attention: `SetTilingData(TilingDef &tilingData)`). Kernels and host programs written here in
those styles."""
import subprocess

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


def test_passing_a_tiling_struct_as_tiling_def_stops_at_that_line(tmp_path):
    use = HOST.replace("int main() {", "ge::graphStatus optiling::DemoTiling::SetTilingData(TilingDef &d) const {\n"
                       "    return d.GetDataSize() ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;\n}\nint main() {")
    r = _compile(tmp_path, use)
    assert r.returncode != 0 and "incomplete type" in r.stderr and "TilingDef" in r.stderr


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
