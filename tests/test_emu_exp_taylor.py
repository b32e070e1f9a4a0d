"""The advanced Exp<T, taylorExpandLevel, isReuseSource> (public kernel: NPUKernelBench
SelectReduceMaxDSubExpReduceSumDRealDiv): e^floor(x) times a Taylor series of the fraction, in float. With many terms it
is e^x to float precision; with few, it carries the truncation error the documented algorithm has."""
import math

import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void expt(GM_ADDR x, GM_ADDR xh, GM_ADDR y, GM_ADDR yh)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * 1024);
    GlobalTensor<float> xg, yg; GlobalTensor<half> xhg, yhg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    xhg.SetGlobalBuffer((__gm__ half *)xh, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 128);
    yhg.SetGlobalBuffer((__gm__ half *)yh, 64);
    LocalTensor<float> a = buf.GetWithOffset<float>(64, 0), d15 = buf.GetWithOffset<float>(64, 256), d3 = buf.GetWithOffset<float>(64, 512);
    LocalTensor<half> h = buf.GetWithOffset<half>(64, 1024), hd = buf.GetWithOffset<half>(64, 1280);
    DataCopy(a, xg, 64);
    DataCopy(h, xhg, 64);
    PipeBarrier<PIPE_ALL>();
    Exp<float, 15, false>(d15, a, 64);
    Exp<float, 3>(d3, a, 64);
    Exp<half, 15, false>(hd, h, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d15, 64);
    DataCopy(yg[64], d3, 64);
    DataCopy(yhg, hd, 64);
}
'''


def test_taylor_exp_against_numpy(tmp_path):
    src = tmp_path / "expt.cpp"
    src.write_text(KERNEL)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(4)
    x = rng.uniform(-6, 6, 64).astype(np.float32)
    xh = rng.uniform(-4, 4, 64).astype(np.float16)
    r = run(b, [GM("x", x), GM("xh", xh), GM("y", np.zeros(128, np.float32), "out"), GM("yh", np.zeros(64, np.float16), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_allclose(y[:64], np.exp(x.astype(np.float64)), rtol=3e-6)
    # three terms: e^floor(x) * (1 + c + c^2/2 + c^3/6), short of e^c by up to e - 8/3 for c near 1
    c = x - np.floor(x)
    want3 = np.exp(np.floor(x).astype(np.float64)) * (1 + c + c ** 2 / 2 + c ** 3 / 6)
    np.testing.assert_allclose(y[64:], want3, rtol=3e-6)
    assert np.max(np.abs(y[64:] / np.exp(x.astype(np.float64)) - 1)) > 1e-3   # the truncation shows
    np.testing.assert_allclose(r.outputs["yh"].astype(np.float64), np.exp(xh.astype(np.float64)), rtol=1e-3)
