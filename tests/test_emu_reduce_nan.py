"""A NaN in a max / min reduction is its result: the first NaN, value and index. The register-form Reduce and
ReduceDataBlock pages and asc_reduce_max / asc_reduce_min say so; the A2 ReduceMax / ReduceMin pages say nothing of
NaN, but hicann ops-nn's A2 ForeachNonFiniteCheckAndUnscale finds a NaN only through them (ReduceMax, then ReduceMin,
then IsNonFinite of the value: foreach_non_finite_check_and_unscale_n_d.h), and its document (A2 supported) sets
foundInf for any NaN. The emulator skipped a NaN unless it came first, so that op missed NaN gradients (the
thirty-second round's foreach run: 3 of 483 cases)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void nan_reduce(GM_ADDR x, GM_ADDR y)
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
    ReduceMax<float>(d, a, tmp, 1000, true);       // value and index
    ReduceMin<float>(d[8], a, tmp, 1000, true);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d, 16);
}
'''


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    path = tmp_path_factory.mktemp("nan") / "nan_reduce.cpp"
    path.write_text(KERNEL)
    b = build(path)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


@pytest.mark.parametrize("nans", [[0], [3], [517, 900], [999]])
def test_a_nan_anywhere_is_the_result_with_the_first_nans_index(kernel, nans):
    x = np.random.default_rng(5).standard_normal(1000).astype(np.float32)
    x[nans] = np.nan
    r = run(kernel, [GM("x", x), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    assert np.isnan(y[0]) and np.isnan(y[8]), y
    assert y[1:2].view(np.uint32)[0] == nans[0] and y[9:10].view(np.uint32)[0] == nans[0]


def test_without_a_nan_the_extremes_and_their_first_indices(kernel):
    x = np.random.default_rng(6).standard_normal(1000).astype(np.float32)
    x[[10, 20]] = 9.0        # a tie: the first index
    x[[30, 40]] = -9.0
    r = run(kernel, [GM("x", x), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    assert (y[0], y[8]) == (9.0, -9.0)
    assert (y[1:2].view(np.uint32)[0], y[9:10].view(np.uint32)[0]) == (10, 30)
