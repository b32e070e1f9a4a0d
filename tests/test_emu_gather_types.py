"""Gather's element type is checked when the call runs, not when the kernel compiles: the official A2 Gather checks it
with a debug assertion only, so CANN's compiler builds an instance of any element type, and a kernel template may
instantiate one it never calls (hicann ops-math im2col: its bool kernels, stored as int8_t, instantiate Gather<int8_t>
in a branch of their kernel template). Running such a Gather is the `unsupported` error at the call."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t N = 64;
template <typename T>
__aicore__ inline void Reverse(LocalTensor<T> dst, LocalTensor<T> src, LocalTensor<uint32_t> off, bool gather)
{
    if (gather) {
        for (int32_t i = 0; i < N; ++i) off.SetValue(i, (N - 1 - i) * sizeof(T));
        Gather(dst, src, off, 0, N);
    } else {
        DataCopy(dst, src, N);
    }
}
extern "C" __global__ __aicore__ void reverse(GM_ADDR x, GM_ADDR y, GM_ADDR b, GM_ADDR c, uint32_t byteGather)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, bb, cb, ob;
    pipe.InitBuffer(xb, N * sizeof(half)); pipe.InitBuffer(yb, N * sizeof(half));
    pipe.InitBuffer(bb, N); pipe.InitBuffer(cb, N); pipe.InitBuffer(ob, N * sizeof(uint32_t));
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<int8_t> bGm, cGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N); yGm.SetGlobalBuffer((__gm__ half *)y, N);
    bGm.SetGlobalBuffer((__gm__ int8_t *)b, N); cGm.SetGlobalBuffer((__gm__ int8_t *)c, N);
    LocalTensor<half> xl = xb.Get<half>(), yl = yb.Get<half>();
    LocalTensor<int8_t> bl = bb.Get<int8_t>(), cl = cb.Get<int8_t>();
    LocalTensor<uint32_t> off = ob.Get<uint32_t>();
    DataCopy(xl, xGm, N);
    DataCopy(bl, bGm, N);
    PipeBarrier<PIPE_ALL>();
    Reverse(yl, xl, off, true);
    Reverse(cl, bl, off, byteGather != 0);   // Gather<int8_t> is compiled; called only when byteGather is set
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, N);
    DataCopy(cGm, cl, N);
}
'''


def _run(byte_gather: int):
    b = build({"reverse.cpp": KERNEL})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(64, dtype=np.float16)
    bytes_ = np.arange(64, dtype=np.int8)
    return x, bytes_, run(b, [GM("x", x), GM("y", np.zeros(64, np.float16), "out"), GM("b", bytes_),
                              GM("c", np.zeros(64, np.int8), "out"), np.uint32(byte_gather)], block_dim=1)


def test_a_gather_instance_of_an_unsupported_type_compiles_and_the_kernel_runs_without_calling_it():
    x, bytes_, r = _run(0)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], x[::-1])
    np.testing.assert_array_equal(r.outputs["c"], bytes_)


def test_calling_it_is_the_unsupported_error_at_the_call():
    _, _, r = _run(1)
    assert not r.ok
    err = [d for d in r.diagnostics if d.severity == "error"]
    assert err and err[0].kind == "unsupported", [str(d) for d in r.diagnostics]
    assert "Gather" in err[0].message and "Gather(dst, src, off, 0, N)" in err[0].source_line
