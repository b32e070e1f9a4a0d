"""Numerics and level-0 semantics of the emulated vector API, each checked against an independent
NumPy model of the documented behaviour: every RoundMode of Cast, the summation order and half
saturation of ReduceSum, first-occurrence indices, per-repeat and per-block reductions, counter-mode
and bit masks, Select modes 0 and 2, strides, Gather, mixed Axpy and atomic accumulation."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

GOOD = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(7)


def half_round(x: np.ndarray, mode: str) -> np.ndarray:
    "float32 -> float16 under a rounding mode, from NumPy's round-to-nearest-even and nextafter."
    x64 = x.astype(np.float64)
    n = x.astype(np.float16)
    nd = n.astype(np.float64)
    with np.errstate(over="ignore"):   # the neighbours of +-65504 are +-inf
        lo = np.where(nd <= x64, n, np.nextafter(n, np.float16(-np.inf)))
        hi = np.where(nd >= x64, n, np.nextafter(n, np.float16(np.inf)))
    exact = nd == x64
    dl, dh = x64 - lo.astype(np.float64), hi.astype(np.float64) - x64
    pick = {"rint": n, "floor": lo, "ceil": hi, "trunc": np.where(x64 > 0, lo, hi),
            "round": np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(x64 > 0, hi, lo))),
            "odd": np.where(lo.view(np.uint16) & 1, lo, hi)}[mode]
    return np.where(exact, n, pick).astype(np.float16)


def int_round(x: np.ndarray, mode: str) -> np.ndarray:
    x = x.astype(np.float64)
    f = {"rint": np.rint, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
         "round": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}[mode]
    return f(x).astype(np.int32)


def pairwise(v: np.ndarray, dtype) -> np.float64:
    "Adjacent-pair tree sum in `dtype` arithmetic (an odd element carries up)."
    v = list(v.astype(dtype))
    while len(v) > 1:
        nxt = [dtype(v[i] + v[i + 1]) for i in range(0, len(v) - 1, 2)]
        v = nxt + ([v[-1]] if len(v) % 2 else [])
    return v[0]


@pytest.fixture(scope="module")
def numerics():
    step = np.float32(2.0 ** -11)   # half the spacing of float16 around 1: exact ties for the half casts
    xf = np.array([1 + step, 1 + 3 * step, -(1 + step), 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, -2.6, 3.0, 65519.0, -65519.0,
                   1e-8, -1e-8, 0.1, 1234.567, -7.75, 100.5], np.float32)
    xf = np.concatenate([xf, RNG.standard_normal(64 - xf.size).astype(np.float32) * 50])
    xh = np.full(128, 1000.0, np.float16)
    xr = (RNG.standard_normal(256) * 10).astype(np.float32)
    xr[10] = xr[200] = 99.0            # the first occurrence of the maximum is index 10
    xr[130] = xr[140] = 50.0           # repeat 2's maximum appears at lanes 2 and 12
    outs = [GM("outH", np.empty(6 * 64, np.float16), "out"), GM("outI", np.empty(5 * 64, np.int32), "out"),
            GM("sumF", np.empty(8, np.float32), "out"), GM("maxF", np.empty(8, np.float32), "out"),
            GM("sumH", np.empty(16, np.float16), "out"), GM("whole", np.empty(8, np.float32), "out"),
            GM("blk", np.empty(32, np.float32), "out")]
    r = run(build(GOOD / "api_numerics.cpp"), [GM("xf", xf), GM("xh", xh), GM("xr", xr), *outs], block_dim=1)
    assert r.ok, r.diagnostics
    return xf, xh, xr, r.outputs


@pytest.mark.parametrize("i,mode", list(enumerate(["rint", "floor", "ceil", "round", "trunc", "odd"])))
def test_cast_float_to_half_in_every_round_mode(numerics, i, mode):
    xf, _, _, out = numerics
    np.testing.assert_array_equal(out["outH"][i * 64:(i + 1) * 64], half_round(xf, mode))


def test_cast_ties_differ_between_modes(numerics):
    out = numerics[3]["outH"].reshape(6, 64)[:, 0].astype(np.float64)   # x = 1 + 2^-11, a tie between 1 and 1 + 2^-10
    assert list(out) == [1.0, 1.0, 1 + 2 ** -10, 1 + 2 ** -10, 1.0, 1 + 2 ** -10]


@pytest.mark.parametrize("i,mode", list(enumerate(["rint", "floor", "ceil", "round", "trunc"])))
def test_cast_float_to_int32_in_every_round_mode(numerics, i, mode):
    xf, _, _, out = numerics
    np.testing.assert_array_equal(out["outI"][i * 64:(i + 1) * 64], int_round(xf, mode))


def test_reduce_sum_order_and_half_saturation(numerics):
    _, xh, xr, out = numerics
    per_repeat = [pairwise(xr[r * 64:(r + 1) * 64], np.float32) for r in range(4)]   # tree inside each 256-byte repeat
    total = np.float32(0)
    for k, p in enumerate(per_repeat): total = p if k == 0 else np.float32(total + p)   # then in sequence
    assert out["sumF"][0] == total and (out["sumF"][1:] == 0).all()
    assert out["sumH"][0] == np.float16(65504)        # 64000 + 64000 saturates instead of overflowing to inf


def test_reduce_max_index_is_the_first_occurrence(numerics):
    _, _, xr, out = numerics
    assert out["maxF"][0] == 99.0 and out["maxF"][1:2].view(np.uint32)[0] == 10


def test_whole_reduce_max_gives_value_and_lane_per_repeat(numerics):
    _, _, xr, out = numerics
    w = out["whole"].reshape(4, 2)
    np.testing.assert_array_equal(w[:, 0], xr.reshape(4, 64).max(1))
    np.testing.assert_array_equal(w[:, 1].view(np.uint32), xr.reshape(4, 64).argmax(1))
    assert w[2, 1].view(np.uint32) == 2


def test_block_reduce_sum_gives_one_sum_per_32_bytes(numerics):
    _, _, xr, out = numerics
    want = [pairwise(b, np.float32) for b in xr.reshape(32, 8)]
    np.testing.assert_array_equal(out["blk"], np.array(want, np.float32))


def test_level0_masks_strides_and_select_modes():
    x, y = (RNG.standard_normal(256).astype(np.float32) for _ in range(2))
    h = RNG.standard_normal(256).astype(np.float16)
    args = [GM("x", x), GM("y", y), GM("hx", h), GM("zf", np.empty(7 * 256, np.float32), "out"),
            GM("zh", np.empty(256, np.float16), "out"), GM("zb", np.empty(32, np.uint8), "out")]
    r = run(build(GOOD / "api_level0.cpp"), args, block_dim=1)
    assert r.ok, r.diagnostics
    z1, z3, z4, z5, z7, z8, z9 = r.outputs["zf"].reshape(7, 256)
    i = np.arange(256)
    np.testing.assert_array_equal(z1, np.where(i < 100, x + y, 0))                              # counter mode, 100 elements
    lane = i % 128
    np.testing.assert_array_equal(r.outputs["zh"], np.where(((lane < 64) & (lane % 2 == 1)) | (lane == 64), h * np.float16(2), 0))
    np.testing.assert_array_equal(z3, np.where((i // 8) % 2 == 0, 7.0, 0.0))                   # block stride 2
    np.testing.assert_array_equal(z4, np.where(((i % 64) // 8) % 2 == 0, x, y))                 # mode 0: 64 bits reused
    np.testing.assert_array_equal(z5, np.where(i % 8 < 4, x, y))                                # mode 2: bits consumed in order
    np.testing.assert_array_equal(r.outputs["zb"], np.packbits(x >= 0, bitorder="little"))
    np.testing.assert_array_equal(z7, x[::-1])
    np.testing.assert_array_equal(z8[:64], np.concatenate([x[32 * b:32 * b + 16] for b in range(4)]))
    np.testing.assert_array_equal(z9, np.float32(1) + h.astype(np.float32) * np.float32(0.5))


def test_atomic_add_accumulates_blocks_through_a_bound_queue():
    x = RNG.standard_normal(4 * 256).astype(np.float32)
    r = run(build(GOOD / "atomic_bind.cpp"), [GM("x", x), GM("y", np.empty(256, np.float32), "out")], block_dim=4)
    assert r.ok, r.diagnostics
    want = np.zeros(256, np.float32)
    for block in x.reshape(4, 256): want = want + block          # block order, float32 arithmetic
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_data_copy_pad_dummy_and_pad_bytes_follow_the_documentation():
    x = RNG.standard_normal((6, 13)).astype(np.float32)
    r = run(build(GOOD / "api_pad.cpp"), [GM("x", x), GM("y", np.zeros(6 * 16 + 8, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    rows = r.outputs["y"][:96].reshape(6, 16)
    for k in range(3):   # no padding, 52 bytes: three dummy floats repeat the burst's first element
        np.testing.assert_array_equal(rows[k], np.concatenate([x[k], np.repeat(x[k, 0], 3)]))
    for k in range(3, 6):   # 2 + 13 + 1 = 16 floats: exactly 64 bytes, pads take the padding value
        np.testing.assert_array_equal(rows[k], np.concatenate([[-1, -1], x[k], [-1]]).astype(np.float32))
    assert r.outputs["y"][96] == x[0, 0] + x[0, 12]
    assert (r.outputs["y"][97:].view(np.uint8) == 0xA5).all()      # untouched GM keeps the poison


def test_every_api_form_compiles_unmodified_and_runs_clean():
    import struct
    b = build(GOOD / "api_surface.cpp")
    assert b.ok and not b.diagnostics, "\n".join(map(str, b.diagnostics))
    x = RNG.standard_normal(2 * 256).astype(np.float32)
    args = [GM("x", x), GM("y", np.empty(2 * 256, np.float32), "out"), GM("ws", np.zeros(64, np.int32), "inout"),
            GM("tiling", np.frombuffer(struct.pack("<II", 256, 0), np.uint8))]
    r = run(b, args, block_dim=2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert r.stdout.count("done") == 2 and "DumpTensor: desc=7" in r.stdout


WHOLE_SUM = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void whole_sum(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 64 * 32 * sizeof(float));
    pipe.InitBuffer(b, 2 * 32 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64 * 32);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * 32);
    LocalTensor<float> t = a.Get<float>(), s = b.Get<float>();
    DataCopy(t, xGm, 64 * 32);
    PipeBarrier<PIPE_ALL>();
    WholeReduceSum<float>(s, t, 64, 32, 1, 1, 8);          // all 64 lanes of each repeat
    WholeReduceSum<float>(s[32], t, 37, 32, 1, 1, 8);      // the first 37 lanes (an odd count carries up)
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, s, 2 * 32);
}
"""


