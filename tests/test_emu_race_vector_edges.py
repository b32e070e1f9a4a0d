"""A small vector instruction's race records, byte for byte (thirty-seventh round, speed).

A level-2 call's operand goes to the race check without RaceScope::operand (race.h: the contiguous case inline), and
RaceChecker::record_page records a range's first and last 32-byte blocks by their bytes and the blocks between whole.
Each case here writes UB with the V pipe (a level-2 Adds, a level-0 Adds whose mask leaves lanes out at both ends of
its blocks, or both) and then reads one element with GetValue and no flag V -> S (auto-sync off): the read must race
exactly when a V write touched its bytes, and the report must name the last V write of those bytes (a block's earlier
bytes the later write did not cover stay the earlier write's) at the right UB offset. A read of bytes no V write
touched since the barrier runs clean, and the values are the ones the instructions compute.
"""
import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// t: 256 floats at UB offset 0, every element 1 (Duplicate, then a barrier). mode 1: a level-2 Adds of t[0..64) first;
// mode 0 and 1: a level-0 Adds whose mask takes lanes 4..27 (bytes 16..111: part of block 0 and of block 3, blocks 1
// and 2 whole); mode 2: a level-2 Adds of t[0..60) alone (its last block, bytes 224..239, partial). Then t.GetValue(k)
// with no flag V -> S, a barrier, t[255] = that value, and t to y.
extern "C" __global__ __aicore__ void vector_edges(GM_ADDR y, uint32_t mode, uint32_t k)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    Duplicate(t, 1.0f, 256);
    PipeBarrier<PIPE_ALL>();
    uint64_t mask[2] = {0x0FFFFFF0ull, 0};
    UnaryRepeatParams params;
    if (mode == 1) Adds(t, t, 10.0f, 64);   // EXPECT whole
    if (mode <= 1) Adds(t, t, 100.0f, mask, 1, params);   // EXPECT edges
    if (mode == 2) Adds(t, t, 1000.0f, 60);   // EXPECT tail
    const float v = t.GetValue(k);   // EXPECT read
    PipeBarrier<PIPE_ALL>();
    t.SetValue(255, v);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 256);
}
'''


def _line(mark):
    return next(i + 1 for i, text in enumerate(KERNEL.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _run(mode, k):
    b = build({"vector_edges.cpp": KERNEL.lstrip("\n")})
    assert b.ok, b.diagnostics
    args = [GM("y", None, "out", shape=(256,), dtype=np.float32), Scalar(mode, "uint32"), Scalar(k, "uint32")]
    return run(b, args, block_dim=1, auto_sync=False)


def _want(mode, k):
    t = np.ones(256, np.float32)
    if mode == 1: t[:64] += 10
    if mode <= 1: t[4:28] += 100
    if mode == 2: t[:60] += 1000
    t[255] = t[k]
    return t


@pytest.mark.parametrize("mode, k, other", [
    (0, 4, "EXPECT edges"),     # block 0: the first byte the masked Adds wrote
    (0, 12, "EXPECT edges"),    # block 1, written whole
    (0, 27, "EXPECT edges"),    # block 3: the last
    (1, 2, "EXPECT whole"),     # block 0's bytes before the masked Adds' lanes: still the level-2 Adds'
    (1, 20, "EXPECT edges"),    # block 2: the masked Adds covered the level-2 one's bytes
    (1, 30, "EXPECT whole"),    # block 3's bytes after the masked Adds' lanes
    (1, 40, "EXPECT whole"),    # block 5, the level-2 Adds alone
    (2, 59, "EXPECT tail"),     # the partial last block of a level-2 call
])
def test_a_read_of_bytes_a_vector_write_touched_names_that_write(mode, k, other):
    r = _run(mode, k)
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    e = r.errors[0]
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT read")), e
    assert (e.context.get("hazard"), e.context.get("other_pipe")) == ("read-after-write", "V"), e.context
    assert e.context.get("other_line") == _line(other), e.context
    assert (e.context.get("ub_offset"), e.context.get("bytes")) == (4 * k, 4), e.context


@pytest.mark.parametrize("mode, k", [(0, 3), (0, 28), (0, 100), (2, 60)])
def test_a_read_of_bytes_no_vector_write_touched_runs_clean(mode, k):
    """Bytes 12..15 and 112..115 share a block with the masked Adds' lanes but are not theirs; bytes 240..243 share
    the level-2 Adds' last block."""
    r = _run(mode, k)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], _want(mode, k))
