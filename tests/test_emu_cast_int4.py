"""Cast between half and int4b_t on the vector unit (Ascend 910B has both: half -> int4b_t with CAST_NONE / RINT / FLOOR /
CEIL / ROUND / TRUNC, saturating to -8..7; int4b_t -> half with CAST_NONE). An int4b_t tensor holds two per byte, the
even element in the low half. Checked against NumPy; the unsupported modes are errors at their line."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

N = 256
KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// x [N] half -> q [N / 2] bytes (int4b_t, two per byte) with round mode `mode`; back [N] half = the int4 values as half
extern "C" __global__ __aicore__ void cast_s4(GM_ADDR x, GM_ADDR q, GM_ADDR back, int32_t mode)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    constexpr uint32_t N = 256;
    GlobalTensor<half> xGm, bGm;
    GlobalTensor<int4b_t> qGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N);
    qGm.SetGlobalBuffer((__gm__ int4b_t *)q, N);
    bGm.SetGlobalBuffer((__gm__ half *)back, N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bq, bb;
    pipe.InitBuffer(bx, N * 2);
    pipe.InitBuffer(bq, N / 2);
    pipe.InitBuffer(bb, N * 2);
    LocalTensor<half> xl = bx.Get<half>(), bl = bb.Get<half>();
    LocalTensor<int4b_t> ql = bq.Get<int4b_t>();
    DataCopy(xl, xGm, N);
    PipeBarrier<PIPE_ALL>();
    Cast(ql, xl, static_cast<RoundMode>(mode), N);
    PipeBarrier<PIPE_V>();
    Cast(bl, ql, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(qGm, ql, N / 2);                    // A2: a DataCopy count of int4b_t counts bytes
    DataCopy(bGm, bl, N);
}
// q [N / 2] bytes of int4b_t -> UB with DataCopyPad (blockLen in bytes), from element 64 on (GM offsets count 4-bit
// elements) -> half
extern "C" __global__ __aicore__ void load_s4(GM_ADDR q, GM_ADDR back)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    constexpr uint32_t N = 256;
    GlobalTensor<int4b_t> qGm;
    GlobalTensor<half> bGm;
    qGm.SetGlobalBuffer((__gm__ int4b_t *)q, N);
    bGm.SetGlobalBuffer((__gm__ half *)back, N - 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bq, bb;
    pipe.InitBuffer(bq, N / 2);
    pipe.InitBuffer(bb, N * 2);
    LocalTensor<int4b_t> ql = bq.Get<int4b_t>();
    LocalTensor<half> bl = bb.Get<half>();
    DataCopyExtParams p{1, (N - 64) / 2, 0, 0, 0};
    DataCopyPadExtParams<int4b_t> pad{false, 0, 0, int4b_t(0)};
    DataCopyPad(ql, qGm[64], p, pad);
    PipeBarrier<PIPE_ALL>();
    Cast(bl, ql, RoundMode::CAST_NONE, N - 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(bGm, bl, N - 64);
}
// CAST_ODD is not an A2 mode for half -> int4b_t
extern "C" __global__ __aicore__ void cast_s4_odd(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bq;
    pipe.InitBuffer(bx, 512);
    pipe.InitBuffer(bq, 128);
    LocalTensor<half> xl = bx.Get<half>();
    Duplicate(xl, (half)1.0, 256);
    PipeBarrier<PIPE_V>();
    Cast(bq.Get<int4b_t>(), xl, RoundMode::CAST_ODD, 256);
}
'''
LINE_ODD = next(i for i, t in enumerate(KERNEL.split("\n"), 1) if "CAST_ODD, 256" in t)
MODES = {"CAST_NONE": (0, np.rint), "CAST_RINT": (1, np.rint), "CAST_FLOOR": (2, np.floor), "CAST_CEIL": (3, np.ceil),
         "CAST_ROUND": (4, lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)), "CAST_TRUNC": (5, np.trunc)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    src = tmp_path_factory.mktemp("s4") / "cast_s4.cpp"
    src.write_text(KERNEL)
    return {e: build(src, entry=e) for e in ("cast_s4", "cast_s4_odd", "load_s4")}


@pytest.mark.parametrize("mode", list(MODES))
def test_half_to_int4_and_back(built, mode):
    rng = np.random.default_rng(5)
    # signed values in and beyond -8..7, with exact halves to tell the round modes apart
    x = np.concatenate([np.arange(-10, 10.5, 0.5), rng.uniform(-12, 12, N - 41)]).astype(np.float16)
    b = built["cast_s4"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("x", x), GM("q", np.empty(N // 2, np.int8), "out"), GM("back", np.empty(N, np.float16), "out"),
                MODES[mode][0]], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = np.clip(MODES[mode][1](x.astype(np.float64)), -8, 7).astype(np.int64)
    q = r.outputs["q"].view(np.uint8).astype(np.int64)
    lo, hi = q & 0xF, q >> 4
    got = np.empty(N, np.int64)
    got[0::2], got[1::2] = np.where(lo >= 8, lo - 16, lo), np.where(hi >= 8, hi - 16, hi)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(r.outputs["back"], want.astype(np.float16))


def test_int4_copies_count_bytes(built):
    b = built["load_s4"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    v = np.random.default_rng(6).integers(-8, 8, N)
    q = ((v[0::2] & 0xF) | ((v[1::2] & 0xF) << 4)).astype(np.uint8)
    r = run(b, [GM("q", q), GM("back", np.empty(N - 64, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["back"], v[64:].astype(np.float16))


def test_cast_odd_to_int4_is_an_error(built):
    b = built["cast_s4_odd"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("x", np.zeros(1, np.float16))], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == "cast-mode" and "CAST_ODD" in errs[0].message and errs[0].line == LINE_ODD, errs
