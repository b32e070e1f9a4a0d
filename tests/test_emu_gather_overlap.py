"""Gather with dst overlapping src: Gather.md says src and dst may not be the same memory, yet production kernels do it
(hicann ops-transformer's RotaryPositionEmbedding, interleave mode: `Gather(x, x, offsets, 0, n)` with offsets i ^ 1, a
swap of each pair) and pass on the NPU, whose vector unit reads an instruction's source before writing. The emulator
warns (`gather-overlap`, once per line) and reads src as it was before the instruction; a lane-by-lane copy gave the
odd lanes the values the even lanes had just written (x[2i+1] instead of x[2i]). A Gather into its own buffer gives
the same numbers and no warning."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t N = 128;
extern "C" __global__ __aicore__ void swap_pairs(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ob, tb;
    pipe.InitBuffer(xb, N * sizeof(float));
    pipe.InitBuffer(ob, N * sizeof(uint32_t));
    pipe.InitBuffer(tb, N * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> tl = tb.Get<float>();
    LocalTensor<int32_t> off = ob.Get<int32_t>();
    DataCopy(xl, xGm, N);
    for (int32_t i = 0; i < N; ++i) off.SetValue(i, (i ^ 1) * 4);   // byte offsets of the pair's other element
    LocalTensor<uint32_t> offu = off.ReinterpretCast<uint32_t>();
    GATHER
    DataCopy(yGm, OUT, N);
}
'''


@pytest.mark.parametrize("in_place", [True, False])
def test_a_gather_in_place_reads_the_source_as_it_was(in_place):
    gather = ("Gather(xl, xl, offu, 0, N);", "xl") if in_place else ("Gather(tl, xl, offu, 0, N);", "tl")
    b = build({"swap.cpp": KERNEL.replace("GATHER", gather[0]).replace("OUT", gather[1])})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(1, 129, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = x.reshape(-1, 2)[:, ::-1].reshape(-1)
    np.testing.assert_array_equal(r.outputs["y"], want)
    warned = [d for d in r.diagnostics if d.kind == "gather-overlap"]
    if in_place:
        assert len(warned) == 1 and warned[0].severity == "warning"
        assert "Gather(xl, xl" in warned[0].source_line and "Gather.md" in warned[0].message
    else:
        assert not warned
