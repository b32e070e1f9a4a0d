"""GlobalTensor::SetValue's fast path, and GetValue of what it wrote, keep every check (thirty-third round, scal).

A scalar GM write that lies in a range of its block's own writes in the gm-overlap tracker, or continues one from its
end, short of the next range and of the buffer's last byte, with the tracker unchanged since gm_write found the range,
is made without a call into the runtime (gm_set, runtime.h): the range's end moved, the bytes marked as an API write,
the work counted, the value written where the deferred poison puts it. Each test below makes a write that one condition
of that shortcut sends to the full check, and fails when the condition is removed (mutation runs: docs/speed.md,
"Thirty-third round, scal"): another block's range made after this block's range was found (at the end of the tracker,
and between two ranges), the tracker cleared at SyncAll, another block's range next to this one, the buffer's end, a
write before the range's start, a write past its end (a gap), a scalar that crosses an 8-byte boundary (its bytes'
API-write bits span two bitmap bytes), atomic accumulation switched on, and a SetValue from another file than the status
page names; the S pipe's work against the trace. GlobalTensor::GetValue of bytes inside such a range reads them where
the deferred poison's alias keeps them (gm_get_checked); a read just before or past the range gets the poison.
examples/benchmarks/bench_scalar_access.py times the calls (kinds 3, 4 and 7).
"""
import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run, trace

