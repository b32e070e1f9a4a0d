"""Fmod and Xor (lib/math binary APIs), the sharedTmpBuffer forms of Power without a count, and Axpy's advanced
form (lib/math, dst float and src half), each checked against NumPy; their A2 dtype rules; and the host-side
temporary sizes (GetFmod / GetXor / GetPower / GetAxpy MaxMinTmpSize) as the public API reference defines them."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

N = 256

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void binary_math(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{{
    using T = {T};
    constexpr int32_t N = {N};
    constexpr int32_t K = {K};
    TPipe pipe;
    TBuf<TPosition::VECCALC> abuf, bbuf, obuf, tbuf;
    pipe.InitBuffer(abuf, N * sizeof(T));
    pipe.InitBuffer(bbuf, N * sizeof(T));
    pipe.InitBuffer(obuf, K * N * sizeof(T));
    pipe.InitBuffer(tbuf, 8192);
    GlobalTensor<T> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, N);
    zGm.SetGlobalBuffer((__gm__ T *)z, K * N);
    LocalTensor<T> a = abuf.Get<T>(), b = bbuf.Get<T>(), out = obuf.Get<T>();
    LocalTensor<uint8_t> tmp = tbuf.Get<uint8_t>();
    DataCopy(a, xGm, N);
    DataCopy(b, yGm, N);
{calls}
    DataCopy(zGm, out, K * N);
}}
"""


def kernel(T, calls):
    body = "\n".join(f"    {{ LocalTensor<T> d = out[{k} * N]; {c}; }}" for k, c in enumerate(calls))
    return KERNEL.format(T=T, N=N, K=len(calls), calls=body)


def run_calls(T, calls, x, y):
    b = build({"k.cpp": kernel(T, calls)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", y), GM("z", np.zeros(len(calls) * N, x.dtype), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    return r.outputs["z"].reshape(len(calls), N)


def fmod_a2(x, y):
    "A2's Fmod: Div, Trunc, Mul, Sub, each step rounded to float (half widened to float first)."
    x, y = x.astype(np.float32), y.astype(np.float32)
    with np.errstate(all="ignore"):
        return (x - np.trunc(x / y) * y).astype(np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["float", "half"])
def test_fmod_matches_numpy(dtype):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(N) * 20).astype(dtype)
    y = (rng.uniform(0.5, 4, N) * rng.choice([-1, 1], N)).astype(dtype)
    x[:4] = [7, -7, 7, -7]
    y[:4] = [2, 2, -2, -2]
    calls = ["Fmod(d, a, b, tmp, N)", "Fmod(d, a, b, tmp)", "Fmod(d, a, b, N)", "Fmod<T, false>(d, a, b)",
             "Fmod(d, a, b, 100)"]
    z = run_calls("float" if dtype == np.float32 else "half", calls, x, y)
    want = fmod_a2(x, y).astype(dtype)
    for k in range(4):
        np.testing.assert_array_equal(z[k], want)
    np.testing.assert_array_equal(z[4][:100], want[:100])
    assert list(z[0][:4]) == [1, -1, 1, -1]                      # the sign follows the dividend, as C's fmod
    # for these magnitudes the float steps give C's exact remainder
    np.testing.assert_allclose(z[0].astype(np.float64), np.fmod(x.astype(np.float64), y.astype(np.float64)),
                               atol=1e-4 if dtype == np.float32 else 2e-2)


@pytest.mark.parametrize("T,dtype", [("int16_t", np.int16), ("uint16_t", np.uint16)])
def test_xor_is_bitwise(T, dtype):
    rng = np.random.default_rng(5)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, N, endpoint=True).astype(dtype)
    y = rng.integers(info.min, info.max, N, endpoint=True).astype(dtype)
    z = run_calls(T, ["Xor(d, a, b, tmp, N)", "Xor(d, a, b, N)", "Xor<T, false>(d, a, b)", "Xor(d, a, b, tmp)"], x, y)
    for k in range(4):
        np.testing.assert_array_equal(z[k], x ^ y)


def test_power_with_tmp_and_no_count():
    rng = np.random.default_rng(7)
    x = rng.uniform(0.5, 3, N).astype(np.float32)
    y = rng.uniform(-2, 2, N).astype(np.float32)
    calls = ["Power<T, false>(d, a, b, tmp)", "Power<T, false>(d, a, (T)1.5f, tmp)", "Power<T, false>(d, (T)2.0f, b, tmp)"]
    z = run_calls("float", calls, x, y)
    np.testing.assert_allclose(z[0], x.astype(np.float64) ** y, rtol=1e-6)
    np.testing.assert_allclose(z[1], x.astype(np.float64) ** 1.5, rtol=1e-6)
    np.testing.assert_allclose(z[2], 2.0 ** y.astype(np.float64), rtol=1e-6)


