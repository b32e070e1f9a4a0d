"""More of what public kernels take for granted, found by this round's corpus run (examples/corpus): the device
compiler's `[aicore]` execution-space attribute (catlass-style kernels), `GetTPipePtr` at global scope, the level-0
vector `Copy`. Kernels written here in those styles; each test fails without its construct."""
import numpy as np
import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.emu import GM, RunRules, Scalar, build, op_names, run, trace

CATLASS = r'''#include "kernel_operator.h"

template <uint32_t ALIGN, typename T>
__forceinline__ [aicore]
constexpr T RoundUp(const T &val) { return (val + ALIGN - 1) / ALIGN * ALIGN; }

#define TOY_DEVICE __forceinline__ [aicore]

namespace Toy {
template <class Element>
struct Scale {
    TOY_DEVICE Scale(Element f) : factor(f) {}
    template <class T>
    __forceinline__ [aicore] void operator()(AscendC::LocalTensor<T> t, uint32_t n) {
        // GetTPipePtr unqualified inside a template: declared at global scope, as the device headers have it
        GetTPipePtr()->InitBuffer(extra, RoundUp<32>(n * (uint32_t)sizeof(T)));
        AscendC::Muls(t, t, (T)factor, n);
    }
    Element factor;
    AscendC::TBuf<AscendC::TPosition::VECCALC> extra;
};
}  // namespace Toy

extern "C" __global__ __aicore__ void catlass_style(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> a = buf.Get<float>(), b = a[64];
    AscendC::DataCopy(a, xg, 64);
    Toy::Scale<float> scale(3.0f);
    scale(a, 64);
    AscendC::Duplicate(b, -1.0f, 64);
    // level-0 Copy: 8 lanes per repeat (mask), 2 repeats; the source repeats 2 blocks apart, the destination 1
    AscendC::Copy(b, a, 8, 2, {1, 1, 1, 2});
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::DataCopy(yg, b, 64);
}
'''


def test_catlass_style_aicore_attribute_global_tpipe_and_copy():
    b = build({"catlass_style.cpp": CATLASS})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.full(64, -1.0, np.float32)
    want[0:8] = 3 * x[0:8]       # repeat 0: source block 0 -> destination block 0
    want[8:16] = 3 * x[16:24]    # repeat 1: source block 2 (repeat size 2) -> destination block 1 (repeat size 1)
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_aicore_attribute_is_left_alone_where_aicore_is_a_name():
    src = CATLASS.replace("extern \"C\"", "int aicore = 0;\nextern \"C\"")   # then `[aicore]` could be an index: g++ decides
    b = build({"catlass_style.cpp": src})
    assert not b.ok and any("aicore" in d.source_line for d in b.errors)


