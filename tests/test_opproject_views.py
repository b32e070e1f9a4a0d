"""The tiling context's view and deterministic-level getters (metadef's TilingContext: InputIsView / GetInputStride /
GetInputOffset, their output / optional / required / dynamic forms, gert::Stride, GetDeterministicLevel), as hicann
ops-nn's arch35 matmul tilings call them (mat_mul_v3's matmul_v3_tiling_helper.cpp, batch_mat_mul_v3's
iterbatch tiling, the stream-K tilings). The emulated runs hand contiguous tensors to the tiling function: no input
is a view, so no stride (nullptr) and offset -1, as CANN answers for a tensor without a non-contiguous description;
the deterministic level is 0 (off), as GetDeterministic."""
import subprocess

from test_opproject import runs_like_scale_add, with_tiling_lines

VIEW_PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::Stride s{3, 256, 1};
    std::printf("%zu %lld %lld|", s.GetDimNum(), (long long)s.GetStride(1),
                (long long)(s.GetStride(gert::Stride::kMaxDimNum) == gert::Stride::kInvalidStrideValue));
    s.SetDimNum(1); s.AppendStride(7); s.SetStride(3, 9);
    std::printf("%zu %lld %lld %d|", s.GetDimNum(), (long long)s[1], (long long)s.GetStride(3), s == gert::Stride{3, 7, 1, 9});
    gert::TilingContext ctx;
    ctx.inputs_.resize(3);
    ctx.outputs_.resize(1);
    ctx.ir_inputs_ = {gert::AnchorInstanceInfo(0, 1), gert::AnchorInstanceInfo(1, 0), gert::AnchorInstanceInfo(1, 2)};
    // contiguous: no view, no stride, offset -1
    std::printf("%d %d %lld %d %d %lld|", ctx.InputIsView(0), ctx.GetInputStride(0) == nullptr,
                (long long)ctx.GetInputOffset(0), ctx.OutputIsView(0), ctx.GetOutputStride(0) == nullptr,
                (long long)ctx.GetOutputOffset(5));
    // a view described by hand (a transposed [4, 6] of a [6, 4] storage, 2 elements in): by instance and by IR index
    ctx.inputs_[2].view_ = true; ctx.inputs_[2].stride_ = gert::Stride{1, 4}; ctx.inputs_[2].offset_ = 2;
    const gert::Stride* v = ctx.GetDynamicInputStride(2, 1);
    std::printf("%d %d %lld %lld %lld|", ctx.InputIsView(2), ctx.DynamicInputIsView(2, 0), (long long)v->GetStride(0),
                (long long)v->GetStride(1), (long long)ctx.GetDynamicInputOffset(2, 1));
    // an absent optional input (IR 1 has no instance): not a view, nullptr, -1; the required IR 0 is contiguous
    std::printf("%d %d %lld %d|", ctx.OptionalInputIsView(1), ctx.GetOptionalInputStride(1) == nullptr,
                (long long)ctx.GetOptionalInputOffset(1), ctx.RequiredInputIsView(0));
    std::printf("%d ", ctx.GetDeterministicLevel());
    ctx.deterministic_ = 1; std::printf("%d ", ctx.GetDeterministicLevel());
    ctx.deterministic_level_ = 2; std::printf("%d", ctx.GetDeterministicLevel());
    return 0;
}
"""


def test_stride_views_and_the_deterministic_level(tmp_path):
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(VIEW_PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    assert out == "3 256 1|4 7 9 1|0 1 -1 0 1 -1|1 0 1 4 2|0 1 -1 0|0 1 2"


def test_a_run_hands_the_tiling_function_contiguous_tensors(tmp_path):
    # the glue's context: neither input nor the output is a view, the deterministic level is off; a wrong answer fails
    # the tiling and the run (mat_mul_v3's A2 path reads these before it picks its tiling)
    folder = with_tiling_lines(tmp_path, """    for (size_t i = 0; i < 2; ++i)
        if (context->InputIsView(i) || context->GetInputStride(i) != nullptr || context->GetInputOffset(i) != -1
            || context->RequiredInputIsView(i) || context->GetRequiredInputStride(i) != nullptr) return ge::GRAPH_FAILED;
    if (context->OutputIsView(0) || context->GetOutputStride(0) != nullptr || context->GetDeterministicLevel() != 0)
        return ge::GRAPH_FAILED;
""")
    runs_like_scale_add(folder)


TPL_KEY_PROGRAM = r"""
#include <cstdio>
#include "ascendc/host_api/tiling/template_argument.h"
enum class Mode : int64_t { A = 0, B = 1 };
ASCENDC_TPL_ARGS_DECL(Demo, ASCENDC_TPL_UINT_DECL(mode, 2, ASCENDC_TPL_UI_LIST, 0, 1, 3),
                      ASCENDC_TPL_BOOL_DECL(full, 0, 1), ASCENDC_TPL_UINT_DECL(kind, 2, ASCENDC_TPL_UI_LIST, 0, 1, 2));
int main() {
    int64_t mode = 3;        // a signed value and an enum class, as ops-nn's tilings pass them
    Mode full = Mode::B;
    uint64_t kind = 2;
    const uint64_t plain = GET_TPL_TILING_KEY(mode, full, kind);
    const uint64_t trailing = GET_TPL_TILING_KEY(mode, full, kind, );   // batch_mat_mul_v3's DoTilingKeyCustom
    std::printf("%llu %llu", (unsigned long long)plain, (unsigned long long)trailing);
    return 0;
}
"""


def test_the_template_key_macro_takes_its_values_as_one_braced_list(tmp_path):
    # GET_TPL_TILING_KEY(...) hands its values to the encoder as {__VA_ARGS__} (the asc-devkit's documented form), so a
    # trailing comma adds no value: both keys are mode's index 2 | full 1 << 2 | kind's index 2 << 3 = 2 + 4 + 16
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(TPL_KEY_PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    assert out == "22 22"