def test_axpy_advanced_half_into_float():
    src = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hb, fb, tb;
    pipe.InitBuffer(hb, 512 * sizeof(half));
    pipe.InitBuffer(fb, 512 * sizeof(float));
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<half> xGm; GlobalTensor<float> yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 512);
    yGm.SetGlobalBuffer((__gm__ float *)y, 512);
    zGm.SetGlobalBuffer((__gm__ float *)z, 512);
    LocalTensor<half> s = hb.Get<half>();
    LocalTensor<float> d = fb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(s, xGm, 512);
    DataCopy(d, yGm, 512);
    Axpy(d, s, static_cast<half>(2.5), tmp, 300);
    DataCopy(zGm, d, 512);
}
"""
    rng = np.random.default_rng(9)
    x = rng.standard_normal(512).astype(np.float16)
    y = rng.standard_normal(512).astype(np.float32)
    b = build({"k.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", y), GM("z", np.zeros(512, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = y.copy()
    want[:300] = y[:300] + x[:300].astype(np.float32) * np.float32(2.5)
    np.testing.assert_array_equal(r.outputs["z"], want)


@pytest.mark.parametrize("call,says", [
    ("Fmod(d, a, b, N)", "Fmod on Ascend 910B (A2) supports half and float only"),
    ("Xor(d, a, b, N)", "Xor on Ascend 910B (A2) supports int16_t and uint16_t only"),
])
def test_dtype_rules_are_compile_errors(call, says):
    T = "int32_t"
    b = build({"k.cpp": kernel(T, [call])})
    assert not b.ok and says in "\n".join(d.render() for d in b.errors)


HOST = """#include <cstdio>
#include "tiling/tiling_api.h"
int main() {{
    uint32_t mx = 0, mn = 0, n = 0, e = 0;
    ge::Shape s{{{{1024}}}}, one{{{{1}}}};
{body}
    return 0;
}}
"""


def test_host_tmp_sizes():
    body = """
    AscendC::GetFmodMaxMinTmpSize(s, 4, false, mx, mn); std::printf("fmod4 %u %u\\n", mx, mn);
    AscendC::GetFmodMaxMinTmpSize(s, 2, false, mx, mn); std::printf("fmod2 %u %u\\n", mx, mn);
    AscendC::GetXorMaxMinTmpSize(s, 2, false, mx, mn); std::printf("xor %u %u\\n", mx, mn);
    AscendC::GetAxpyMaxMinTmpSize(s, 2, false, mx, mn); std::printf("axpy2 %u %u\\n", mx, mn);
    AscendC::GetAxpyMaxMinTmpSize(s, 4, false, mx, mn); std::printf("axpy4 %u %u\\n", mx, mn);
    AscendC::GetPowerMaxMinTmpSize(s, s, false, 4, false, mx, mn); std::printf("powtt4 %u %u\\n", mx, mn);
    AscendC::GetPowerMaxMinTmpSize(s, one, false, 4, false, mx, mn); std::printf("powts4 %u %u\\n", mx, mn);
    AscendC::GetPowerMaxMinTmpSize(one, s, false, 2, false, mx, mn); std::printf("powst2 %u %u\\n", mx, mn);
    AscendC::GetPowerMaxMinTmpSize(s, s, true, 4, false, mx, mn); std::printf("powtti %u %u\\n", mx, mn);
    AscendC::GetPowerTmpBufferFactorSize(true, false, false, 4, n, e); std::printf("powf %u %u\\n", n, e);
    AscendC::GetFmodTmpBufferFactorSize(2, n, e); std::printf("fmodf %u %u\\n", n, e);
"""
    import subprocess
    import tempfile
    from pathlib import Path

    from ascendcraft.emu import INCLUDE_DIR
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "h.cpp").write_text(HOST.format(body=body))
        subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "-o", f"{d}/h", f"{d}/h.cpp"], check=True)
        out = subprocess.run([f"{d}/h"], capture_output=True, text=True, check=True).stdout
    got = {k: tuple(map(int, v)) for k, *v in (line.split() for line in out.splitlines())}
    assert got["fmod4"] == (1 * 4096, 256)                 # Trunc's one float buffer
    assert got["fmod2"] == (8 * 2048, 8 * 256)             # Trunc's two plus six halves' worth of float operands
    assert got["xor"] == (2048, 256)
    assert got["axpy2"] == (4 * 2048, 4 * 256) and got["axpy4"] == (0, 0)
    assert got["powtt4"] == (4 * 4096 + 256, 4 * 256 + 256)
    assert got["powts4"] == (5 * 4096 + 256, 5 * 256 + 256)
    assert got["powst2"] == (14 * 2048 + 256, 14 * 128 + 256)
    assert got["powtti"] == (6 * 4096, 6 * 256)
    assert got["powf"] == (5, 256) and got["fmodf"] == (8, 0)
