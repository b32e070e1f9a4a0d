"""InitBuffer with a length of 0 (public kernels: NPUKernelBench CrossEntropyLossGrad, AddSigmoidMulReduceSumD, whose
tiling turns a branch's buffer off). CANN checks len > 0 only in its CPU-debug build; on the NPU the buffer is empty.
So the emulator warns once and runs on; using the empty buffer stops with an out-of-range error at that use."""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void empty(GM_ADDR x, GM_ADDR y, int32_t unusedLen, int32_t useIt)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> off;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(off, unusedLen);                  // 0: this branch is off
    pipe.InitBuffer(q, 1, 256 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    DataCopy(a, xg, 256);
    q.EnQue(a);
    a = q.DeQue<float>();
    if (useIt) {
        LocalTensor<float> t = off.Get<float>();
        Duplicate(t, 1.0f, 64);
    }
    DataCopy(yg, a, 256);
    q.FreeTensor(a);
}
'''


def test_zero_length_init_buffer_warns_and_runs_until_used(tmp_path):
    (tmp_path / "empty.cpp").write_text(KERNEL)
    b = build(tmp_path / "empty.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(256, dtype=np.float32)
    args = lambda use: [GM("x", x), GM("y", np.zeros(256, np.float32), "out"), Scalar(0, "int32_t"), Scalar(use, "int32_t")]
    r = run(b, args(0), block_dim=2)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x)
    warn = [d for d in r.diagnostics if d.kind == "ub-empty-buffer"]
    assert len(warn) == 1 and warn[0].line == 8 and warn[0].severity == "warning", [d.render() for d in r.diagnostics]
    r = run(b, args(1), block_dim=1)
    assert not r.ok
    err = [d for d in r.diagnostics if d.severity == "error"][0]
    assert err.kind == "ub-out-of-range" and err.line == 19 and "0 bytes" in err.message, err.render()
