"""Transpose with TransposeParamsExt ([N, C, H, W] <-> [N, H, W, C] through a sharedTmpBuffer) checked against NumPy,
with its A2 rules (only the two 4-D types; H * W a whole number of 32-byte blocks); and the raw-address dumps of
utils/debug/asc_dump.h (asc_dump_gm / asc_dump_ubuf print the elements with their tag)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void tr4d(GM_ADDR x, GM_ADDR y)
{
    using T = %(T)s;
    constexpr uint32_t S = %(S)d;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, tb;
    pipe.InitBuffer(ab, S * sizeof(T));
    pipe.InitBuffer(bb, S * sizeof(T));
    pipe.InitBuffer(tb, 8192);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x); yGm.SetGlobalBuffer((__gm__ T *)y);
    LocalTensor<T> a = ab.Get<T>(), b = bb.Get<T>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(a, xGm, S);
    PipeBarrier<PIPE_ALL>();
    TransposeParamsExt p;
    p.nSize = %(N)d; p.cSize = %(C)d; p.hSize = %(H)d; p.wSize = %(W)d;
    p.transposeType = TransposeType::%(TYPE)s;
    Transpose(b, a, tmp, p);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, b, S);
}
"""


@pytest.mark.parametrize("T,dtype", [("half", np.float16), ("float", np.float32), ("int8_t", np.int8)])
@pytest.mark.parametrize("to_nhwc", [True, False], ids=["nchw2nhwc", "nhwc2nchw"])
def test_transpose_4d_matches_numpy(T, dtype, to_nhwc):
    n, c, h, w = 2, 3, 4, 8 if dtype != np.int8 else 8
    s = n * c * h * w
    x = (np.arange(s) % 127).astype(dtype)
    code = KERNEL % dict(T=T, S=s, N=n, C=c, H=h, W=w, TYPE="TRANSPOSE_NCHW2NHWC" if to_nhwc else "TRANSPOSE_NHWC2NCHW")
    b = build({"k.cpp": code})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(s, dtype), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = x.reshape(n, c, h, w).transpose(0, 2, 3, 1) if to_nhwc else x.reshape(n, h, w, c).transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(r.outputs["y"], want.ravel())


def test_transpose_4d_rules():
    code = KERNEL % dict(T="half", S=64, N=2, C=3, H=3, W=3, TYPE="TRANSPOSE_NCHW2NHWC")
    b = build({"k.cpp": code})
    assert b.ok
    r = run(b, [GM("x", np.zeros(64, np.float16)), GM("y", np.zeros(64, np.float16), "out")], block_dim=1)
    assert not r.ok and any(d.kind == "transpose-shape" for d in r.diagnostics)
    code = KERNEL % dict(T="half", S=64, N=1, C=1, H=4, W=16, TYPE="TRANSPOSE_ND2ND_ONLY")
    r = run(build({"k.cpp": code}), [GM("x", np.zeros(64, np.float16)), GM("y", np.zeros(64, np.float16), "out")], block_dim=1)
    assert not r.ok and any(d.kind == "unsupported" for d in r.diagnostics)


def test_asc_dump_prints_elements(capfd):
    code = """#include "kernel_operator.h"
#include "utils/debug/asc_dump.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void dumps(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab;
    pipe.InitBuffer(ab, 64 * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    LocalTensor<float> a = ab.Get<float>();
    asc_dump_gm<float>((__gm__ float *)xGm.GetPhyAddr(), 7, 4);
    DataCopy(a, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    asc_dump_ubuf<float>((__ubuf__ float *)a.GetPhyAddr(8), 9, 3);
}
"""
    b = build({"k.cpp": code})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", np.arange(64, dtype=np.float32) * 0.5)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    out = r.stdout if hasattr(r, "stdout") else capfd.readouterr().out
    assert "desc=7, block=0, GM, float[4]: 0 0.5 1 1.5" in out
    assert "desc=9, block=0, UB, float[3]: 4 4.5 5" in out
