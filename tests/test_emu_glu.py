"""SwiGLU and GeGLU (lib/activation) against NumPy: dst = src0 * swish(src1; beta) and dst = src0 * gelu(src1) (GELU in
its tanh form), half and float, with and without a sharedTmpBuffer and with a calCount shorter than the tensors; the
documented rules: the sources may not overlap dst, half needs a temporary buffer of at least the host minimum
(GetSwiGLUMaxMinTmpSize / GetGeGLUMaxMinTmpSize), only half and float compile."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/activation/swiglu.h"
#include "lib/activation/geglu.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t N = 256, PART = 96;
extern "C" __global__ __aicore__ void glu(GM_ADDR a, GM_ADDR b, GM_ADDR s, GM_ADDR g)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<T> ag, bg, sg, gg;
    ag.SetGlobalBuffer((__gm__ T *)a, N);
    bg.SetGlobalBuffer((__gm__ T *)b, N);
    sg.SetGlobalBuffer((__gm__ T *)s, N);
    gg.SetGlobalBuffer((__gm__ T *)g, N);
    LocalTensor<T> x = buf.GetWithOffset<T>(N, 0);
    LocalTensor<T> y = buf.GetWithOffset<T>(N, 4096);
    LocalTensor<T> sw = buf.GetWithOffset<T>(N, 8192);
    LocalTensor<T> ge = buf.GetWithOffset<T>(N, 12288);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(TMPBYTES, 16384);
    DataCopy(x, ag, N);
    DataCopy(y, bg, N);
    Duplicate(sw, (T)0, N);
    Duplicate(ge, (T)0, N);
    PipeBarrier<PIPE_ALL>();
    float beta = 1.5f;
    SwiGLU<T, false>(sw, x, y, beta, tmp, PART);       // the first PART elements, then the rest by the framework's
    LocalTensor<T> x2 = x[PART], y2 = y[PART], sw2 = sw[PART];
    SwiGLU(sw2, x2, y2, beta, N - PART);
    GeGLU<T, false>(ge, x, y, tmp);
    PipeBarrier<PIPE_ALL>();
    DataCopy(sg, sw, N);
    DataCopy(gg, ge, N);
}
'''
N = 256


def _build(tmp_path, ctype, tmp_bytes=8192):
    src = tmp_path / "glu.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("TMPBYTES", str(tmp_bytes)))
    return build(src)


def swiglu(a, b, beta):
    return a * b / (1 + np.exp(-beta * b))


def geglu(a, b):
    return a * 0.5 * b * (1 + np.tanh(np.sqrt(2 / np.pi) * (b + 0.044715 * b ** 3)))


@pytest.mark.parametrize("ctype, dtype, tol", [("float", np.float32, 2e-6), ("half", np.float16, 2e-3)])
def test_swiglu_geglu_against_numpy(tmp_path, ctype, dtype, tol):
    b = _build(tmp_path, ctype)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(13)
    a_in = (rng.standard_normal(N) * 2).astype(dtype)
    b_in = (rng.standard_normal(N) * 2).astype(dtype)
    r = run(b, [GM("a", a_in), GM("b", b_in), GM("s", np.zeros(N, dtype), "out"), GM("g", np.zeros(N, dtype), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    a64, b64 = a_in.astype(np.float64), b_in.astype(np.float64)
    np.testing.assert_allclose(r.outputs["s"].astype(np.float64), swiglu(a64, b64, 1.5), rtol=tol, atol=tol)
    np.testing.assert_allclose(r.outputs["g"].astype(np.float64), geglu(a64, b64), rtol=tol, atol=tol)


def test_half_with_a_too_small_tmp_buffer_stops(tmp_path):
    b = _build(tmp_path, "half", 512)        # the host minimum for half SwiGLU is 6 * 256 bytes
    assert b.ok, "\n".join(map(str, b.diagnostics))
    z = np.zeros(N, np.float16)
    r = run(b, [GM("a", z), GM("b", z), GM("s", z, "out"), GM("g", z, "out")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "adv-tmp-space" and "512 bytes" in d.message and "GetSwiGLUMaxMinTmpSize" in d.hint, d.render()


def test_float_needs_no_tmp_buffer(tmp_path):
    b = _build(tmp_path, "float", 0)         # float: the host minimum is 0 bytes, an empty buffer is fine
    assert b.ok
    a_in = np.linspace(-3, 3, N, dtype=np.float32)
    r = run(b, [GM("a", a_in), GM("b", a_in), GM("s", np.zeros(N, np.float32), "out"),
                GM("g", np.zeros(N, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["s"], swiglu(a_in.astype(np.float64), a_in.astype(np.float64), 1.5), rtol=2e-6, atol=2e-6)


def test_overlap_and_types(tmp_path):
    src = tmp_path / "bad.cpp"
    src.write_text(KERNEL.replace("CTYPE", "float").replace("TMPBYTES", "0").replace(
        "SwiGLU(sw2, x2, y2, beta, N - PART);", "SwiGLU(x2, x2, y2, beta, N - PART);"))
    b = build(src)
    assert b.ok
    z = np.zeros(N, np.float32)
    r = run(b, [GM("a", z), GM("b", z), GM("s", z, "out"), GM("g", z, "out")], block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "adv-overlap", r.diagnostics[0].render()
    src.write_text(KERNEL.replace("CTYPE", "int32_t").replace("TMPBYTES", "0"))
    bad = build(src)
    assert not bad.ok and any("SwiGLU" in str(d) and "half and float" in str(d) for d in bad.diagnostics)


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    ge::Shape shape({1024});
    uint32_t smax, smin, gmax, gmin, hmax, hmin, live, extra;
    AscendC::GetSwiGLUMaxMinTmpSize(shape, 2, smax, smin, false);
    AscendC::GetGeGLUMaxMinTmpSize(shape, 2, false, gmax, gmin);
    AscendC::GetSwiGLUMaxMinTmpSize(shape, 4, hmax, hmin, false);
    AscendC::GetGeGLUTmpBufferFactorSize(2, live, extra);
    std::printf("%u %u %u %u %u %u %u %u\n", smax, smin, gmax, gmin, hmax, hmin, live, extra);
}
'''


def test_host_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    got = list(map(int, subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()))
    assert got == [6 * 2048, 6 * 256, 4 * 2048, 4 * 256, 0, 0, 4, 0]


def test_swiglu_with_a_calcount_takes_two_halves_of_one_buffer(tmp_path):
    # hicann ops-transformer grouped_matmul_swiglu_quant: SwiGLU(dst, c[len / 2], c, beta, len / 2), the gate and the
    # value halves of one row, so the two sources hold different numbers of elements to the buffer's end. With a
    # calCount the API checks the count against each operand (not their sizes against each other); without one the
    # sources must be the same size, as before.
    src = tmp_path / "halves.cpp"
    src.write_text(r'''#include "kernel_operator.h"
#include "lib/activation/swiglu.h"
using namespace AscendC;
constexpr uint32_t H = 64;
extern "C" __global__ __aicore__ void halves(GM_ADDR c, GM_ADDR s)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, out;
    pipe.InitBuffer(buf, 2 * H * sizeof(float));
    pipe.InitBuffer(out, H * sizeof(float));
    GlobalTensor<float> cg, sg;
    cg.SetGlobalBuffer((__gm__ float *)c, 2 * H);
    sg.SetGlobalBuffer((__gm__ float *)s, H);
    LocalTensor<float> row = buf.Get<float>(), dst = out.Get<float>();
    DataCopy(row, cg, 2 * H);
    PipeBarrier<PIPE_ALL>();
    SwiGLU<float, false>(dst, row[H], row, 1.0f, H);   // dst = second half * swish(first half)
    PipeBarrier<PIPE_ALL>();
    DataCopy(sg, dst, H);
}
''')
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(5)
    c = rng.standard_normal(128).astype(np.float32)
    r = run(b, [GM("c", c), GM("s", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    c64 = c.astype(np.float64)
    np.testing.assert_allclose(r.outputs["s"], swiglu(c64[64:], c64[:64], 1.0), rtol=2e-6, atol=2e-6)
    # without a calCount the sizes must agree: the same call with the whole buffer's halves of unequal length stops
    src.write_text(src.read_text().replace("SwiGLU<float, false>(dst, row[H], row, 1.0f, H);",
                                           "SwiGLU<float, false>(dst, row[H], row, 1.0f);"))
    b = build(src)
    r = run(b, [GM("c", c), GM("s", np.zeros(64, np.float32), "out")], block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "adv-size", r.diagnostics[0].render()
