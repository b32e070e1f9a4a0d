"""A launch reuses the UB memory of finished blocks for the next ones (a fresh allocation per block faulted its pages
in again). Nothing a block leaves in UB may reach a later block: in execute mode each block's UB holds the poison
wherever it has not written, whichever block ran on that memory before, on one thread or several. (In trace mode a
read of UB data returns zeros anyway.)"""
import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, build, run

# Each block reads the first word of its buffer through the raw UB pointer (no API write before it, so no rule
# check stands in the way), stores it to y[8 b .. 8 b + 8), then writes its own mark into that word.
LEAK = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void leak(GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<uint32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y, GetBlockNum() * 8);
    pipe.InitBuffer(buf, 256);
    pipe.InitBuffer(outQueue, 1, 256);
    LocalTensor<uint32_t> scratch = buf.Get<uint32_t>();
    uint32_t seen = *reinterpret_cast<__ubuf__ uint32_t *>(scratch.GetPhyAddr());
    scratch.SetValue(0, 0x5A5A0000u + GetBlockIdx());
    LocalTensor<uint32_t> t = outQueue.AllocTensor<uint32_t>();
    Duplicate(t, seen, 64);
    outQueue.EnQue(t);
    t = outQueue.DeQue<uint32_t>();
    DataCopy(yGm[GetBlockIdx() * 8], t, 8);
    outQueue.FreeTensor(t);
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_block_never_sees_what_an_earlier_block_left_in_ub(threads):
    b = build({"leak.cpp": LEAK})
    assert b.ok, b.errors
    blocks = 24
    r = run(b, [GM("y", None, "out", shape=(blocks * 8,), dtype=np.uint32)], block_dim=blocks,
            settings=load_settings().replace(emu_threads=threads), poison=0xA5)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], np.full(blocks * 8, 0xA5A5A5A5, np.uint32))   # the poison, no mark
