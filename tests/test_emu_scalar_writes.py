"""Scalar SetValue keeps every check on its fast paths.

A scalar GM write inside the buffer the block's last scalar write went to takes gm_write's fast path (emu_core.cpp:
the buffer's place and API-write bitmap kept, not looked up), and a scalar UB access makes its index check and its
written-bytes mark inline. Each test first runs a loop of writes that takes those paths, then makes the access that must
still be caught or counted: a GM write past the buffer, a write into an input, two blocks writing the same bytes with
different values, an element never written (it keeps the poison, in both poison runs, and is no raw write), a UB index
past the buffer, a vector instruction reading scalar writes with no S -> V flag (auto-sync off), UB bytes the scalar
loop did not write (the uninitialised-read note names the first), and the S pipe's work as the trace counts it.
examples/benchmarks/bench_scalar.py times the calls.
"""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run, trace
from ascendcraft.trace import Pipe

N = 256
KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Each block writes its 256 floats of y with SetValue, 64 times over (the fast paths), then:
// mode 0: nothing more; 1: a write just past y; 2: a write into x; 3: block 1 writes y[0] (block 0's) with another value;
// 4: y[7] of each block never written; 5: a UB index past the buffer; 6: Adds reads the scalar writes with no S -> V
// flag; 7: the same with the flag; 8: a vector read of UB the scalar loop wrote only in part; 9: a scalar write of UB
// a vector instruction reads, with no V -> S flag; 10: a GM read just before x's start (offset -1)
extern "C" __global__ __aicore__ void scalar_writes(GM_ADDR x, GM_ADDR y, uint32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, part;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(part, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y + 256 * GetBlockIdx(), 256);
    for (int r = 0; r < 64; ++r)
        for (uint32_t i = 0; i < 256; ++i) {
            t.SetValue(i, xGm.GetValue(i) + static_cast<float>(r));   // the loop's UB write
            if (mode != 4 || i != 7) yGm.SetValue(i, t.GetValue(i) * 2.0f);
        }
    if (mode == 1) yGm.SetValue(256 * (GetBlockNum() - GetBlockIdx()), 1.0f);   // EXPECT gm-out-of-bounds
    if (mode == 2) xGm.SetValue(3, 1.0f);                                        // EXPECT gm-write-input
    if (mode == 3 && GetBlockIdx() == 1) yGm.SetValue(-256, 5.0f);              // EXPECT gm-overlap
    if (mode == 5) t.SetValue(256, 1.0f);                                        // EXPECT ub-out-of-range
    if (mode == 6 || mode == 7) {
        if (mode == 7) {
            event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(id);
            WaitFlag<HardEvent::S_V>(id);
        }
        Adds(t, t, 1.0f, 256);                                                   // EXPECT ub-race (mode 6)
        event_t back = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(back);
        WaitFlag<HardEvent::V_S>(back);
        yGm.SetValue(0, t.GetValue(0));
    }
    if (mode == 10) yGm.SetValue(0, xGm.GetValue(~0ull));                      // EXPECT gm-out-of-bounds (read)
    if (mode == 9) {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(id);
        WaitFlag<HardEvent::S_V>(id);
        LocalTensor<float> p = part.Get<float>();
        Adds(p, t, 1.0f, 256);
        t.SetValue(3, 1.0f);                                                     // EXPECT ub-race (mode 9)
    }
    if (mode == 8) {
        LocalTensor<float> p = part.Get<float>();
        for (int r = 0; r < 64; ++r)
            for (uint32_t i = 0; i < 200; ++i) p.SetValue(i, 1.0f);
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(id);
        WaitFlag<HardEvent::S_V>(id);
        Adds(p, p, 1.0f, 256);                                                   // EXPECT ub-uninitialised
    }
}
'''
X = np.arange(N, dtype=np.float32) / 64


def _line(mark):
    return next(i + 1 for i, text in enumerate(KERNEL.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _build():
    b = build({"scalar_writes.cpp": KERNEL.lstrip("\n")})
    assert b.ok, b.diagnostics
    return b


def _args(mode, blocks):
    return [GM("x", X), GM("y", None, "out", shape=(blocks * N,), dtype=np.float32), Scalar(mode, "uint32")]


def _run(mode, blocks=2, **kw):
    return run(_build(), _args(mode, blocks), block_dim=blocks, **kw)


def _error(r):
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    return r.errors[0]


def test_fast_writes_compute_the_same_values():
    r = _run(0)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], np.tile((X + np.float32(63)) * np.float32(2), 2))


def test_a_gm_write_past_the_buffer_is_still_caught():
    e = _error(_run(1))
    assert (e.kind, e.line) == ("gm-out-of-bounds", _line("EXPECT gm-out-of-bounds")) and "'y'" in e.message


def test_a_gm_read_just_before_the_buffer_is_still_caught():
    "After a loop of inlined reads of x, the float before x's start (offset -1): the range test must not wrap."
    e = _error(_run(10))
    assert (e.kind, e.line) == ("gm-out-of-bounds", _line("EXPECT gm-out-of-bounds (read)")), e
    assert "GetValue reads 4 bytes of GM at offset -4 of 'x'" in e.message, e.message   # the check's report, not a fault's


def test_a_scalar_write_into_an_input_is_still_caught():
    e = _error(_run(2))
    assert (e.kind, e.line) == ("gm-write-input", _line("EXPECT gm-write-input"))


def test_two_blocks_writing_the_same_bytes_are_still_caught():
    e = _error(_run(3))
    assert (e.kind, e.line) == ("gm-overlap", _line("EXPECT gm-overlap")), e


def test_an_element_never_written_keeps_the_poison_and_is_no_raw_write():
    for poison in (0x3F, 0x5A):
        r = _run(4, poison=poison)
        assert r.ok, r.diagnostics
        y = r.outputs["y"].reshape(2, N)
        want = np.frombuffer(bytes([poison]) * 4, np.float32)[0]
        assert (y[:, 7] == want).all(), (poison, y[:, 7])
        np.testing.assert_array_equal(np.delete(y, 7, axis=1), np.tile(np.delete((X + np.float32(63)) * np.float32(2), 7), (2, 1)))


def test_a_ub_index_past_the_buffer_is_still_caught():
    e = _error(_run(5))
    assert (e.kind, e.line) == ("ub-out-of-range", _line("EXPECT ub-out-of-range")) and "SetValue(256)" in e.message


def test_a_vector_read_of_scalar_writes_without_a_flag_is_still_a_race():
    e = _error(_run(6, auto_sync=False))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT ub-race (mode 6)")) and "S_V" in e.hint, e
    assert e.context["other_line"] == _line("// the loop's UB write") and e.context["other_api"] == "SetValue", e.context
    assert _run(6).ok                     # auto-sync on: the compiler's wait orders them
    r = _run(7, auto_sync=False)          # the flag orders them
    assert r.ok, r.diagnostics
    assert r.outputs["y"][0] == np.float32((X[0] + 63) * 2 + 1) or r.outputs["y"][0] == np.float32(X[0] + 63 + 1)


def test_a_scalar_write_of_ub_a_vector_instruction_reads_is_still_a_race():
    e = _error(_run(9, auto_sync=False))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT ub-race (mode 9)")) and "V_S" in e.hint, e
    assert e.context["hazard"] == "write-after-read", e.context
    assert _run(9).ok


def test_ub_the_scalar_loop_did_not_write_is_named():
    r = _run(8, blocks=1)
    notes = [d for d in r.diagnostics if d.kind == "ub-uninitialised"]
    assert len(notes) == 1 and notes[0].line == _line("EXPECT ub-uninitialised"), r.diagnostics
    assert "byte 800 of the tensor" in notes[0].message, notes[0].message   # 200 floats written: byte 800 is the first hole


def test_a_run_counts_every_scalar_access_as_the_trace_records_it():
    b = _build()
    r = run(b, _args(0, 2), block_dim=2)
    assert r.ok, r.diagnostics
    t = trace(b, [GM("x", None, "in", shape=(N,), dtype=np.float32)] + _args(0, 2)[1:], block_dim=2)
    assert r.work["S"] == t.work()["S"], (r.work["S"], t.work()["S"])
    assert t.count("SetValue", Pipe.S) == 2 * 2 * 64 * N