def test_copy_of_8_bit_elements_compiles_and_stops_when_it_runs():
    src = CATLASS.replace("AscendC::Copy(b, a, 8, 2, {1, 1, 1, 2});",
                          "AscendC::LocalTensor<int8_t> c = a.ReinterpretCast<int8_t>(); AscendC::Copy(c, c, 8, 1, {1, 1, 8, 8});")
    b = build({"catlass_style.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)     # as AscendC's headers: a run-time check
    r = run(b, [GM("x", np.zeros(64, np.float32)), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    e = r.errors[0]
    assert e.kind == "unsupported" and "16-bit and 32-bit" in e.message and "Copy(c, c" in e.source_line


# ---- op projects whose tiling function is registered apart from the OpDef ------------------------------------------
def split_project(tmp_path):
    "scale_add_custom rewritten in the two-file layout: op_host/<op>_def.cpp (OpDef) + op_host/<op>.cpp (IMPL_OP_*)."
    import shutil
    from pathlib import Path
    src = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    dst = tmp_path / "scale_add_custom"
    shutil.copytree(src, dst)
    host = (dst / "op_host" / "scale_add_custom.cpp").read_text()
    head, opdef = host.split("namespace ops {", 1)
    (dst / "op_host" / "scale_add_custom.cpp").write_text(
        head + "namespace optiling {\nstruct ScaleAddCompileInfo {};\n"
        "static ge::graphStatus TilingPrepare(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }\n"
        "IMPL_OP_OPTILING(ScaleAddCustom).Tiling(TilingFunc).TilingParse<ScaleAddCompileInfo>(TilingPrepare);\n}\n"
        "using namespace ge;   // as public projects write it: `ops` below must still name the registry's namespace\n"
        "namespace ge { namespace ops {\n"
        "IMPL_OP_INFERSHAPE(ScaleAddCustom).InferShape(InferShape).InferDataType(InferDataType);\n} }\n")
    opdef = opdef.replace("        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);\n", "")
    opdef = opdef.replace("        this->AICore().SetTiling(optiling::TilingFunc);\n", "")
    (dst / "op_host" / "scale_add_custom_def.cpp").write_text('#include "register/op_def_registry.h"\nnamespace ops {' + opdef)
    return dst


def test_a_tiling_function_registered_with_impl_op_optiling_runs(tmp_path):
    from ascendcraft.opproject import load_project, run_cases
    folder = split_project(tmp_path)
    assert load_project(folder).host_file == "op_host/scale_add_custom_def.cpp"
    results = run_cases(folder)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert {r.tiling_key for _, r in results} == {1, 2}


def test_without_any_tiling_registration_the_run_names_both_forms(tmp_path):
    import torch
    from ascendcraft.opproject import run_project
    folder = split_project(tmp_path)
    host = folder / "op_host" / "scale_add_custom.cpp"
    host.write_text(host.read_text().replace("IMPL_OP_OPTILING(ScaleAddCustom).Tiling(TilingFunc)", "IMPL_OP_OPTILING(ScaleAddCustom)"))
    # since the forty-seventh round the build says so (`no-tiling`), before any run: CANN's tiling lookup would fail the
    # launch, so the project cannot count as built; the error is at the kernel's tiling read and its hint names both forms
    with pytest.raises(AscendCraftError) as e:
        run_project(folder, {"x": torch.zeros(512), "y": torch.zeros(512)}, outputs={"z": ((512,), "float32")})
    [d] = e.value.diagnostics
    assert d.kind == "no-tiling" and d.file == "op_kernel/scale_add_custom.cpp", d.render()
    assert d.message.startswith("ScaleAddCustom's kernel reads its tiling data here, but its host build registers no tiling "
                                "function for ScaleAddCustom"), d.render()
    assert "this->AICore().SetTiling(fn)" in d.hint and "IMPL_OP_OPTILING(ScaleAddCustom).Tiling(fn)" in d.hint, d.render()


# ---- DT_COMPLEX64: the op definition's dtype, the kernel's complex64 type, complex GM tensors ------------------------
CONJ = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void conj(GM_ADDR x, GM_ADDR y)
{
    static_assert(sizeof(DTYPE_X) == 2 * sizeof(float), "complex64 is a pair of floats");
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xg, yg;                    // 32 complex values, read as 64 floats (real, imaginary)
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 64);
    uint64_t imag[2] = {0xAAAAAAAAAAAAAAAAull, 0};
    Muls(t, t, -1.0f, imag, 1, {1, 1, 8, 8});      // negate the odd lanes: the imaginary parts
    DataCopy(yg, t, 64);
}
'''


def test_complex64_op_dtype_and_kernel_type():
    from ascendcraft.config import load_settings
    from ascendcraft.opproject import dtype_macros, parse_op_definition
    op = parse_op_definition("""namespace ops {
class ConjCustom : public OpDef {
public:
    explicit ConjCustom(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64});
    }
};
OP_ADD(ConjCustom);
}""", "op_host/conj_custom.cpp")
    macros = dtype_macros(op, 0)
    assert macros["DTYPE_X"] == "complex64" and macros["ORIG_DTYPE_Y"] == "16"
    s = load_settings()
    b = build({"conj.cpp": CONJ}, settings=s.replace(cxxflags=f"{s.cxxflags} -DDTYPE_X={macros['DTYPE_X']}"))
    assert b.ok, "\n".join(d.render() for d in b.errors)
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(32) + 1j * rng.standard_normal(32)).astype(np.complex64)
    r = run(b, [GM("x", x), GM("y", np.zeros(32, np.complex64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], np.conj(x))


def test_the_platform_api_reports_the_chosen_chip_profile():
    "GetCoreNumAiv in the host tiling function: 48 on the default Ascend910B2 profile, 40 on Ascend910B3."
    import torch
    from pathlib import Path
    from ascendcraft.config import load_settings
    from ascendcraft.opproject import run_project
    folder = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    x = torch.randn(240 * 64)      # 1920 blocks of 8 floats: divisible by 48 and by 40 cores alike
    dims = {}
    for soc in ("Ascend910B2", "Ascend910B3"):
        r = run_project(folder, {"x": x, "y": x}, attrs={"alpha": 1.0}, reference=lambda x, y, alpha: x + alpha * y,
                        settings=load_settings().replace(soc=soc))
        assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
        dims[soc] = r.block_dim
    assert dims == {"Ascend910B2": 48, "Ascend910B3": 40}


# ---- InitBuffer past the end of UB: an error only when the kernel uses the buffer ----------------------------------
SPARE = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void spare(GM_ADDR x, GM_ADDR y, uint32_t useSpare)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> spare;
    pipe.InitBuffer(inQ, 1, 160 * 1024);
    pipe.InitBuffer(spare, 64 * 1024);     // past the end of the 192 KB UB: only a branch for another dtype uses it
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = inQ.AllocTensor<float>();
    DataCopy(t, xg, 64);
    inQ.EnQue(t);
    t = inQ.DeQue<float>();
    if (useSpare) {
        LocalTensor<float> s = spare.Get<float>();
        Adds(s, t, 1.0f, 64);
    }
    Muls(t, t, 2.0f, 64);
    DataCopy(yg, t, 64);
    inQ.FreeTensor(t);
}
'''


def test_initbuffer_past_ub_is_a_warning_until_the_buffer_is_used():
    from ascendcraft.emu import Scalar
    b = build({"spare.cpp": SPARE})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.arange(64, dtype=np.float32)
    args = lambda use: [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), Scalar(use, "uint32_t")]
    ok = run(b, args(0), block_dim=1)
    assert ok.ok, "\n".join(d.render() for d in ok.diagnostics)
    np.testing.assert_array_equal(ok.outputs["y"], 2 * x)
    w = [d for d in ok.diagnostics if d.kind == "ub-overflow"]
    assert w and w[0].severity == "warning" and "InitBuffer(spare" in w[0].source_line
    bad = run(b, args(1), block_dim=1)
    e = [d for d in bad.errors if d.kind == "ub-overflow"]
    assert not bad.ok and e and "InitBuffer(spare" in e[0].source_line and "uses this buffer at line 18" in e[0].message


# ---- PairReduceSum (the BLAS-style i?amax kernels) -------------------------------------------------------------------
PAIRS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void pairs(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 128);
    yg.SetGlobalBuffer((__gm__ float *)y, 128);
    LocalTensor<float> a = buf.Get<float>(), d = a[128];
    DataCopy(a, xg, 128);
    Duplicate(d, -7.0f, 128);
    PipeBarrier<PIPE_V>();
    PairReduceSum<float>(d, a, 2, 64, 1, 1, 8);        // 2 repeats of 64 lanes -> 32 sums each, 128 bytes apart
    PairReduceSum<float>(d[64], a, 1, 5, 1, 1, 8);     // 5 lanes: 2 pairs and the lone lane 4
    PipeBarrier<PIPE_V>();
    DataCopy(yg, d, 128);
}
'''


def test_pair_reduce_sum_adds_adjacent_lanes_under_the_mask():
    x = np.random.default_rng(4).uniform(-1, 1, 128).astype(np.float32)
    r = run(build({"pairs.cpp": PAIRS}), [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.full(128, -7.0, np.float32)
    want[:64] = x[0::2] + x[1::2]
    want[64:67] = [x[0] + x[1], x[2] + x[3], x[4]]
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_an_entry_named_like_a_c_library_function_compiles_and_runs():
    src = PAIRS.replace("void pairs(", "void sqrt(").replace("PairReduceSum<float>(d[64], a, 1, 5, 1, 1, 8);",
                                                           "d.SetValue(64, (float)std::sqrt(16.0));")
    b = build({"sqrt.cpp": src})
    assert b.ok and b.entry == "sqrt", "\n".join(d.render() for d in b.errors)
    x = np.arange(128, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][64] == 4.0 and r.outputs["y"][0] == 1.0


def test_end_tiling_data_def_with_and_without_its_semicolon():
    head = """#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ATiling)
    TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF
BEGIN_TILING_DATA_DEF(BTiling)
    TILING_DATA_FIELD_DEF(uint32_t, m);
END_TILING_DATA_DEF;
}
"""
    src = head + r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void tiled(GM_ADDR y)
{
    optiling::ATiling a; a.set_n(3);
    optiling::BTiling b; b.set_m(4);
    AscendC::GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 8);
    yg.SetValue(0, a.get_n() * 10 + b.get_m());
}
'''
    b = build({"tiled.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("y", np.zeros(8, np.uint32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 34


# ---- what the NPU tolerates: blocks writing the same GM values, Tanh/Sigmoid in place, an int8_t Select mask ---------
SHARED = r'''#include "kernel_operator.h"
using namespace AscendC;
// Each block zeroes the whole result (as BLAS-style reductions do before their atomic adds), sets a shared flag,
// and copies a 64-element window of x that overlaps the next block's window by 32 elements.
extern "C" __global__ __aicore__ void shared_writes(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR flag)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xg, yg, zg;
    GlobalTensor<int32_t> fg;
    xg.SetGlobalBuffer((__gm__ float *)x, 160);
    yg.SetGlobalBuffer((__gm__ float *)y, 160);
    zg.SetGlobalBuffer((__gm__ float *)z, 16);
    fg.SetGlobalBuffer((__gm__ int32_t *)flag, 8);
    InitGlobalMemory(zg, 16, 0.0f);
    fg.SetValue(0, 7);
    const int32_t at = GetBlockIdx() * 32;
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg[at], 64);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, SHIFT, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg[at], t, 64);
}
'''


def _shared_args(x):
    return [GM("x", x), GM("y", np.zeros(160, np.float32), "out"), GM("z", np.ones(16, np.float32), "out"),
            GM("flag", np.zeros(8, np.int32), "out")]


def test_blocks_writing_the_same_values_to_the_same_gm_bytes_is_not_an_overlap():
    x = np.arange(160, dtype=np.float32)
    b = build({"shared.cpp": SHARED.replace("SHIFT", "0.0f")})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, _shared_args(x), block_dim=4)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert not r.outputs["z"].any() and r.outputs["flag"][0] == 7
    # different values in the shared bytes: the result depends on which block writes last, an error as before
    bad = run(build({"shared.cpp": SHARED.replace("SHIFT", "(float)GetBlockIdx()")}), _shared_args(x), block_dim=4)
    e = [d for d in bad.errors if d.kind == "gm-overlap"]
    assert not bad.ok and e and "with different values" in e[0].message and "DataCopy(yg[at]" in e[0].source_line


IN_PLACE = r'''#include "kernel_operator.h"
using namespace AscendC;
// Tanh and Sigmoid written back over their input (activation kernels that keep one UB tile), and Select with a
// mask tensor declared int8_t.
extern "C" __global__ __aicore__ void in_place(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 3 * 256 * sizeof(float) + 256);
    pipe.InitBuffer(tmp, 8192);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 768);
    LocalTensor<float> a = buf.Get<float>(), s = a[256], c = a[512];
    LocalTensor<MASK_T> m = buf.Get<MASK_T>()[3 * 256 * 4 / sizeof(MASK_T)];
    DataCopy(a, xg, 256);
    DataCopy(s, xg, 256);
    PipeBarrier<PIPE_ALL>();
    Tanh(a, a, tmp.Get<uint8_t>(), 256);
    Sigmoid(s, s, tmp.Get<uint8_t>(), 256);
    PipeBarrier<PIPE_V>();
    CompareScalar(m.template ReinterpretCast<uint8_t>(), a, 0.0f, CMPMODE::GT, 256);
    PipeBarrier<PIPE_V>();
    Select(c, m, s, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, a, 256);
    DataCopy(yg[256], s, 256);
    DataCopy(yg[512], c, 256);
}
'''


def test_tanh_and_sigmoid_in_place_and_an_int8_select_mask_run_as_on_the_npu():
    x = np.random.default_rng(5).uniform(-3, 3, 256).astype(np.float32)
    r = run(build({"in_place.cpp": IN_PLACE.replace("MASK_T", "int8_t")}),
            [GM("x", x), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_allclose(y[:256], np.tanh(x), rtol=1e-5, atol=1e-6)
    sig = 1 / (1 + np.exp(-x.astype(np.float64)))
    np.testing.assert_allclose(y[256:512], sig, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(y[512:], np.where(np.tanh(x) > 0, y[256:512], -1.0).astype(np.float32))
    warned = {d.kind: d for d in r.diagnostics if d.severity == "warning"}
    in_place = [d.source_line.strip().split("(")[0] for d in r.diagnostics if d.kind == "adv-in-place"]
    assert in_place == ["Tanh", "Sigmoid"] and warned["adv-in-place"].severity == "warning"   # once per call site
    assert "int8_t selMask" in warned["select-mask-type"].message
    # the documented uint8_t mask: the same values, no mask warning
    ok = run(build({"in_place.cpp": IN_PLACE.replace("MASK_T", "uint8_t")}),
             [GM("x", x), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    assert ok.ok and not any(d.kind == "select-mask-type" for d in ok.diagnostics)
    np.testing.assert_array_equal(ok.outputs["y"], y)


# ---- catlass: member templates chosen by core type (in-class `template <>`, g_coreType as a template argument) --------
CORE_TYPED = r'''#include "kernel_operator.h"
#define TOY_DEVICE __forceinline__ [aicore]
template <uint8_t MODE, int32_t CORE_TYPE> struct Bias { static_assert(MODE != MODE, "no such core"); };
template <> struct Bias<0, AscendC::AIV> { static constexpr float VALUE = 2.0f; };
template <> struct Bias<0, AscendC::AIC> { static constexpr float VALUE = -100.0f; };

template <class Element>
class ToyKernel {
public:
    struct Params { GM_ADDR x; GM_ADDR y; uint32_t n; };

    template <int32_t CORE_TYPE = g_coreType>
    TOY_DEVICE
    void operator()(Params const &params);

    template <>
    TOY_DEVICE
    void operator()<AscendC::AIV>(Params const &params) {
        constexpr float bias = Bias<0, g_coreType>::VALUE;
        AscendC::GlobalTensor<Element> xg, yg;
        xg.SetGlobalBuffer((__gm__ Element *)params.x, params.n);
        yg.SetGlobalBuffer((__gm__ Element *)params.y, params.n);
        AscendC::LocalTensor<Element> t = buf.Get<Element>();
        AscendC::DataCopy(t, xg, params.n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Adds(t, t, (Element)bias, params.n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yg, t, params.n);
    }
AIC_VERSION
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
};

extern "C" __global__ __aicore__ void core_typed(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    ToyKernel<float> kernel;
    pipe.InitBuffer(kernel.buf, 64 * sizeof(float));
    ToyKernel<float>::Params params{x, y, 64};
    kernel(params);
    kernel.template operator()<g_coreType>(params);
}
'''
AIC_VERSION = "    template <> TOY_DEVICE void operator()<AscendC::AIC>(Params const &params) {}\n"


def test_catlass_member_templates_chosen_by_core_type_run_the_running_cores_version():
    x = np.arange(64, dtype=np.float32)
    b = build({"core_typed.cpp": CORE_TYPED.replace("AIC_VERSION", AIC_VERSION)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 2)       # the AIV version, with the AIV's constant
    # a core type with no version: the run stops and names it (the device compiler would find no AIV version)
    only_aic = CORE_TYPED.replace("AIC_VERSION", AIC_VERSION).replace("template <>\n    TOY_DEVICE\n    void operator()<AscendC::AIV>",
                                                                      "TOY_DEVICE void Unused")
    r = run(build({"core_typed.cpp": only_aic}), [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    e = [d for d in r.errors if d.kind == "core-type"]
    assert not r.ok and e and "AIV" in e[0].message and "operator()" in e[0].message, r.diagnostics

# ---- catlass: a member class template specialised inside its class, a constexpr constructor that fills by a loop ------
LAYOUT_HELPER = r"""#include "kernel_operator.h"
#include <type_traits>
#define TOY_DEVICE __forceinline__ [aicore]
template <int RANK_, class Index_ = uint32_t>
struct Coord {
    static const int RANK = RANK_;
    using Index = Index_;
    TOY_DEVICE constexpr explicit Coord(Index value = Index(0)) { for (int i = 0; i < RANK; ++i) idx[i] = value; }
    TOY_DEVICE constexpr Index operator[](int i) const { return idx[i]; }
    Index idx[RANK];
};
struct Shift { using LayoutIn = float; static constexpr float VALUE = 5.0f; };

template <class Prologue>
class Toy {
public:
    template <class T>
    struct Helper { using type = typename T::LayoutIn; static constexpr float add = T::VALUE; };
    template <>
    struct Helper<void> { using type = float; static constexpr float add = 0.5f; };
    using Element = typename Helper<Prologue>::type;
    static constexpr Coord<2> SHAPE{Coord<2>(32)};       // C++20's constexpr constructor rule: 32 x 32 = 1,024 / 16
    TOY_DEVICE void operator()(GM_ADDR x, GM_ADDR y, AscendC::LocalTensor<Element> t) {
        AscendC::GlobalTensor<Element> xg, yg;
        constexpr uint32_t n = SHAPE[0] * SHAPE[1] / 16;
        xg.SetGlobalBuffer((__gm__ Element *)x, n);
        yg.SetGlobalBuffer((__gm__ Element *)y, n);
        AscendC::DataCopy(t, xg, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Adds(t, t, (Element)Helper<Prologue>::add, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yg, t, n);
    }
};

extern "C" __global__ __aicore__ void layout_helper(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    Toy<void>()(x, y, buf.Get<float>());          // the specialisation (void): + 0.5
    AscendC::PipeBarrier<PIPE_ALL>();
    Toy<Shift>()(x, z, buf.Get<float>());         // the primary: + Shift::VALUE
}
"""


def test_catlass_member_class_specialisation_and_constexpr_loop_constructor_run():
    "clang takes both (CWG 727; C++20's constexpr constructors); g++ takes them after emu's same-line rewrites."
    b = build({"layout_helper.cpp": LAYOUT_HELPER})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("z", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 0.5)
    np.testing.assert_array_equal(r.outputs["z"], x + 5)
    # an error g++ reports in the file is still at the line the user wrote (the rewrites keep lines)
    broken = LAYOUT_HELPER.replace("using type = float; static", "using type = flaot; static")
    b = build({"layout_helper.cpp": broken})
    line = broken[:broken.index("flaot")].count("\n") + 1
    assert not b.ok and any(d.line == line for d in b.errors), [d.render() for d in b.errors]


def test_the_corpus_reads_test_cases_as_npukernelbench_does():
    # its framework reads validation/test_cases.csv with pandas: all-integer columns are ints, numeric ones floats
    # (ForeachAddList's get_inputs makes its alpha tensor from the 'scalars' column: a string there is a TypeError)
    from _corpus import load_beside
    npukb = load_beside("npukb")
    rows = npukb._typed([{"id": "0", "scalars": "1.0", "shape": "[[1]]", "dtype": "float16"},
                          {"id": "1", "scalars": "2", "shape": "[[512, 3]]", "dtype": "float32"}])
    assert rows == [{"id": 0, "scalars": 1.0, "shape": "[[1]]", "dtype": "float16"},
                    {"id": 1, "scalars": 2.0, "shape": "[[512, 3]]", "dtype": "float32"}]
    assert npukb._size(rows[1]) == 1536


SDK_NAMES = r'''#include "kernel_operator_intf.h"
#include "kernel_tpipe.h"
#include "kernel_operator_data_copy_intf.h"
#include "kernel_type.h"
// cann-ops kernels include the SDK's interface headers by name and compare dtype numbers in #if
#if DT_FLOAT16 != 1 || DT_BF16 != 27 || FORMAT_ND != 2 || FORMAT_NC1HWC0 != 3
#error "kernel_type.h numbers"
#endif
#define ORIG_DTYPE_X DT_FLOAT16
extern "C" __global__ __aicore__ void sdk_names(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::DataCopy(a, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
#if ORIG_DTYPE_X == DT_FLOAT16
    AscendC::Muls(a, a, 2.0f, 64);
#else
    AscendC::Muls(a, a, 3.0f, 64);
#endif
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, 64);
}
'''


def test_sdk_interface_header_names_and_kernel_type_numbers():
    b = build({"k.cpp": SDK_NAMES})
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)   # the DT_FLOAT16 branch


def _corpus_harness():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("corpus_harness", Path(__file__).resolve().parents[1] / "examples" / "corpus" / "corpus.py")
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    return corpus


def test_the_corpus_copies_the_shared_and_sibling_headers_an_op_includes(tmp_path):
    # a stand-in of cann-ops' layout: the op includes a shared tiling header (which includes another) and a sibling
    # op's header by a ../ path; a shared header deep in the tree that nothing includes is not copied (its folder would
    # shadow SDK headers), and the sibling resolves through the include folder the harness makes
    import subprocess
    corpus = _corpus_harness()
    repo = tmp_path / "repo"
    files = {
        "src/common/op_host/op_tiling/cache_tiling.h": '#pragma once\n#include "cube/include/cube_run_info.h"\n',
        "src/common/op_host/op_tiling/cube/include/cube_run_info.h": "#pragma once\nstruct RunInfo { int n; };\n",
        "src/common/op_host/op_tiling/cube/platform/platform_info.h": "#error never included\n",
        "src/conv/pad_grad/op_host/pad_grad_tiling.h": '#include "cache_tiling.h"\n#include "../../pad/op_host/pad_common.h"\n',
        "src/conv/pad_grad/op_host/pad_grad.cpp": "",
        "src/conv/pad_grad/op_kernel/pad_grad.cpp": '#include "foreach_tail.h"\n',   # by its name only
        "src/common/inc/foreach/op_kernel/foreach_tail.h": "#pragma once\n",
        "src/conv/pad/op_host/pad_common.h": '#pragma once\n#include "pad_consts.h"\n',
        "src/conv/pad/op_host/pad_consts.h": "#pragma once\nconstexpr int PAD = 1;\n",
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True, text=True).stdout
    git("init", "-q"); git("add", "-A"); git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    entry = {"source": "cann-ops", "repo": "Hayden727/cann-ops", "commit": git("rev-parse", "HEAD").strip(),
             "path": "src/conv/pad_grad", "kind": "op-project"}
    dest = tmp_path / "dest"
    corpus.materialise(entry, str(repo / ".git"), dest)
    assert (dest / "common_op_tiling" / "cache_tiling.h").exists()
    assert (dest / "common_op_tiling" / "cube" / "include" / "cube_run_info.h").exists()
    assert not (dest / "common_op_tiling" / "cube" / "platform").exists()
    assert (dest / "common_inc" / "foreach" / "op_kernel" / "foreach_tail.h").exists()
    src = '#include "op_host/pad_grad_tiling.h"\nint main() { RunInfo r{PAD}; return r.n - 1; }\n'
    (dest / "main.cpp").write_text(src)
    from ascendcraft.opproject import include_dirs
    dirs = include_dirs({p.relative_to(dest).as_posix(): "" for p in dest.rglob("*.h")})
    done = subprocess.run(["g++", "-fsyntax-only", *[a for d in dirs for a in ("-iquote", d)], "main.cpp"], cwd=dest,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_corpus_counts_a_golden_answer_fault_apart_and_reruns_only_failures():
    corpus = _corpus_harness()
    path = next(iter(corpus.GOLDEN_FAULTS))
    row = {"source": "s", "repo": "r", "path": path, "kind": "op-project", "kernel_ok": True, "project_ok": True,
           "match": "mismatch", "match_detail": "1 of 8 elements differ"}
    assert corpus.classify(row)["match"] == "golden-fault"
    assert corpus.classify(dict(row, match="pass"))["match"] == "pass"   # a fault never hides a pass
    table = corpus.summary([row, dict(row, path="other", match="pass")])
    assert "| s | 2 | 2 (100 %) | 2 (100 %) | 1 | 1 (100 %) |" in table and "Golden answers at fault (1" in table
    assert corpus.passed(dict(row, match="pass"), True, True) and not corpus.passed(row, True, True)
    assert not corpus.passed(dict(row, project_ok=False, match=None), False, True)
    assert corpus.passed(dict(row, project_ok=False, match=None), False, False)


GM_CALL = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void gm_call(GM_ADDR x, GM_ADDR y, int32_t count) {
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, count);
    yGm.SetGlobalBuffer((__gm__ float *)y, count);
    float acc = 0.0f;
    for (int32_t i = 0; i < count; ++i) {
        acc += xGm(i);                  // GlobalTensor::operator()(offset): the element, read
        yGm(i) = acc * 2.0f;            // ... and written through the reference
    }
    yGm[1](count - 2) += 100.0f;        // on a view: the last element
}
'''


def test_global_tensor_call_operator_reads_and_writes_the_element():
    """EvoKernel's OptimizedFlashAttentionCustom reads GM with `biasGm(offset)`: GlobalTensor::operator()(offset) returns
    a reference to the element (kernel_tensor.h), read or written through. The official implementation hands out the
    __gm__ element itself, so a write through it is a raw GM store, reported as one (`gm-raw-write`: an error by default,
    a warning where CANN-style kernels run, as op projects do)."""
    b = build({"k.cpp": GM_CALL})
    assert b.ok, b.diagnostics
    x = np.arange(1, 11, dtype=np.float32)
    args = lambda: [GM("x", x), GM("y", np.full(10, -1, np.float32), "out"), Scalar(10, "int32_t")]
    r = run(b, args(), block_dim=1, rules=RunRules(raw_gm_writes="warning"))
    assert r.ok, r.diagnostics
    want = np.cumsum(x) * 2
    want[-1] += 100
    np.testing.assert_array_equal(r.outputs["y"], want)
    assert "gm-raw-write" in [d.kind for d in r.diagnostics]
    strict = run(b, args(), block_dim=1)
    assert not strict.ok and "gm-raw-write" in [d.kind for d in strict.errors]
    t = trace(b, args(), block_dim=1)   # no bytes behind GM while tracing: the reference reads zeros
    names = op_names()
    assert (np.array([names[o] for o in t.records["op"]]) == "GetValue").sum() == 10 + 10 + 1   # each a scalar access


def test_global_tensor_call_operator_past_the_buffer_is_out_of_bounds():
    b = build({"k.cpp": GM_CALL})   # 100 elements of a 4-element input: past its allocation's padding too
    r = run(b, [GM("x", np.ones(4, np.float32)), GM("y", np.zeros(100, np.float32), "out"), Scalar(100, "int32_t")],
            block_dim=1)
    assert not r.ok and "gm-out-of-bounds" in [d.kind for d in r.errors], r.diagnostics
