"""Copy (UB to UB, level 0) in counter mode. Its documentation (UBToUB高维数据搬运(Copy), 约束说明) sets it apart from
the other level-0 APIs: in counter mode the mask is the number of elements of EACH repeat, ceil(mask * sizeof(T) / 32)
data blocks at dstStride / srcStride, and repeatTime counts. hicann ops-nn clipped_swiglu splits A and B with
`SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(n); Copy<float, false>(dst, src, MASK_PLACEHOLDER, 1,
{1, 1, 0, 0})`: one repeat of n elements. Before, the emulator took the mask as the total of a generic counter-mode
instruction (64 floats a repeat, the repeats at the repeat stride, here 0), so every element past the 64th was never
copied: clipped_swiglu's output lost its 65th column (dim 130, front / back split)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void copy_counter(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> a, b;
    pipe.InitBuffer(a, 8192);
    pipe.InitBuffer(b, 8192);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 1024);
    yg.SetGlobalBuffer((__gm__ float*)y, 1024);
    LocalTensor<float> la = a.Get<float>(), lb = b.Get<float>();
    Duplicate(lb, -1.0f, 1024);
    DataCopy(la, xg, 1024);
    PipeBarrier<PIPE_ALL>();
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(PER);
    Copy<float, false>(lb, la, AscendC::MASK_PLACEHOLDER, REPEATS, {DBLK, SBLK, DREP, SREP});
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lb, 1024);
}
'''


def _copy(per, repeats, dblk=1, sblk=1, drep=0, srep=0):
    text = SRC
    for k, v in {"PER": per, "REPEATS": repeats, "DBLK": dblk, "SBLK": sblk, "DREP": drep, "SREP": srep}.items():
        text = text.replace(k, str(v))
    b = build({"copy_counter.cpp": text}, "copy_counter")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(1024, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(1024, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    return r.outputs["y"]


def _want(per, repeats, dblk=1, sblk=1, drep=0, srep=0):
    y = np.full(1024, -1.0, np.float32)
    for r in range(repeats):
        for i in range(per):   # element i: block i // 8 of the repeat, lane i % 8 of the block
            y[r * drep * 8 + (i // 8) * dblk * 8 + i % 8] = r * srep * 8 + (i // 8) * sblk * 8 + i % 8
    return y


@pytest.mark.parametrize("per,repeats,dblk,sblk,drep,srep", [
    (65, 1, 1, 1, 0, 0),       # clipped_swiglu's one repeat of 65 floats: nine blocks, the last one partly
    (320, 1, 1, 1, 0, 0),      # five repeats' worth in one
    (40, 3, 1, 1, 10, 6),      # three repeats of five blocks, at their repeat strides
    (24, 2, 2, 1, 12, 3),      # a destination block stride of 2
])
def test_counter_mode_copy_moves_mask_elements_each_repeat(per, repeats, dblk, sblk, drep, srep):
    np.testing.assert_array_equal(_copy(per, repeats, dblk, sblk, drep, srep), _want(per, repeats, dblk, sblk, drep, srep))
