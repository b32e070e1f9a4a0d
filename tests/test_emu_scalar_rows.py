"""Scalar loops that walk several rows in turn keep every check (scal30).

Two of the emulator's scalar fast paths changed in the twenty-ninth round: GlobalTensor::GetValue's inlined read (gm_get,
runtime.h) returns the value instead of writing it through a pointer and counts its work in one counter per scalar
size, and the GM write tracker (OverlapTracker::add, emu_core.cpp) grows one of the two ranges it grew last when a
write continues it and reaches no other range, without a map walk. A convolution written with SetValue writes two
output rows in turn, and each block's rows lie between another block's; these tests write rows that way, then make
the access that must still be caught: a write one element past a row, into the next row, which another block wrote
(with blocks in parallel and one after another), and a read of an output row another block writes while blocks run
in parallel. The work the inlined reads count is checked against the trace for scalars of 1, 2, 4 and 8 bytes.
examples/benchmarks/bench_scalar_access.py times the calls.
"""
import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run, trace

W = 64   # floats a row
KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Block b writes the rows 1 - b and 3 - b of y (block 0 rows 1 and 3, block 1 rows 0 and 2), an element of each in
// turn, 16 times over. Then mode 1: block 1 writes the element just past its row 0 (row 1's first: block 0's);
// mode 2: block 1 writes the element just past its row 2 (row 3's first); mode 3: block 1 reads an element of row 1
// (block 0's) after its loop.
extern "C" __global__ __aicore__ void scalar_rows(GM_ADDR x, GM_ADDR y, uint32_t mode)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4 * 64);
    const uint32_t b = GetBlockIdx();
    const uint64_t r0 = (1 - b) * 64, r1 = (3 - b) * 64;
    for (int r = 0; r < 16; ++r)
        for (uint32_t i = 0; i < 64; ++i) {
            const float v = xGm.GetValue(i) + static_cast<float>(b);
            yGm.SetValue(r0 + i, v);
            yGm.SetValue(r1 + i, v * 2.0f);
        }
    if (mode == 1 && b == 1) yGm.SetValue(r0 + 64, 7.0f);   // EXPECT gm-overlap (row 1)
    if (mode == 2 && b == 1) yGm.SetValue(r1 + 64, 7.0f);   // EXPECT gm-overlap (row 3)
    if (mode == 3 && b == 1) yGm.SetValue(r0 + 5, yGm.GetValue(64 + 5));   // EXPECT read of row 1
}
'''
X = np.arange(W, dtype=np.float32) / 8


def _line(mark):
    return next(i + 1 for i, text in enumerate(KERNEL.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _build(source=KERNEL, name="scalar_rows.cpp"):
    b = build({name: source.lstrip("\n")})
    assert b.ok, b.diagnostics
    return b


def _run(mode, threads):
    return run(_build(), [GM("x", X), GM("y", None, "out", shape=(4 * W,), dtype=np.float32), Scalar(mode, "uint32")],
               block_dim=2, settings=load_settings().replace(emu_threads=threads))


def _error(r):
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    return r.errors[0]


@pytest.mark.parametrize("threads", [1, 2])
def test_rows_written_in_turn_compute_the_same_values(threads):
    r = _run(0, threads)
    assert r.ok, r.diagnostics
    y = r.outputs["y"].reshape(4, W)
    np.testing.assert_array_equal(y, np.stack([X + 1, X, (X + 1) * 2, X * 2]))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("mode,mark", [(1, "EXPECT gm-overlap (row 1)"), (2, "EXPECT gm-overlap (row 3)")])
def test_a_write_past_a_row_into_another_blocks_row_is_still_caught(threads, mode, mark):
    "The write continues block 1's row, whose range a recent add grew, but the next range is block 0's: no shortcut."
    e = _error(_run(mode, threads))
    assert e.kind == "gm-overlap" and e.line == _line(mark), e


def test_a_read_of_another_blocks_output_row_in_parallel_is_still_caught():
    "Blocks in parallel: block 1 reads what block 0 writes, after its own writes grew its recent ranges."
    r = _run(0, 2)
    assert r.ok and r.threads == 2, (r.diagnostics, r.threads)   # no block reads another's bytes: parallel
    r = _run(3, 2)
    # the parallel run is order-dependent, so it is made again one block after another, where the read sees the value
    assert r.ok and r.threads == 1, (r.diagnostics, r.threads)
    assert r.outputs["y"][5] == X[5]


SIZES = r'''
#include "kernel_operator.h"
using namespace AscendC;
// GetValue of 1-, 2-, 4- and 8-byte scalars in a loop (the inlined reads), their sum written to y
extern "C" __global__ __aicore__ void scalar_sizes(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<int8_t> a; GlobalTensor<half> h; GlobalTensor<float> f; GlobalTensor<int64_t> q;
    a.SetGlobalBuffer((__gm__ int8_t *)x, 512);
    h.SetGlobalBuffer((__gm__ half *)x, 256);
    f.SetGlobalBuffer((__gm__ float *)x, 128);
    q.SetGlobalBuffer((__gm__ int64_t *)x, 64);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    float s1 = 0, s2 = 0, s4 = 0, s8 = 0;
    for (int r = 0; r < 8; ++r) {
        for (uint32_t i = 0; i < 512; ++i) s1 += static_cast<float>(a.GetValue(i));
        for (uint32_t i = 0; i < 256; ++i) s2 += static_cast<float>(h.GetValue(i));
        for (uint32_t i = 0; i < 128; ++i) s4 += f.GetValue(i);
        for (uint32_t i = 0; i < 64; ++i) s8 += static_cast<float>(q.GetValue(i) & 0xFF);
    }
    yGm.SetValue(0, s1); yGm.SetValue(1, s2); yGm.SetValue(2, s4); yGm.SetValue(3, s8);
    for (uint32_t i = 4; i < 8; ++i) yGm.SetValue(i, 0.0f);
}
'''


def test_inlined_reads_of_every_size_compute_and_count_as_the_trace_records_them():
    "One counter per scalar size: the S pipe's instructions and bytes are the trace's, for 1-, 2-, 4- and 8-byte reads."
    raw = np.random.default_rng(5).integers(0, 64, 512).astype(np.int8)
    b = _build(SIZES, "scalar_sizes.cpp")
    args = [GM("x", raw), GM("y", None, "out", shape=(8,), dtype=np.float32)]
    r = run(b, args, block_dim=2)
    assert r.ok, r.diagnostics
    want = []
    for values in (raw, raw.view(np.float16), raw.view(np.float32), raw.view(np.int64) & 0xFF):   # the kernel's order
        acc = np.float32(0)
        for _ in range(8):
            for v in values: acc = np.float32(acc + np.float32(v))
        want.append(acc)
    np.testing.assert_array_equal(r.outputs["y"][:4], np.array(want, np.float32))
    t = trace(b, args, block_dim=2)
    reads = 2 * 8 * (512 + 256 + 128 + 64)
    assert r.work["S"] == t.work()["S"], (r.work["S"], t.work()["S"])
    assert r.work["S"][0] >= reads and r.work["S"][1] >= 2 * 8 * 4 * 512, r.work["S"]


UB = r'''
#include "kernel_operator.h"
using namespace AscendC;
// LocalTensor::GetValue inlined (local_get): a loop of reads of a view of a 256-float buffer, then mode 1: an index past
// the view, inside the buffer (a warning); mode 2: past the buffer (an error); mode 3: a read of what DataCopy (MTE2)
// brings in with no MTE2 -> S flag (auto-sync off: a race); mode 4: the same with the flag.
extern "C" __global__ __aicore__ void scalar_ub(GM_ADDR x, GM_ADDR y, uint32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<float> view = buf.Get<float>(192);   // 192 of the buffer's 256 floats
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    Duplicate(t, 0.5f, 256);
    PipeBarrier<PIPE_ALL>();
    float acc = 0.0f;
    for (int r = 0; r < 32; ++r)
        for (uint32_t i = 0; i < 192; ++i) acc += view.GetValue(i);
    if (mode == 1) acc += view.GetValue(200);                       // EXPECT ub-out-of-range warning
    if (mode == 2) acc += view.GetValue(300);                       // EXPECT ub-out-of-range error
    if (mode == 3 || mode == 4) {
        DataCopy(t, xGm, 256);
        if (mode == 4) {
            event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(id);
            WaitFlag<HardEvent::MTE2_S>(id);
        }
        acc += t.GetValue(9);                                       // EXPECT ub-race (mode 3)
    }
    yGm.SetValue(0, acc);
    for (uint32_t i = 1; i < 8; ++i) yGm.SetValue(i, 0.0f);
}
'''


def _ub_line(mark):
    return next(i + 1 for i, text in enumerate(UB.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _ub_run(mode, **kw):
    return run(_build(UB, "scalar_ub.cpp"), [GM("x", np.arange(256, dtype=np.float32)),
                                              GM("y", None, "out", shape=(8,), dtype=np.float32), Scalar(mode, "uint32")],
               block_dim=1, **kw)


def test_inlined_ub_reads_compute_the_same_values():
    r = _ub_run(4, auto_sync=False)
    assert r.ok, r.diagnostics
    assert r.outputs["y"][0] == np.float32(32 * 192 * 0.5 + 9)


def test_an_index_past_the_view_inside_the_buffer_is_still_a_warning():
    r = _ub_run(1)
    assert r.ok, r.diagnostics
    w = [d for d in r.diagnostics if d.kind == "ub-out-of-range"]
    assert len(w) == 1 and w[0].line == _ub_line("EXPECT ub-out-of-range warning") and "GetValue(200)" in w[0].message, w


def test_an_index_past_the_buffer_is_still_an_error():
    e = _error(_ub_run(2))
    assert (e.kind, e.line) == ("ub-out-of-range", _ub_line("EXPECT ub-out-of-range error")) and "GetValue(300)" in e.message


def test_a_read_of_a_copy_in_without_a_flag_is_still_a_race():
    "The inlined read's race words: an MTE2 write the scalar unit does not know complete (track 2, not only V's)."
    e = _error(_ub_run(3, auto_sync=False))
    assert (e.kind, e.line) == ("ub-race", _ub_line("EXPECT ub-race (mode 3)")) and "MTE2_S" in e.hint, e
    assert _ub_run(3).ok   # auto-sync on: the compiler's wait orders them
