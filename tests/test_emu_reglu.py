"""ReGlu (lib/activation/reglu.h) against NumPy: dst = src0 * max(0, src1), in half, bfloat16_t and float (the types
the API reference lists for A2), with a sharedTmpBuffer for part of the tensor and the framework's for the rest; the
documented rule that dst may not overlap a source; and a type outside the three does not compile."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/activation/reglu.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t N = 256, PART = 96;
extern "C" __global__ __aicore__ void reglu(GM_ADDR a, GM_ADDR b, GM_ADDR r)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    GlobalTensor<T> ag, bg, rg;
    ag.SetGlobalBuffer((__gm__ T *)a, N);
    bg.SetGlobalBuffer((__gm__ T *)b, N);
    rg.SetGlobalBuffer((__gm__ T *)r, N);
    LocalTensor<T> x = buf.GetWithOffset<T>(N, 0);
    LocalTensor<T> y = buf.GetWithOffset<T>(N, 2048);
    LocalTensor<T> z = buf.GetWithOffset<T>(N, 4096);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(2048, 8192);
    DataCopy(x, ag, N);
    DataCopy(y, bg, N);
    PipeBarrier<PIPE_ALL>();
    ReGlu<T, false>(DST, x, y, tmp, PART);             // the first PART elements with a buffer, then the framework's
    LocalTensor<T> x2 = x[PART], y2 = y[PART], z2 = z[PART];
    ReGlu(z2, x2, y2, N - PART);
    PipeBarrier<PIPE_ALL>();
    DataCopy(rg, z, N);
}
'''

def _bf16(a):   # float32 -> bfloat16 bits (round to nearest even), and back
    u = a.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def _run(ctype, dst="z"):
    b = build({"reglu.cpp": KERNEL.replace("CTYPE", ctype).replace("DST", dst)})
    return b


@pytest.mark.parametrize("ctype", ["float", "half", "bfloat16_t"])
def test_reglu_is_the_first_source_times_the_relu_of_the_second(ctype):
    rng = np.random.default_rng(3)
    a = rng.uniform(-4, 4, 256).astype(np.float32)
    g = rng.uniform(-4, 4, 256).astype(np.float32)
    b = _run(ctype)
    assert b.ok, b.log[-2000:]
    if ctype == "bfloat16_t":
        ab, gb = _bf16(a), _bf16(g)
        r = run(b, [GM("a", ab), GM("b", gb), GM("r", np.empty(256, np.uint16), "out")], block_dim=1)
        assert r.ok, "\n".join(map(str, r.diagnostics))
        af, gf = (np.left_shift(v.astype(np.uint32), 16).view(np.float32) for v in (ab, gb))
        got = np.left_shift(r.outputs["r"].astype(np.uint32), 16).view(np.float32)
        np.testing.assert_array_equal(got, np.left_shift(_bf16(af * np.maximum(gf, 0)).astype(np.uint32), 16).view(np.float32))
        return
    dt = np.float16 if ctype == "half" else np.float32
    a, g = a.astype(dt), g.astype(dt)
    r = run(b, [GM("a", a), GM("b", g), GM("r", np.empty(256, dt), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = (a.astype(np.float64) * np.maximum(g.astype(np.float64), 0)).astype(dt)
    np.testing.assert_array_equal(r.outputs["r"], want)
    assert (want < 0).any() and (want == 0).any()   # signed inputs: both sides of the ReLU count


def test_reglu_into_its_own_source_is_an_error():
    b = _run("float", dst="x")
    assert b.ok, b.log[-2000:]
    x = np.ones(256, np.float32)
    r = run(b, [GM("a", x), GM("b", x), GM("r", np.empty(256, np.float32), "out")], block_dim=1)
    assert not r.ok and any("overlap" in d.message.lower() for d in r.errors), "\n".join(map(str, r.diagnostics))


def test_reglu_of_int32_does_not_compile():
    b = _run("int32_t")
    assert not b.ok and "ReGlu on Ascend 910B (A2) supports half, bfloat16_t and float only" in b.log