N = 64   # floats of y
KERNEL = r'''
#include "kernel_operator.h"
#include "tail.h"
using namespace AscendC;
// Two blocks write y (64 floats) with SetValue; block 0 runs first (the blocks run one at a time, in index order).
// mode 0: block b writes y[32 b + i] = x[i] + b, i < 32, in order (the fast path after the first).
// mode 1: block 0 writes y[0..3], hands over (DataCacheCleanAndInvalid: block 1 writes y[8] and ends), then y[4..9].
// mode 2: as 1, but block 0 wrote y[16] first (block 1's range is then made between two of block 0's).
// mode 3: block 0 writes y[0..3], SyncAll, y[4..7]; block 1: SyncAll, y[5].
// mode 4: block 0 writes y[8..11]; block 1 writes y[0..8].
// mode 5: block 0 writes y[0..64] (one past the buffer).
// mode 6: block 0 writes y[8..15]; block 1 writes y[16..23], then y[12].
// mode 7: block 0 writes y[0..3], then y[10] (a gap); block 1 writes y[4..9].
// mode 8: block 0 writes 31 int64 at y's byte 4 on (each crosses an 8-byte boundary), q[i] = i.
// mode 9: block 0 writes y[0..7], then with SetAtomicAdd y[2], y[8], y[9]; block 1 writes y[8], y[9].
// mode 10: block 0 writes y[0..39], then Tail (tail.h) writes y[40] and crashes.
// mode 11: as 9 with SetAtomicMax.
// mode 12: block 0 writes y[4..11] = i, reads them back (their sum to y[0]) and y[3] (to y[13]); mode 13: y[12].
extern "C" __global__ __aicore__ void gm_set(GM_ADDR x, GM_ADDR y, uint32_t mode)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 32);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    const uint32_t b = GetBlockIdx();
    if (mode == 0)
        for (uint32_t i = 0; i < 32; ++i) yGm.SetValue(32 * b + i, xGm.GetValue(i) + static_cast<float>(b));
    if (mode == 1 || mode == 2) {
        if (b == 1) { yGm.SetValue(8, 2.0f); return; }
        if (mode == 2) yGm.SetValue(16, 1.0f);
        for (uint32_t i = 0; i < 4; ++i) yGm.SetValue(i, 1.0f);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
        for (uint32_t i = 4; i < 10; ++i) yGm.SetValue(i, 1.0f);   // EXPECT gm-overlap (modes 1, 2)
    }
    if (mode == 3) {
        if (b == 0) for (uint32_t i = 0; i < 4; ++i) yGm.SetValue(i, 1.0f);
        SyncAll();
        if (b == 0) for (uint32_t i = 4; i < 8; ++i) yGm.SetValue(i, 1.0f);   // EXPECT gm-overlap (mode 3, block 0)
        if (b == 1) yGm.SetValue(5, 2.0f);                                      // EXPECT gm-overlap (mode 3, block 1)
    }
    if (mode == 4) {
        if (b == 0) for (uint32_t i = 8; i < 12; ++i) yGm.SetValue(i, 1.0f);
        if (b == 1) for (uint32_t i = 0; i < 9; ++i) yGm.SetValue(i, 2.0f);      // EXPECT gm-overlap (mode 4)
    }
    if (mode == 5 && b == 0)
        for (uint32_t i = 0; i < 65; ++i) yGm.SetValue(i, 1.0f);                // EXPECT gm-out-of-bounds (mode 5)
    if (mode == 6) {
        if (b == 0) for (uint32_t i = 8; i < 16; ++i) yGm.SetValue(i, 1.0f);
        if (b == 1) {
            for (uint32_t i = 16; i < 24; ++i) yGm.SetValue(i, 2.0f);
            yGm.SetValue(12, 2.0f);                                             // EXPECT gm-overlap (mode 6)
        }
    }
    if (mode == 7) {
        if (b == 0) {
            for (uint32_t i = 0; i < 4; ++i) yGm.SetValue(i, 1.0f);
            yGm.SetValue(10, 1.0f);
        }
        if (b == 1) for (uint32_t i = 4; i < 10; ++i) yGm.SetValue(i, 2.0f);
    }
    if (mode == 8 && b == 0) {
        GlobalTensor<int64_t> q;
        q.SetGlobalBuffer((__gm__ int64_t *)(y + 4), 31);
        for (int64_t i = 0; i < 31; ++i) q.SetValue(i, i);
    }
    if (mode == 9 || mode == 11) {
        if (b == 0) {
            for (uint32_t i = 0; i < 8; ++i) yGm.SetValue(i, 1.0f);
            if (mode == 9) SetAtomicAdd<float>();
            if (mode == 11) SetAtomicMax<float>();
            yGm.SetValue(2, 1.0f);
            yGm.SetValue(8, 1.0f);
            yGm.SetValue(9, 1.0f);
            SetAtomicNone();
        }
        if (b == 1) { yGm.SetValue(8, 2.0f); yGm.SetValue(9, 2.0f); }
    }
    if ((mode == 12 || mode == 13) && b == 0) {
        for (uint32_t i = 4; i < 12; ++i) yGm.SetValue(i, static_cast<float>(i));
        float sum = 0.0f;
        for (uint32_t i = 4; i < 12; ++i) sum += yGm.GetValue(i);
        const float unwritten = yGm.GetValue(mode == 12 ? 3 : 12);   // the poison
        yGm.SetValue(0, sum);
        yGm.SetValue(13, unwritten);
    }
    if (mode == 10 && b == 0) {
        for (uint32_t i = 0; i < 40; ++i) yGm.SetValue(i, 1.0f);
        Tail(yGm, reinterpret_cast<volatile float *>(b == 0 ? nullptr : y));
    }
}
'''
TAIL = r'''
#pragma once
#include "kernel_operator.h"
__aicore__ inline void Tail(const AscendC::GlobalTensor<float> &yGm, volatile float *none)
{
    yGm.SetValue(40, 3.0f);   // EXPECT the last call before the crash (mode 10)
    none[1] = 0.0f;
}
'''
X = np.arange(32, dtype=np.float32) / 4


def _line(mark, source=KERNEL):
    return next(i + 1 for i, text in enumerate(source.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _build():
    b = build({"gm_set.cpp": KERNEL.lstrip("\n"), "tail.h": TAIL.lstrip("\n")})
    assert b.ok, b.diagnostics
    return b


def _args(mode):
    return [GM("x", X), GM("y", None, "out", shape=(N,), dtype=np.float32), Scalar(mode, "uint32")]


def _run(mode, threads=1):
    return run(_build(), _args(mode), block_dim=2, settings=load_settings().replace(emu_threads=threads))


def _error(r):
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    return r.errors[0]


@pytest.mark.parametrize("threads", [1, 2])
def test_fast_path_writes_land_where_the_deferred_poison_keeps_them(threads):
    "Every value the fast path writes is in the output: marked as an API write (no poison), written through the alias."
    r = _run(0, threads)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], np.concatenate([X, X + 1]))


