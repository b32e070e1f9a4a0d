"""Compare / CompareScalar over a count that is not whole 256-byte repeats. Compares.md: the count's elements must fill
whole 256-byte blocks; the elements of an unaligned tail take no part, only the whole blocks count. The emulator
compares the whole repeats, leaves the tail's bits of dst as they were, and warns once per line (`compare-count`);
it used to stop the run, and to read a whole repeat past the tensor (hicann ops-math's experimental asinh compares 304
floats of a 304-float tensor)."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t N = 304;                       // 4 whole repeats of 64 floats and a tail of 48
extern "C" __global__ __aicore__ void cmp_tail(GM_ADDR x, GM_ADDR m)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb;
    pipe.InitBuffer(xb, N * sizeof(float));
    pipe.InitBuffer(mb, 64);
    GlobalTensor<float> xGm;
    GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    mGm.SetGlobalBuffer((__gm__ uint8_t *)m, 64);
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<uint8_t> ml = mb.Get<uint8_t>();
    DataCopy(xl, xGm, N);
    Duplicate(ml.ReinterpretCast<uint16_t>(), (uint16_t)0xABAB, 32);   // what the mask buffer held before
    PipeBarrier<PIPE_V>();
    CompareScalar(ml, xl, 0.0f, CMPMODE::LT, N);
    DataCopy(mGm, ml, 64);
}
'''


def test_a_count_with_a_partial_repeat_compares_the_whole_repeats_only():
    b = build({"cmp_tail.cpp": KERNEL})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(8).uniform(-1, 1, 304).astype(np.float32)
    r = run(b, [GM("x", x), GM("m", np.zeros(64, np.uint8), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    m = r.outputs["m"]
    np.testing.assert_array_equal(m[:32], np.packbits(x[:256] < 0, bitorder="little"))   # 256 elements, 32 bytes
    assert (m[32:] == 0xAB).all()                                                     # the tail's bits untouched
    w = [d for d in r.diagnostics if d.kind == "compare-count"]
    assert len(w) == 1 and w[0].severity == "warning" and "first 256 elements" in w[0].message
    assert "CompareScalar(ml, xl" in w[0].source_line
