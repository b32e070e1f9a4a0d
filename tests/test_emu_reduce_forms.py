"""ReduceSum's count form with the isSetMask template argument, as AscendC declares it (public kernels: the cannbot
agent's hardware-passed layernorm / softmax); ReduceMax / ReduceMin's count forms have no such argument (the official
headers reject it: tests/api_probes). Checked against NumPy."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rsum(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 1000);
    yg.SetGlobalBuffer((__gm__ float *)y, 16);
    LocalTensor<float> a = buf.GetWithOffset<float>(1024, 0);
    LocalTensor<float> d = buf.GetWithOffset<float>(16, 4096);
    LocalTensor<float> tmp = buf.GetWithOffset<float>(1024, 8192);
    DataCopy(a, xg, 1000);
    PipeBarrier<PIPE_ALL>();
    ReduceSum<float, true>(d, a, tmp, 1000);
    ReduceMax<float>(d[8], a, tmp, 1000, false);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d, 16);
}
'''


def test_reduce_sum_count_form_with_is_set_mask(tmp_path):
    (tmp_path / "rsum.cpp").write_text(KERNEL)
    b = build(tmp_path / "rsum.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(3).standard_normal(1000).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"][0], x.astype(np.float64).sum(), rtol=1e-5, atol=1e-4)
    assert r.outputs["y"][8] == x.max()