def test_whole_reduce_sum_of_floats_is_the_float_pair_tree_bit_for_bit():
    "Sums over rows whose values span 60 binary orders of magnitude: every rounding step shows."
    x = (RNG.standard_normal((32, 64)) * 2.0 ** RNG.integers(-30, 30, (32, 64))).astype(np.float32)
    b = build({"k.cpp": WHOLE_SUM})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", x.ravel()), GM("y", None, "out", shape=(64,), dtype=np.float32)], block_dim=1)
    assert r.ok, r.diagnostics
    want = [pairwise(row, np.float32) for row in x] + [pairwise(row[:37], np.float32) for row in x]
    np.testing.assert_array_equal(r.outputs["y"], np.array(want, np.float32))


WHOLE_MIN_MAX = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void whole_min_max(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 64 * 16 * sizeof(float));
    pipe.InitBuffer(b, 4 * 16 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64 * 16);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4 * 16);
    LocalTensor<float> t = a.Get<float>(), s = b.Get<float>();
    DataCopy(t, xGm, 64 * 16);
    PipeBarrier<PIPE_ALL>();
    WholeReduceMax<float>(s, t, 64, 16, 1, 1, 8);          // value and lane per repeat
    WholeReduceMin<float>(s[32], t, 37, 16, 1, 1, 8);      // over the first 37 lanes
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, s, 4 * 16);
}
"""


def test_whole_reduce_max_and_min_of_floats_give_the_first_lane_of_the_extreme():
    x = RNG.integers(-4, 5, (16, 64)).astype(np.float32)   # few distinct values: ties in every row
    b = build({"k.cpp": WHOLE_MIN_MAX})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", x.ravel()), GM("y", None, "out", shape=(64,), dtype=np.float32)], block_dim=1)
    assert r.ok, r.diagnostics
    mx, mn = r.outputs["y"][:32].reshape(16, 2), r.outputs["y"][32:].reshape(16, 2)
    np.testing.assert_array_equal(mx[:, 0], x.max(1))
    np.testing.assert_array_equal(mx[:, 1].view(np.uint32), x.argmax(1))
    np.testing.assert_array_equal(mn[:, 0], x[:, :37].min(1))
    np.testing.assert_array_equal(mn[:, 1].view(np.uint32), x[:, :37].argmin(1))


def _first_extreme(row, is_max):
    """The first NaN if the row has one (a NaN wins: the register-form Reduce pages; A2's ForeachNonFiniteCheckAndUnscale
    relies on it), else the serial scan: a later lane wins only when strictly greater (smaller)."""
    nans = np.flatnonzero(np.isnan(row))
    if nans.size: return int(nans[0])
    at = 0
    for k in range(1, len(row)):
        if (row[k] > row[at]) if is_max else (row[k] < row[at]): at = k
    return at


def test_whole_reduce_max_and_min_choose_the_first_nan_else_the_serial_choice_with_signed_zeros_and_infinities():
    "The SSE2 path (no NaN in the row) and the NaN one pick the lane `_first_extreme` picks, bit for bit."
    rows = RNG.integers(-2, 3, (16, 64)).astype(np.float32)
    rows[0, 0] = np.nan                                     # NaN first: the result
    rows[1, 5] = np.nan                                     # NaN later: the result too (lane 5)
    rows[1, 9] = np.nan                                     # ... not this second one
    rows[2, 40] = np.nan                                    # NaN past Min's 37 lanes: only Max sees it
    rows[3] = np.where(RNG.random(64) < 0.5, 0.0, -0.0)     # +0 and -0 only: the first zero, its own sign
    rows[4] = -np.abs(rows[4]) - 1; rows[4, [7, 30]] = [-0.0, 0.0]
    rows[5, [3, 50]] = [np.inf, np.inf]; rows[5, 36] = -np.inf
    rows[6, 36] = -5                                        # Min's last lane (the 37-lane tail)
    b = build({"k.cpp": WHOLE_MIN_MAX})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", rows.ravel()), GM("y", None, "out", shape=(64,), dtype=np.float32)], block_dim=1)
    assert r.ok, r.diagnostics
    mx, mn = r.outputs["y"][:32].reshape(16, 2), r.outputs["y"][32:].reshape(16, 2)
    for i, row in enumerate(rows):
        a, c = _first_extreme(row, True), _first_extreme(row[:37], False)
        assert mx[i, 1].view(np.uint32) == a and mx[i, :1].view(np.uint32) == row[a:a + 1].view(np.uint32), i
        assert mn[i, 1].view(np.uint32) == c and mn[i, :1].view(np.uint32) == row[c:c + 1].view(np.uint32), i


def test_level0_sub_with_a_broadcast_operand_is_exact():
    "x - rowmax(x) with Brcb and a block-stride-0 operand (the full-block direct loop of level-0 binary ops)."
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "benchmarks"))
    from bench_speed import ROW_CENTER
    tile = 8192
    x = RNG.standard_normal(2 * tile).astype(np.float32)
    b = build({"k.cpp": ROW_CENTER})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", x), GM("y", None, "out", shape=x.shape, dtype=np.float32), Scalar(x.size), Scalar(tile)],
            block_dim=2)
    assert r.ok, r.diagnostics
    rows = x.reshape(-1, 64)
    np.testing.assert_array_equal(r.outputs["y"].reshape(-1, 64), rows - rows.max(1, keepdims=True))
