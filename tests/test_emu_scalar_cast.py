"""The scalar Cast<T, U, roundMode> (and ScalarCast, its older name) against NumPy: float -> int32_t in the four A2
rounding modes, float -> half rounding to odd; any other pair stops with `unsupported` (public kernel: cann-ops
max_pool3_d_with_argmax_v2). Also the devkit constant BRCB_BROADCAST_NUMBER (add_layer_norm) and the basic API's
integer Ceil(uint32_t, uint32_t) helper (group_quant, grid_sample)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scast(GM_ADDR x, GM_ADDR y, GM_ADDR h)
{
    GlobalTensor<float> xg; GlobalTensor<int32_t> yg; GlobalTensor<half> hg;
    xg.SetGlobalBuffer((__gm__ float *)x, N);
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 4 * N + 1);
    hg.SetGlobalBuffer((__gm__ half *)h, N);
    for (int32_t i = 0; i < N; ++i) {
        float v = xg.GetValue(i);
        yg.SetValue(i, Cast<float, int32_t, RoundMode::CAST_ROUND>(v));
        yg.SetValue(N + i, ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(v));
        yg.SetValue(2 * N + i, Cast<float, int32_t, RoundMode::CAST_FLOOR>(v));
        yg.SetValue(3 * N + i, Cast<float, int32_t, RoundMode::CAST_RINT>(v));
        hg.SetValue(i, Cast<float, half, RoundMode::CAST_ODD>(v));
    }
    yg.SetValue(4 * N, (int32_t)BRCB_BROADCAST_NUMBER);
    EXTRA
}
'''
N = 64


def _build(tmp_path, extra=""):
    src = tmp_path / "scast.cpp"
    src.write_text(KERNEL.replace("N)", f"{N})").replace("N;", f"{N};").replace("4 * N", f"{4 * N}")
                   .replace("3 * N", f"{3 * N}").replace("2 * N", f"{2 * N}").replace("(N + i", f"({N} + i")
                   .replace("EXTRA", extra))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _round_to_odd(v):
    with np.errstate(over="ignore"):
        h = v.astype(np.float16)
    exact = h.astype(np.float32) == v
    bits = h.view(np.uint16)
    odd = (bits & 1) == 1
    away = np.abs(v) > np.abs(h.astype(np.float32))
    other = np.where(away, bits + 1, bits - 1).astype(np.uint16)
    return np.where(exact | odd, bits, other).astype(np.uint16).view(np.float16)


def test_scalar_cast_modes_against_numpy(tmp_path):
    rng = np.random.default_rng(4)
    x = np.concatenate([[1.5, 2.5, -1.5, -2.5, 0.5, -0.5, 3.14159, 3e9, -3e9],
                        rng.standard_normal(N - 9) * 100]).astype(np.float32)
    r = run(_build(tmp_path), [GM("x", x), GM("y", np.zeros(4 * N + 1, np.int32), "out"),
                               GM("h", np.zeros(N, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    sat = lambda a: np.clip(a, -2**31, 2**31 - 1).astype(np.int64)
    away = np.sign(x) * np.floor(np.abs(x.astype(np.float64)) + 0.5)          # CAST_ROUND: half away from zero
    np.testing.assert_array_equal(y[:N], sat(away))
    np.testing.assert_array_equal(y[N:2 * N], sat(np.ceil(x.astype(np.float64))))
    np.testing.assert_array_equal(y[2 * N:3 * N], sat(np.floor(x.astype(np.float64))))
    np.testing.assert_array_equal(y[3 * N:4 * N], sat(np.rint(x.astype(np.float64))))
    assert y[:4].tolist() == [2, 3, -2, -3] and y[3 * N:3 * N + 4].tolist() == [2, 2, -2, -2]   # the docs' examples
    assert y[4 * N] == 8
    np.testing.assert_array_equal(r.outputs["h"].view(np.uint16), _round_to_odd(x).view(np.uint16))
    assert r.outputs["h"][6] == np.float16(3.142578)      # the docs' CAST_ODD example


def test_scalar_cast_pair_a2_lacks_stops(tmp_path):
    b = _build(tmp_path, "half hv = Cast<float, half, RoundMode::CAST_ROUND>(1.0f); hg.SetValue(0, hv);")
    r = run(b, [GM("x", np.zeros(N, np.float32)), GM("y", np.zeros(4 * N + 1, np.int32), "out"),
                GM("h", np.zeros(N, np.float16), "out")], block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "unsupported" and "CAST_ODD" in r.diagnostics[0].render()


CEIL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ceilk(GM_ADDR y)
{
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 4);
    int64_t a = 100, b = 7;
    int32_t c = 64;
    const int64_t d = 32;
    yg.SetValue(0, Ceil(a, b));        // int64_t arguments convert to the uint32_t helper
    yg.SetValue(1, Ceil(c, d));
    yg.SetValue(2, Ceil(65U, 32U));
    yg.SetValue(3, Ceil(0U, 32U));
}
'''


def test_basic_integer_ceil_helper(tmp_path):
    (tmp_path / "ceilk.cpp").write_text(CEIL)
    b = build(tmp_path / "ceilk.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.zeros(4, np.uint32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["y"].tolist() == [15, 2, 3, 0]
