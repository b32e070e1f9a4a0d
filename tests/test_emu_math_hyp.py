"""Asinh, Acosh, Atanh, ClampMax and ClampMin (runtime/include/ascendcraft_emu/math.h), checked against NumPy in float
and half; their A2 dtype rule (half and float only); and the per-API header paths public kernels include
(adv_api/math/asinh.h, lib/math/sin.h, adv_api/pad/broadcast.h, ...)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run, trace

N = 256

KERNEL = """#include "kernel_operator.h"
{includes}
using namespace AscendC;
extern "C" __global__ __aicore__ void hyp(GM_ADDR x, GM_ADDR y)
{{
    using T = {T};
    constexpr int32_t N = {N};
    constexpr int32_t K = {K};
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, obuf, tbuf;
    pipe.InitBuffer(buf, N * sizeof(T));
    pipe.InitBuffer(obuf, K * N * sizeof(T));
    pipe.InitBuffer(tbuf, 4096);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, K * N);
    LocalTensor<T> a = buf.Get<T>(), out = obuf.Get<T>();
    LocalTensor<uint8_t> tmp = tbuf.Get<uint8_t>();
    DataCopy(a, xGm, N);
{calls}
    DataCopy(yGm, out, K * N);
}}
"""

# API call (dst d, src a, tmp; N elements) -> NumPy of x; input range
CALLS = {
    "Asinh(d, a, tmp, N)": (np.arcsinh, (-6, 6)),
    "Asinh<T, false>(d, a, N)": (np.arcsinh, (-6, 6)),
    "Acosh(d, a, tmp, N)": (np.arccosh, (1, 8)),
    "Acosh(d, a)": (np.arccosh, (1, 8)),
    "Atanh(d, a, tmp, N)": (np.arctanh, (-0.95, 0.95)),
    "Atanh(d, a, tmp)": (np.arctanh, (-0.95, 0.95)),
    "ClampMax(d, a, tmp, (T)0.25, N)": (lambda x: np.minimum(x, 0.25), (-2, 2)),
    "ClampMax(d, a, (T)-0.5, N)": (lambda x: np.minimum(x, -0.5), (-2, 2)),
    "ClampMin(d, a, tmp, (T)0.25, N)": (lambda x: np.maximum(x, 0.25), (-2, 2)),
    "ClampMin<T, false>(d, a, (T)-0.5, N)": (lambda x: np.maximum(x, -0.5), (-2, 2)),
}
ORDER = sorted(CALLS)


def kernel(T, calls, includes="", n=N):
    body = "\n".join(f"    {{ LocalTensor<T> d = out[{k} * N]; {c}; }}" for k, c in enumerate(calls))
    return KERNEL.format(T=T, N=n, K=len(calls), calls=body, includes=includes)


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["float", "half"])
def test_hyperbolic_inverses_and_clamps_match_numpy(dtype):
    T = "float" if dtype == np.float32 else "half"
    b = build({"k.cpp": kernel(T, ORDER)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    for rng in sorted({CALLS[c][1] for c in ORDER}):
        x = np.linspace(rng[0], rng[1], N).astype(dtype)
        r = run(b, [GM("x", x), GM("y", np.empty(len(ORDER) * N, dtype), "out")], block_dim=1)
        assert r.ok, "\n".join(d.render() for d in r.diagnostics)
        got = r.outputs["y"].reshape(len(ORDER), N).astype(np.float64)
        for k, call in enumerate(ORDER):
            if CALLS[call][1] != rng: continue
            want = CALLS[call][0](x.astype(np.float64)).astype(dtype).astype(np.float64)
            tol = 1e-5 if dtype == np.float32 else 2e-3
            np.testing.assert_allclose(got[k], want, rtol=tol, atol=tol, err_msg=call)


def test_out_of_domain_inputs_give_nan_as_numpy():
    x = np.array([0.5, -2.0, 1.0, 3.0] * (N // 4), np.float32)
    b = build({"k.cpp": kernel("float", ["Acosh(d, a, tmp, N)", "Atanh(d, a, tmp, N)"])})
    r = run(b, [GM("x", x), GM("y", np.empty(2 * N, np.float32), "out")], block_dim=1)
    assert r.ok
    got = r.outputs["y"].reshape(2, N)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.isnan(got[0]), np.isnan(np.arccosh(x)))
        np.testing.assert_array_equal(got[1], np.arctanh(x).astype(np.float32))   # +-inf at +-1, NaN beyond


@pytest.mark.parametrize("call", ["Asinh(d, a, tmp, 64)", "Acosh(d, a, 64)", "Atanh(d, a, tmp, 64)"])
def test_a2_dtype_rule_half_and_float_only(call):
    bad = build({"k.cpp": kernel("int32_t", [call], n=64)})
    api = call.split("(")[0]
    assert not bad.ok and f"{api} on Ascend 910B (A2) supports half and float only" in bad.errors[0].message


@pytest.mark.parametrize("T,dtype", [("int32_t", np.int32), ("int16_t", np.int16)])
def test_clamps_take_the_integer_types_of_mins_and_maxs(T, dtype):
    "A2's ClampMax / ClampMin are one Mins / Maxs: the official headers accept int16_t / int32_t, exact results."
    b = build({"k.cpp": kernel(T, ["ClampMax(d, a, (T)7, N)", "ClampMin(d, a, tmp, (T)-3, N)"])})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.arange(-N // 2, N // 2, dtype=dtype) * 3
    r = run(b, [GM("x", x), GM("y", np.empty(2 * N, dtype), "out")], block_dim=1)
    got = r.outputs["y"].reshape(2, N)
    np.testing.assert_array_equal(got[0], np.minimum(x, 7))
    np.testing.assert_array_equal(got[1], np.maximum(x, -3))
    bad = build({"k.cpp": kernel("int8_t", ["ClampMax(d, a, (T)1, 64)"], n=64)})
    assert not bad.ok and "ClampMax on Ascend 910B (A2) supports half, int16_t, int32_t and float only" in bad.errors[0].message


def test_overlap_is_refused_and_the_trace_names_the_api():
    r = run(build({"k.cpp": kernel("float", ["Asinh(d, d, tmp, N)"])}),
            [GM("x", np.zeros(N, np.float32)), GM("y", np.zeros(N, np.float32), "out")], block_dim=1)
    assert [d.kind for d in r.errors] == ["adv-overlap"] and r.errors[0].context["api"] == "Asinh"
    t = trace(build({"k.cpp": kernel("float", ["ClampMin(d, a, (T)0, N)", "Atanh(d, a, tmp, N)"])}),
              [GM("x", None, shape=(N,), dtype=np.float32), GM("y", None, "out", shape=(2 * N,), dtype=np.float32)],
              block_dim=1)
    assert t.count("ClampMin") == 1 and t.count("Atanh") == 1


HEADERS = ["adv_api/math/asinh.h", "adv_api/math/asin.h", "adv_api/math/acosh.h", "adv_api/math/atanh.h",
           "adv_api/math/sign.h", "adv_api/math/clamp.h", "lib/math/sin.h", "lib/math/cos.h", "lib/math/asinh.h",
           "lib/math/kernel_operator_asinh_intf.h", "adv_api/pad/broadcast.h", "lib/pad/broadcast.h"]


def test_the_per_api_header_paths_public_kernels_include():
    inc = "\n".join(f'#include "{h}"' for h in HEADERS)
    calls = ["Asinh(d, a, tmp, N)", "ClampMax(d, a, (T)0.25, N)", "Sign(d, a, N)", "Sin(d, a, N)"]
    b = build({"k.cpp": kernel("float", calls, includes=inc)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.linspace(-2, 2, N).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.empty(len(calls) * N, np.float32), "out")], block_dim=1)
    got = r.outputs["y"].reshape(len(calls), N)
    np.testing.assert_allclose(got[0], np.arcsinh(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got[1], np.minimum(x, 0.25))
    np.testing.assert_array_equal(got[2], np.sign(x))
    np.testing.assert_allclose(got[3], np.sin(x), rtol=1e-5, atol=1e-6)


# ---- host side: Get<Api>MaxMinTmpSize / Get<Api>TmpBufferFactorSize (lib/math/<api>_tiling.h, tiling/tiling_api.h) ----
TILED = ["Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Tan", "Sinh", "Cosh", "Tanh", "Erf", "Erfc", "Sign", "Frac",
         "Trunc", "Floor", "Ceil", "Log", "Log10", "Log2", "Sin", "Cos"]
HOST = """#include "lib/math/sin_tiling.h"
#include "lib/math/cos_tiling.h"
#include "adv_api/math/asinh_tiling.h"
#include "tiling/tiling_api.h"
#include <cstdio>
#define SHOW(API, N, TS, REUSE) {{ uint32_t mx = 7, mn = 7, live = 7, extra = 7; \\
    AscendC::Get##API##MaxMinTmpSize(ge::Shape({{N}}), TS, REUSE, mx, mn); \\
    AscendC::Get##API##TmpBufferFactorSize(TS, live, extra); \\
    std::printf("%s %d %d %d %u %u %u %u\\n", #API, N, TS, (int)REUSE, mx, mn, live, extra); }}
int main() {{
{body}
    uint32_t mx = 0, mn = 0;
    bool ok = AscendC::GetExpMaxMinTmpSize(ge::Shape({{1000}}), 2, false, mx, mn);
    std::printf("Exp %d %u %u\\n", (int)ok, mx, mn);
    std::printf("%u\\n", (unsigned)ge::GRAPH_NULL_PTR);   // GE's status for a null pointer (hicann log_softmax_grad's host)
}}
"""


def test_host_tmp_sizes_of_the_math_apis(tmp_path):
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    body = "\n".join(f"    SHOW({api}, {n}, {ts}, false)" for api in TILED for n in (16, 4096) for ts in (2, 4))
    body += "\n    SHOW(Sin, 4096, 4, true)\n    SHOW(Cos, 100, 2, true)"
    (tmp_path / "host.cpp").write_text(HOST.format(body=body))
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = {}
    assert out.stdout.splitlines()[-1] == "50331538"
    for line in out.stdout.splitlines()[:-2]:
        api, n, ts, reuse, mx, mn, live, extra = line.split()
        rows[api, int(n), int(ts), reuse == "1"] = tuple(map(int, (mx, mn, live, extra)))
    for (api, n, ts, reuse), (mx, mn, live, extra) in rows.items():
        if reuse: continue
        assert extra == 0 and mn <= mx, (api, n, ts)
        if api == "Log2":      # half widens to a float copy; float needs none
            assert (mx, mn, live) == ((max(4 * n, 256), 256, 2) if ts == 2 else (0, 0, 0))
        elif api == "Acosh":   # counted in elements: max(live * n, 256) elements of T
            assert (mn, mx) == (live * 256, max(live * n, 256) * ts), (n, ts)
        else:                  # live buffers of the input's bytes, one 256-byte repeat each at least
            assert (mn, mx) == (live * 256, live * max(n * ts, 256)), (api, n, ts)
    live = {api: (rows[api, 4096, 4, False][2], rows[api, 4096, 2, False][2]) for api in TILED}
    assert live["Asinh"] == (3, 3) and live["Atanh"] == (1, 4) and live["Asin"] == (2, 6) and live["Sign"] == (3, 3)
    assert live["Sin"] == live["Cos"] == (3, 8) and live["Log"] == live["Log10"] == (0, 0) and live["Floor"] == (0, 2)
    assert rows["Sin", 4096, 4, True][:2] == (2 * 4096 * 4, 2 * 256)      # float with isReuseSource: one buffer fewer
    assert rows["Cos", 100, 2, True][:2] == (0, 0) and "not supported for half" in out.stderr
    assert out.stdout.splitlines()[-2] == f"Exp 1 {4 * 1000 * 4} {4 * 256}"   # half: four float buffers


def test_a_kernel_runs_with_the_host_minimum_as_its_tmp_buffer():
    "The host's minimum for Asinh half (3 x 256 bytes) is enough for the emulated API to run."
    src = kernel("half", ["Asinh(d, a, tmp[0], N)"]).replace("pipe.InitBuffer(tbuf, 4096)", "pipe.InitBuffer(tbuf, 768)")
    x = np.linspace(-3, 3, N).astype(np.float16)
    r = run(build({"k.cpp": src}), [GM("x", x), GM("y", np.empty(N, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"].astype(np.float64), np.arcsinh(x.astype(np.float64)), rtol=2e-3, atol=2e-3)


STD = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void stdmm(GM_ADDR y)
{
    GlobalTensor<int64_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int64_t *)y, 8);
    uint32_t tile = 4096; uint64_t total = 10000, offset = 8192;
    static_assert(Std::is_same_v<decltype(Std::min(tile, total - offset)), uint64_t>, "common type");
    constexpr auto k = Std::max(3, 5L);
    static_assert(k == 5, "constexpr");
    yGm.SetValue(0, static_cast<int64_t>(Std::min(tile, total - offset)));
    yGm.SetValue(1, static_cast<int64_t>(Std::max(tile, total - offset)));
    yGm.SetValue(2, static_cast<int64_t>(Std::min(-3, 2)));
    yGm.SetValue(3, static_cast<int64_t>(Std::max(-3.5f, -4.0f) * 2));
}
"""


def test_std_min_and_max():
    "AscendC::Std::min / max (utils/std/algorithm.h): two values of possibly different types, hicann silu_grad's tile sizing."
    r = run(build({"k.cpp": STD}), [GM("y", np.zeros(8, np.int64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert list(r.outputs["y"][:4]) == [min(4096, 1808), max(4096, 1808), -3, -7]


def test_tanh_formula_constants_are_visible_in_namespace_ascendc():
    """FP32_MIN_V2 / FP32_MAX_V2 / DOUBLE_X, the constants of AscendC's Tanh formula, which the official headers leave
    visible to every kernel (cann-ops bidirection_lstm writes the formula with them): 2 * clip(x, -8.8, 8.8), as NumPy."""
    b = build({"k.cpp": kernel("float", ["Mins(d, a, FP32_MAX_V2, N); Maxs(d, d, FP32_MIN_V2, N); Muls(d, d, DOUBLE_X, N)"])})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.linspace(-20, 20, N).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.empty(N, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * np.clip(x, np.float32(-8.8), np.float32(8.8)))
    assert (r.outputs["y"] == 2 * np.float32(8.8)).any() and (r.outputs["y"] == 2 * np.float32(-8.8)).any()
