"""The lib/math and activation advanced APIs of runtime/include/ascendcraft_emu/math.h, checked against NumPy in float
and half, with the A2 dtype rules (half and float; Power also int32) and kernel assertions."""
import math

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run, trace

N = 256
SIGMOID = lambda x: 1 / (1 + np.exp(-x))
ERFC = np.vectorize(math.erfc)


def fgelu_v2(x):
    c = np.minimum(np.abs(0.7071 * x), 1.769) - 1.769
    sgn = (x + 1e-7) / np.abs(x + 1e-7)
    return x * (sgn * (-0.1444 * c * c + 0.5) + 0.5)


# API call (on tensors d, a, tmp; N elements) -> NumPy of x, input range
UNARY = {
    "Tan(d, a, N)": (np.tan, (-1.2, 1.2)),
    "Asin(d, a, tmp, N)": (np.arcsin, (-0.99, 0.99)),
    "Acos(d, a, N)": (np.arccos, (-0.99, 0.99)),
    "Atan(d, a, tmp, N)": (np.arctan, (-5, 5)),
    "Sinh(d, a, N)": (np.sinh, (-3, 3)),
    "Cosh(d, a, tmp, N)": (np.cosh, (-3, 3)),
    "Erfc(d, a, N)": (ERFC, (-2, 2)),
    "Sign(d, a, N)": (np.sign, (-2, 2)),
    "Frac(d, a, N)": (lambda x: x - np.trunc(x), (-4, 4)),
    "Silu(d, a, N)": (lambda x: x * SIGMOID(x), (-6, 6)),
    "Swish(d, a, N, (T)1.5)": (lambda x: x * SIGMOID(1.5 * x), (-6, 6)),
    "Gelu(d, a, N)": (lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))), (-5, 5)),
    "FasterGelu(d, a, tmp, N)": (lambda x: x * SIGMOID(1.702 * x), (-5, 5)),
    "FasterGeluV2(d, a, N)": (fgelu_v2, (-5, 5)),
    "Power(d, a, (T)2.5, N)": (lambda x: np.power(x, 2.5), (0.1, 3)),
    "Power(d, (T)2, a, N)": (lambda x: np.power(2.0, x), (-3, 3)),
    "Power(d, a, b, N)": (lambda x: np.power(x, x[::-1] / 3 + 0.5), (0.2, 2)),
}

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void math_api(GM_ADDR x, GM_ADDR y)
{{
    using T = {T};
    constexpr int32_t N = {N};
    constexpr int32_t K = {K};
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, obuf, tbuf;
    pipe.InitBuffer(buf, 2 * N * sizeof(T));
    pipe.InitBuffer(obuf, K * N * sizeof(T));
    pipe.InitBuffer(tbuf, 4096);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, K * N);
    LocalTensor<T> all = buf.Get<T>();
    LocalTensor<T> a = all, b = all[N], out = obuf.Get<T>();
    LocalTensor<uint8_t> tmp = tbuf.Get<uint8_t>();
    DataCopy(a, xGm, N);
    for (int i = 0; i < N; ++i) b.SetValue(i, (T)((float)a.GetValue(N - 1 - i) / 3.0f + 0.5f));
{calls}
    DataCopy(yGm, out, K * N);
}}
"""
CALLS = sorted(UNARY)


def kernel(T, calls, n=N):
    body = "\n".join(f"    {{ LocalTensor<T> d = out[{k} * N]; {c}; }}" for k, c in enumerate(calls))
    return KERNEL.format(T=T, N=n, K=len(calls), calls=body)


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["float", "half"])
def test_math_apis_match_numpy(dtype):
    lo_hi = [UNARY[c][1] for c in CALLS]
    # every API gets its own input range: x is one range per run, so run the kernel once per distinct range
    T = "float" if dtype == np.float32 else "half"
    b = build({"k.cpp": kernel(T, CALLS)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    for rng in sorted(set(lo_hi)):
        x = np.linspace(rng[0], rng[1], N).astype(dtype)
        r = run(b, [GM("x", x), GM("y", np.empty(len(CALLS) * N, dtype), "out")], block_dim=1)
        assert r.ok, "\n".join(d.render() for d in r.diagnostics)
        got = r.outputs["y"].reshape(len(CALLS), N).astype(np.float64)
        for k, call in enumerate(CALLS):
            if UNARY[call][1] != rng: continue
            want = UNARY[call][0](x.astype(np.float64))
            if call == "Power(d, a, b, N)":
                bb = (x[::-1].astype(np.float32) / 3 + 0.5).astype(dtype).astype(np.float64)
                want = np.power(x.astype(np.float64), bb)
            tol = 1e-5 if dtype == np.float32 else 2e-3
            np.testing.assert_allclose(got[k], want, rtol=tol, atol=tol, err_msg=call)


def test_int32_power_and_the_dtype_rules():
    src = kernel("int32_t", ["Power(d, a, (T)3, 64)"], 64)
    x = np.arange(-32, 32, dtype=np.int32)
    r = run(build({"k.cpp": src}), [GM("x", x), GM("y", np.empty_like(x), "out")], block_dim=1)
    assert r.ok and np.array_equal(r.outputs["y"], x ** 3)
    bad = build({"k.cpp": kernel("int32_t", ["Silu(d, a, 64)"], 64)})
    assert not bad.ok and "Silu on Ascend 910B (A2) supports half and float only" in bad.errors[0].message


def test_gelu_apis_may_write_over_their_source_as_the_api_reference_allows():
    """Gelu, FasterGelu and FasterGeluV2 in place (dst the same tensor as src): the API reference lets dst reuse src's
    space (unlike Tanh or Silu), so the run is no error and no warning, and each element is its Gelu (EvoKernel's
    Conv2dGeluGlobalAvgPool calls FasterGeluV2<float, false, true>(tile, tile, tmp, n) and passed on their 910B)."""
    calls = ["Muls(d, a, (T)1, N); Gelu(d, d, N)", "Muls(d, a, (T)1, N); FasterGelu(d, d, tmp, N)",
             "Muls(d, a, (T)1, N); FasterGeluV2(d, d, tmp, N)", "Muls(d, a, (T)1, N); FasterGeluV2<T, false, true>(d, d, N)"]
    x = np.linspace(-5, 5, N).astype(np.float32)
    r = run(build({"k.cpp": kernel("float", calls)}), [GM("x", x), GM("y", np.empty(len(calls) * N, np.float32), "out")],
            block_dim=1)
    assert r.ok and not r.diagnostics, "\n".join(d.render() for d in r.diagnostics)
    got = r.outputs["y"].reshape(len(calls), N).astype(np.float64)
    for k, api in enumerate(("Gelu(d, a, N)", "FasterGelu(d, a, tmp, N)", "FasterGeluV2(d, a, N)", "FasterGeluV2(d, a, N)")):
        np.testing.assert_allclose(got[k], UNARY[api][0](x.astype(np.float64)), rtol=1e-5, atol=1e-5, err_msg=calls[k])


def test_overlap_is_refused_and_the_trace_names_the_api():
    r = run(build({"k.cpp": kernel("float", ["Gelu(d[8], d, 128)"])}),
            [GM("x", np.zeros(N, np.float32)), GM("y", np.zeros(N, np.float32), "out")], block_dim=1)
    assert [d.kind for d in r.errors] == ["adv-overlap"] and r.errors[0].context["api"] == "Gelu"
    t = trace(build({"k.cpp": kernel("float", ["FasterGeluV2(d, a, N)"])}),
              [GM("x", None, shape=(N,), dtype=np.float32), GM("y", None, "out", shape=(N,), dtype=np.float32)], block_dim=1)
    assert t.count("FasterGeluV2") == 1


ASSERTS = """#include "kernel_operator.h"
#include <cmath>
using namespace AscendC;
extern "C" __global__ __aicore__ void checked(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    ascendc_assert(n % 8 == 0, "n = %u is not a multiple of 8", n);
    ASSERT(n <= 1024);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    // ToFloat / ToBfloat16 and their one-argument Cast names (bfloat16 keeps 8 bits of mantissa: 1.00390625 -> 1)
    const float one = ToFloat(ToBfloat16(1.0f)) * Cast(Cast(1.00390625f));
    for (uint32_t i = 0; i < n; ++i) yGm.SetValue(i, std::sqrt(std::fabs(xGm.GetValue(i))) + one);
    AscendC::printf("block %ld done\\n", (long)GetBlockIdx());
}
"""


def test_assertions_stop_the_run_with_the_message_and_cmath_works_in_scalar_code():
    b = build({"checked.cpp": ASSERTS})
    x = np.linspace(-4, 4, 16).astype(np.float32)
    ok = run(b, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(16, "uint32_t")], block_dim=1)
    assert ok.ok and "block 0 done" in ok.stdout
    np.testing.assert_allclose(ok.outputs["y"], np.sqrt(np.abs(x)) + 1, rtol=1e-6)
    bad = run(b, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(12, "uint32_t")], block_dim=1)
    d = bad.errors[0]
    assert (d.kind, d.line) == ("kernel-assert", 6) and "n = 12 is not a multiple of 8" in d.message


def test_device_assert_takes_a_message_like_ascendc_assert():
    "The device headers' assert(cond, fmt, args...) (kernels ported from CANN samples write it) stops with the message."
    b = build({"checked.cpp": ASSERTS.replace('ascendc_assert(n % 8 == 0, "n = %u is not a multiple of 8", n);',
                                               'assert(n % 8 == 0, "n = %u is not a multiple of 8", n); assert(n > 0);')})
    x = np.linspace(-4, 4, 16).astype(np.float32)
    assert run(b, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(16, "uint32_t")], block_dim=1).ok
    bad = run(b, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(12, "uint32_t")], block_dim=1)
    d = bad.errors[0]
    assert (d.kind, d.line) == ("kernel-assert", 6) and "n = 12 is not a multiple of 8" in d.message


PIPE_API = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void pipe_api(GM_ADDR x, GM_ADDR y)
{
    InitSocState();
    TPipe pipe;
    pipe.Init();
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = buf.AllocTensor<float>();
    DataCopy(t, xGm, 64);
    Muls(t, t, 3.0f, 64);
    DataCopy(yGm, t, 64);
    buf.FreeTensor(t);
    pipe.Reset();
    pipe.Destroy();
}
"""


