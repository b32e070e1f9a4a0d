"""DataCopy with SliceInfo (GM -> UB and UB -> GM copies of a strided slice of a multi-dimensional tensor), checked
against a NumPy model of the documented indexing: per dimension, the slices start at startIndex and step by
1 + stride up to endIndex; the innermost dimension is copied in bursts of burstLen 32-byte blocks with `stride`
elements between them; shapeValue gives each dimension's extent."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void slice_copy(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, -1.0f, 1024);
    SliceInfo src[] = {%(src)s};
    SliceInfo ub[] = {%(ub)s};
    SliceInfo out[] = {%(out)s};
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, xGm, ub, src, %(dims)d);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, out, ub, %(dims)d);
}
"""


def slice_index(info, extents):
    "Flat element indices of a slice, innermost dimension first in `info` (startIndex, endIndex, stride, burstLen)."
    per_dim = []
    for d, (start, end, stride, burst, _) in enumerate(info):
        if d == 0:
            one = burst * 8 + stride                                   # float: 8 elements a block
            count = (end - start + 1 + stride) // one
            per_dim.append(np.concatenate([start + k * one + np.arange(burst * 8) for k in range(count)]))
        else:
            per_dim.append(np.arange(start, end + 1, 1 + stride))
    strides = np.cumprod([1] + list(extents[:-1]))
    grids = np.meshgrid(*per_dim, indexing="ij")
    return sum(g * s for g, s in zip(grids, strides)).transpose(*reversed(range(len(info)))).ravel()


@pytest.mark.parametrize("case", ["example_2d", "aligned_3d", "one_dim_default"])
def test_slice_copy_matches_numpy(case):
    kernel = KERNEL
    if case == "one_dim_default":  # dimValue left out: its documented default is 1 (cann-ops eye_fp64 calls it so)
        src, ub, out = [(8, 55, 8, 1, 64)], [(0, 23, 0, 3, 24)], [(0, 23, 0, 3, 24)]
        kernel = KERNEL.replace(", %(dims)d);", ");")
    elif case == "example_2d":       # the asc-devkit example: 8-float bursts 7 elements apart (a byte gap), rows 0 and 2
        src = [(16, 70, 7, 1, 87), (0, 2, 1, 1, 3)]
        ub = [(0, 47, 0, 3, 48), (0, 1, 0, 1, 2)]
        out = [(0, 47, 0, 3, 48), (0, 1, 0, 1, 2)]
    else:                          # block-aligned gaps (16 floats), three dimensions, every other plane
        src = [(8, 63, 16, 1, 64), (1, 2, 0, 1, 4), (0, 2, 1, 1, 3)]
        ub = [(0, 23, 0, 1, 24), (0, 1, 0, 1, 2), (0, 1, 0, 1, 2)]
        out = [(0, 23, 0, 1, 24), (0, 1, 0, 1, 2), (0, 1, 0, 1, 2)]
    fmt = lambda s: ", ".join("{%d, %d, %d, %d, %d}" % t for t in s)
    code = kernel % dict(src=fmt(src), ub=fmt(ub), out=fmt(out), dims=len(src))
    n_in = int(np.prod([t[4] for t in src]))
    n_out = int(np.prod([t[4] for t in out]))
    x = np.arange(n_in, dtype=np.float32)
    b = build({"k.cpp": code})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.full(n_out, -7, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    taken = x[slice_index(src, [t[4] for t in src])]
    # the UB side takes each outer slice's bursts back to back (UB stride 0), one UB row (extent ub[0][4]) each
    ubuf = np.full(1024, -1, np.float32)
    per_row = taken.size // int(np.prod([len(range(t[0], t[1] + 1, 1 + t[2])) for t in src[1:]] or [1]))
    rows = taken.reshape(-1, per_row)
    ext0 = ub[0][4]
    for k, row in enumerate(rows):
        ubuf[k * ext0: k * ext0 + per_row] = row
    want = ubuf[:n_out]
    np.testing.assert_array_equal(r.outputs["y"], want)
