"""Forms of flash-linear-attention-npu's kernels (its GDN / KDA op projects, built on catlass at the commit its CMake
pins): a value-sequence helper in catlass tla's older style, whose partial specialisations take a `size_t` pack from
an `int` sequence. CANN's device compiler (clang) deduces that pack by converting the values, g++ does not
([temp.deduct.type]); the emulator's build writes the pack with the sequence's type (emu.typed_pack_specialisations).
The kernel below is our own, in that style; its result is checked against NumPy."""
import numpy as np

from ascendcraft.emu import GM, build, run

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
