"""Forms of flash-linear-attention-npu's kernels (its GDN / KDA op projects, built on catlass at the commit its CMake
pins): a value-sequence helper in catlass tla's older style, whose partial specialisations take a `size_t` pack from
an `int` sequence. CANN's device compiler (clang) deduces that pack by converting the values, g++ does not
([temp.deduct.type]); the emulator's build writes the pack with the sequence's type (emu.typed_pack_specialisations).
And AscendC::Fill included by its official path, adv_api/utils/init_global_memory.h (the GDN backward kernels
clear a GM state with it). The kernels below are our own, in those styles; their results are checked against NumPy."""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

SEQUENCE_HEADER = r'''#pragma once
#include <cstddef>
namespace seqlib {
template <typename T, T... Ns>
struct ValueSeq {
    static constexpr size_t size() { return sizeof...(Ns); }
};

template <typename Sequence, typename T, size_t N>
struct MakeSeqImpl;

template <typename T, size_t... Ns>
struct MakeSeqImpl<ValueSeq<T, Ns...>, T, 0> {
    using type = ValueSeq<T, Ns...>;
};

template <typename T, size_t N, size_t... Ns>
struct MakeSeqImpl<ValueSeq<T, Ns...>, T, N> {
    using type = typename MakeSeqImpl<ValueSeq<T, N - 1, Ns...>, T, N - 1>::type;
};

template <int N>
using make_int_seq = typename MakeSeqImpl<ValueSeq<int>, int, N>::type;
}  // namespace seqlib
'''

KERNEL = r'''#include "kernel_operator.h"
#include "seqlib/value_seq.hpp"
using namespace AscendC;

// each lane i of the first N gets x[i] * (i + 1): the weights unrolled from the int sequence 0..N-1
template <int... Is>
__aicore__ inline void Weigh(LocalTensor<float> &t, seqlib::ValueSeq<int, Is...>)
{
    ((t.SetValue(Is, t.GetValue(Is) * static_cast<float>(Is + 1))), ...);
}

extern "C" __global__ __aicore__ void weigh_prefix(GM_ADDR x, GM_ADDR y)
{
    constexpr int N = 6;
    static_assert(seqlib::make_int_seq<N>::size() == N, "sequence length");
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 64);
    PipeBarrier<PIPE_ALL>();
    Weigh(t, seqlib::make_int_seq<N>{});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 64);
}
'''


def test_size_t_pack_deduced_from_an_int_sequence(tmp_path):
    (tmp_path / "seqlib").mkdir()
    (tmp_path / "seqlib" / "value_seq.hpp").write_text(SEQUENCE_HEADER)
    (tmp_path / "weigh_prefix.cpp").write_text(KERNEL)
    b = build(tmp_path)
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    x = np.random.default_rng(5).standard_normal(64).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = x.copy()
    want[:6] *= np.arange(1, 7, dtype=np.float32)
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_the_pack_of_the_sequence_own_type_is_left_alone(tmp_path):
    "A specialisation whose pack already has the sequence's type (the same header, size_t sequences) builds as before."
    (tmp_path / "seqlib").mkdir()
    (tmp_path / "seqlib" / "value_seq.hpp").write_text(SEQUENCE_HEADER.replace(
        "template <int N>\nusing make_int_seq = typename MakeSeqImpl<ValueSeq<int>, int, N>::type;",
        "template <int N>\nusing make_int_seq = typename MakeSeqImpl<ValueSeq<size_t>, size_t, N>::type;"))
    (tmp_path / "weigh_prefix.cpp").write_text(KERNEL.replace("template <int... Is>", "template <size_t... Is>")
                                               .replace("seqlib::ValueSeq<int, Is...>", "seqlib::ValueSeq<size_t, Is...>"))
    b = build(tmp_path)
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert list(r.outputs["y"][:7]) == [0, 2, 6, 12, 20, 30, 6]


FILL_KERNEL = r'''#include "kernel_operator.h"
#include "adv_api/utils/init_global_memory.h"

// the vector core clears a slice of a GM state with Fill (as the backward kernels clear dh0)
extern "C" __global__ __aicore__ void clear_slice(GM_ADDR state, uint32_t start, uint32_t count)
{
    AscendC::GlobalTensor<float> clearGm;
    clearGm.SetGlobalBuffer((__gm__ float *)state + start, count);
    AscendC::Fill(clearGm, static_cast<uint64_t>(count), 0.0f);
}
'''


