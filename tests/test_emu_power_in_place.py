"""Power with dst the same tensor as its base, Power(x, x, y) (round 42, newsrc). The API reference forbids it, but on A2
the devkit's float implementation writes exp(y * ln|x|) into dst first and reads the base again afterwards for its sign
and NaN masks, so in place they see |x|^y: the result is |x|^y, with no sign for a negative base to an odd power and no
NaN for a negative base to a fractional one. A contest Pdist kernel (TJ12342/ascend_c_parctice) computes
|x_i - x_j|^p so, Sub and then Power in place, and its NPU outputs match torch's pdist. Half goes through float
temporaries, so in place it is the ordinary Power. Other in-place forms stay errors: the exponent tensor as dst
(Power(x, s, x)), int32, and a dst that overlaps the base shifted."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t N = 96;
extern "C" __global__ __aicore__ void pow_in_place(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * N * sizeof(T));
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x, N);
    yg.SetGlobalBuffer((__gm__ T *)y, N);
    LocalTensor<T> a = buf.Get<T>();
    DataCopy(a, xg, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    CALL;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yg, a, N);
}
'''
N = 96


def _run(tmp_path, ctype, dtype, call, x):
    src = tmp_path / "pow_in_place.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("CALL", call))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return run(b, [GM("x", x), GM("y", np.zeros(N, dtype), "out")], block_dim=1)


def _x(dtype):
    x = np.random.default_rng(42).uniform(-3, 3, N).astype(dtype)
    x[:4] = [-2.0, -0.5, 0.0, 1.5]
    return x


def test_float_power_in_place_is_the_power_of_the_magnitude(tmp_path):
    x = _x(np.float32)
    r = _run(tmp_path, "float", np.float32, "Power(a, a, (T)3.0f, N)", x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.abs(x.astype(np.float64)) ** 3
    np.testing.assert_allclose(r.outputs["y"], want, rtol=1e-6)
    assert r.outputs["y"][0] == np.float32(8.0)               # (-2)^3 in place: +8 on A2, not -8
    warn = [d for d in r.diagnostics if d.kind == "adv-in-place"]
    assert warn and "|x|^y" in warn[0].message, [d.render() for d in r.diagnostics]


def test_float_power_in_place_gives_no_nan_for_a_negative_base(tmp_path):
    x = _x(np.float32)
    r = _run(tmp_path, "float", np.float32, "Power(a, a, (T)0.5f, N)", x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"], np.sqrt(np.abs(x.astype(np.float64))), rtol=1e-6)


def test_float_power_into_another_buffer_keeps_the_sign(tmp_path):
    x = _x(np.float32)
    r = _run(tmp_path, "float", np.float32, "Power(a[N], a, (T)3.0f, N); PipeBarrier<PIPE_V>(); "
             "DataCopy(a, a[N], N)", x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"], x.astype(np.float64) ** 3, rtol=1e-6)
    assert r.outputs["y"][0] == np.float32(-8.0)


def test_half_power_in_place_is_the_ordinary_power(tmp_path):
    x = _x(np.float16)
    r = _run(tmp_path, "half", np.float16, "Power(a, a, (T)3.0f, N)", x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"].astype(np.float64), x.astype(np.float64) ** 3, rtol=1e-3, atol=1e-3)
    assert r.outputs["y"][0] == np.float16(-8.0)


@pytest.mark.parametrize("ctype, dtype, call", [
    ("float", np.float32, "Power(a, (T)2.0f, a, N)"),        # the exponent tensor as dst
    ("int32_t", np.int32, "Power(a, a, (T)2, N)"),            # int32 in place
    ("float", np.float32, "Power(a[8], a, (T)2.0f, N)"),      # dst the base shifted by 8 elements
])
def test_other_in_place_forms_stay_errors(tmp_path, ctype, dtype, call):
    x = np.arange(1, N + 1).astype(dtype)
    r = _run(tmp_path, ctype, dtype, call, x)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.severity == "error")
    assert d.kind == "adv-overlap" and "Power" in d.message, d.render()