@pytest.mark.parametrize("mode", [0, 12])
def test_fast_path_writes_and_reads_count_as_the_trace_records_them(mode):
    "The S pipe's instructions and bytes are the trace's (trace mode itself takes no fast-path write)."
    b = _build()
    r = run(b, _args(mode), block_dim=2)
    assert r.ok, r.diagnostics
    t = trace(b, _args(mode), block_dim=2)
    assert r.work["S"] == t.work()["S"], (r.work["S"], t.work()["S"])
    assert r.work["S"][0] >= (2 * 2 * 32 if mode == 0 else 8 + 8 + 3), r.work["S"]


@pytest.mark.parametrize("mode", [1, 2])
def test_a_range_another_block_made_after_the_range_was_found_is_still_checked(mode):
    "Block 1 writes y[8] while block 0 waits; block 0's range then reaches it: gm-overlap, at block 0's loop."
    e = _error(_run(mode))
    assert e.kind == "gm-overlap" and e.line == _line("EXPECT gm-overlap (modes 1, 2)"), e


def test_the_tracker_cleared_at_syncall_drops_the_range():
    "After SyncAll the writes are a new phase's: block 0's and block 1's y[5] meet there."
    e = _error(_run(3))
    assert e.kind == "gm-overlap", e
    assert e.line in (_line("EXPECT gm-overlap (mode 3, block 0)"), _line("EXPECT gm-overlap (mode 3, block 1)")), e


def test_a_write_reaching_the_next_range_is_still_checked():
    e = _error(_run(4))
    assert e.kind == "gm-overlap" and e.line == _line("EXPECT gm-overlap (mode 4)"), e


def test_a_write_past_the_buffer_is_still_checked():
    e = _error(_run(5))
    assert e.kind == "gm-out-of-bounds" and e.line == _line("EXPECT gm-out-of-bounds (mode 5)"), e


def test_a_write_before_the_range_is_still_checked():
    e = _error(_run(6))
    assert e.kind == "gm-overlap" and e.line == _line("EXPECT gm-overlap (mode 6)"), e


def test_a_write_past_the_ranges_end_records_no_gap():
    "Block 0's y[10] after y[0..3] starts a range of its own: block 1's y[4..9] touch none of block 0's bytes."
    r = _run(7)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:11], [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1])


def test_a_scalar_across_an_8_byte_boundary_is_marked_whole():
    "int64 at byte 4 + 8 i: each one's bytes are two bytes of the API-write bitmap; none of them gets the poison."
    r = _run(8)
    assert r.ok, r.diagnostics
    q = r.outputs["y"].view(np.int32)[1:63].view(np.int64)
    np.testing.assert_array_equal(q, np.arange(31))


@pytest.mark.parametrize("mode", [9, 11])
def test_writes_under_atomic_accumulation_are_not_recorded(mode):
    "SetAtomicAdd / Max: no scalar write is recorded for gm-overlap (gm_write, its fast path): block 1 writes y[8..9]."
    r = _run(mode)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:10], [1] * 8 + [2, 2])


def test_a_write_from_another_file_names_that_file():
    "The status page names tail.h for the SetValue there: the crash after it names that call as the last one."
    r = _run(10)
    e = next(d for d in r.errors if d.kind == "crash")
    line = _line("EXPECT the last call before the crash (mode 10)", TAIL)
    assert f"last AscendC call was SetValue at tail.h:{line}" in e.message, e


@pytest.mark.parametrize("mode", [12, 13])
def test_a_read_of_the_blocks_own_writes_sees_them_and_one_outside_sees_the_poison(mode):
    "y[4..11] read with no runtime call, through the poison's alias; y[3] (before the range), y[12] (past): poison."
    r = _run(mode)
    assert r.ok, r.diagnostics
    y = r.outputs["y"]
    assert y[0] == sum(range(4, 12)), y[:14]
    np.testing.assert_array_equal(y[4:12], np.arange(4, 12, dtype=np.float32))
    assert y[13:14].view(np.uint32)[0] == y[40:41].view(np.uint32)[0], y[:14].view(np.uint32)   # y[40]: never written