def test_fill_under_its_adv_api_utils_header(tmp_path):
    (tmp_path / "clear_slice.cpp").write_text(FILL_KERNEL)
    b = build(tmp_path)
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    state = np.random.default_rng(9).standard_normal(96).astype(np.float32)
    r = run(b, [GM("state", state, "inout"), Scalar(24, "uint32_t"), Scalar(40, "uint32_t")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = state.copy()
    want[24:64] = 0
    np.testing.assert_array_equal(r.outputs["state"], want)


def test_the_tiling_context_gives_each_output_of_the_definition_its_instances(tmp_path):
    """TilingContext::GetIrOutputInstanceInfo (chunk_kda_fwd's tiling asks which of its optional outputs are wanted):
    by the definition's output index, where its tensors start among the outputs and how many there are; past the
    definition's outputs, none. ForeachScaleCustom (ours) scales only when its output list is seen whole."""
    import shutil
    from pathlib import Path

    import torch

    from ascendcraft.opproject import run_project
    folder = tmp_path / "foreach_scale_custom"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "foreach_scale_custom", folder)
    host = folder / "op_host" / "foreach_scale_custom.cpp"
    old = "    tiling.set_alpha(alpha ? *alpha : 1.0f);\n"
    assert old in host.read_text()
    host.write_text(host.read_text().replace(old, """    const gert::AnchorInstanceInfo* ys = context->GetIrOutputInstanceInfo(0);
    const bool whole = ys != nullptr && ys->GetInstanceStart() == 0 && ys->GetInstanceNum() == count
                       && context->GetIrOutputInstanceInfo(1) == nullptr;
    tiling.set_alpha(whole ? (alpha ? *alpha : 1.0f) : 0.0f);
"""))
    x = [torch.randn(64), torch.randn(2, 64), torch.randn(128)]
    r = run_project(folder, {"x": x}, attrs={"alpha": 0.5}, reference=lambda x, alpha: [t * alpha for t in x])
    assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])


def test_an_op_definition_whose_dtype_lists_name_constants(tmp_path):
    """flash-linear-attention-npu's definitions write `.DataType({FLOAT, FLOAT16})` with `constexpr ge::DataType FLOAT =
    ge::DT_FLOAT;` in an unnamed namespace: the lists are read from the compiled definition, and a run of either
    column takes its own dtypes (ScaleAddCustom, ours, so written)."""
    import shutil
    from pathlib import Path

    import torch

    from ascendcraft.opproject import load_project, run_project
    folder = tmp_path / "scale_add_custom"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom", folder)
    host = folder / "op_host" / "scale_add_custom.cpp"
    text = host.read_text()
    assert text.count("DataType({ge::DT_FLOAT16, ge::DT_FLOAT})") == 3
    text = text.replace("DataType({ge::DT_FLOAT16, ge::DT_FLOAT})", "DataType({FLOAT16, FLOAT})").replace(
        "namespace ops {\n", "namespace ops {\nnamespace {\nconstexpr ge::DataType FLOAT = ge::DT_FLOAT;\n"
                             "constexpr ge::DataType FLOAT16 = ge::DT_FLOAT16;\n}  // namespace\n", 1)
    host.write_text(text)
    op = load_project(folder).op
    assert [p.dtypes for p in op.inputs + op.outputs] == [["DT_FLOAT16", "DT_FLOAT"]] * 3
    for dt, tol in ((torch.float16, 1e-2), (torch.float32, 1e-5)):
        x, y = torch.randn(16 * 1024).to(dt), torch.randn(16 * 1024).to(dt)
        r = run_project(folder, {"x": x, "y": y}, attrs={"alpha": 0.5}, rtol=tol, atol=tol,
                        reference=lambda x, y, alpha: (x.float() + alpha * y.float()).to(x.dtype))
        assert r.ok, (dt, r.mismatches, [d.render() for d in r.run.diagnostics])
        assert r.dtypes["x"] == {torch.float16: "DT_FLOAT16", torch.float32: "DT_FLOAT"}[dt]


def test_a_kernel_that_reads_the_generated_tiling_struct_through_a_gm_pointer(tmp_path):
    """flash-linear-attention-npu chunk_gated_delta_rule_fwd_h's kernel reads its tiling as `__gm__ <Op>TilingData *`
    from the tiling address, without GET_TILING_DATA and without including the op_host tiling header: CANN's build
    gives every kernel of the op its generated header, and so does the emulator's driver (ScaleAddCustom, ours, so
    written; its tiling keys still choose the tile loop)."""
    import shutil
    from pathlib import Path

    import torch

    from ascendcraft.opproject import run_project
    folder = tmp_path / "scale_add_custom"
    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom", folder)
    kernel = folder / "op_kernel" / "scale_add_custom.cpp"
    old = "    GET_TILING_DATA(tilingData, tiling);\n"
    assert old in kernel.read_text()
    kernel.write_text(kernel.read_text().replace(old, """    __gm__ ScaleAddTilingData *__restrict td = reinterpret_cast<__gm__ ScaleAddTilingData *__restrict>(tiling);
    const ScaleAddTilingData tilingData = *td;
"""))
    for n in (48 * 512, 8 * 40960):   # tiling keys 1 and 2
        x, y = torch.randn(n), torch.randn(n)
        r = run_project(folder, {"x": x, "y": y}, attrs={"alpha": 0.5}, rtol=1e-5, atol=1e-5,
                        reference=lambda x, y, alpha: x + alpha * y)
        assert r.ok, (n, r.mismatches, [d.render() for d in r.run.diagnostics])