def test_tpipe_init_reset_destroy_and_tbuf_alloc_free():
    x = np.arange(64, dtype=np.float32)
    r = run(build({"pipe_api.cpp": PIPE_API}), [GM("x", x), GM("y", np.empty_like(x), "out")], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 3 * x)


LIBC_ASSERT = """#include "kernel_operator.h"
#include <assert.h>   // after kernel_operator.h: the C library's assert macro again
using namespace AscendC;
extern "C" __global__ __aicore__ void libc_checked(GM_ADDR y, uint32_t n)
{
    assert(n < 100 && "n exceeds the limit");
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    yGm.SetValue(0, 1.0f);
}
"""


def test_the_c_librarys_assert_in_a_kernel_is_a_kernel_assert_not_a_crash():
    "A kernel whose <assert.h> assert fails (asc-devkit 09_log) stops with the kernel-assert error at its line."
    b = build({"libc_checked.cpp": LIBC_ASSERT})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    ok = run(b, [GM("y", np.zeros(8, np.float32), "out"), Scalar(8, "uint32_t")], block_dim=1)
    assert ok.ok and ok.outputs["y"][0] == 1
    bad = run(b, [GM("y", np.zeros(8, np.float32), "out"), Scalar(128, "uint32_t")], block_dim=1)
    d = bad.errors[0]
    assert (d.kind, d.line) == ("kernel-assert", 6), d.render()
    assert 'n < 100 && "n exceeds the limit"' in d.message
