"""A half Sigmoid as A2 computes it: the devkit's Sigmoid is four vector instructions in T (Muls by -1, Exp, Adds 1, a
Div of ones by the sum), each result rounded to half, not one float computation rounded once (cann-ops mul_sigmoid's
float16 golden, NumPy's float16 steps, differed from the emulator's output by an ulp in a quarter of the elements).
A kernel of our own."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void sig_half(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 2 * 512 * sizeof(half));
    pipe.InitBuffer(tmp, 8192);
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half *)x, 512);
    yg.SetGlobalBuffer((__gm__ half *)y, 512);
    LocalTensor<half> a = buf.Get<half>(), s = a[512];
    DataCopy(a, xg, 512);
    PipeBarrier<PIPE_ALL>();
    Sigmoid<half, false>(s, a, tmp.Get<uint8_t>(), 512);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, s, 512);
}
'''


def test_a_half_sigmoid_is_rounded_to_half_after_each_step():
    h = np.float16
    x = np.random.default_rng(7).uniform(-4, 4, 512).astype(h)
    r = run(build({"sig_half.cpp": KERNEL}), [GM("x", x), GM("y", np.zeros(512, h), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    steps = (h(1) / ((np.exp(-x)).astype(h) + h(1)).astype(h)).astype(h)      # Muls(-1), Exp, Adds(1), Div
    once = (1 / (1 + np.exp(-x.astype(np.float32)))).astype(h)
    assert (steps != once).sum() > 50          # the two readings differ here: the test tells them apart
    np.testing.assert_array_equal(r.outputs["y"], steps)
