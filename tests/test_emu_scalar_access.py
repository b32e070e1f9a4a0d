"""Scalar GetValue / SetValue keep every check on their fast paths.

A scalar GM read inside a buffer whose reads need no check past the bounds (an input; an output while blocks run one
after another and its poison is not deferred) takes a per-block fast path, inlined into GlobalTensor::GetValue (gm_get,
runtime.h; gm_read in emu_core.cpp finds the ranges), and a scalar UB read
skips the race check's bookkeeping when no V or MTE2 write is pending (RaceChecker::scalar_read_settled). Each test
first runs a loop of reads that takes those paths, then makes the access that must still be caught: an index past the
tensor, a GM address outside every buffer, a read of a vector result with no V -> S flag (auto-sync off), a write
into an input, and reads of bytes nothing wrote (they see the poison). The trace still records every GetValue, a run
counts each read on the S pipe as the trace does, and a run stopped in a loop of inlined reads names the read's line.
examples/benchmarks/bench_scalar_access.py times the calls.
"""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run, trace
from ascendcraft.trace import Pipe

N = 256
KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// mode 0: a UB index past the tensor; 1: a GM read far past x; 2: a GM read in x's padding (legal); 3: a vector
// result read with no V -> S flag; 4: the same with the flag; 5: reads of UB and GM nothing wrote; 6: a write into x;
// 7: a loop of GM reads that never ends
extern "C" __global__ __aicore__ void scalar_checks(GM_ADDR x, GM_ADDR y, uint32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, fresh;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(fresh, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<float> never = fresh.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    if (mode == 5) {   // before anything writes y or `never`: both hold the poison
        yGm.SetValue(1, never.GetValue(7));   // the UB poison, written out
        yGm.SetValue(2, yGm.GetValue(3));     // y's own poison, read back
    }
    Duplicate(t, 2.0f, 256);
    PipeBarrier<PIPE_ALL>();
    float acc = 0.0f;
    for (int r = 0; r < 64; ++r)                 // the fast paths: settled UB reads, reads of an input
        for (uint32_t i = 0; i < 256; ++i) acc += t.GetValue(i) + xGm.GetValue(i);
    if (mode == 0) acc += t.GetValue(256);                 // EXPECT ub-out-of-range
    if (mode == 1) acc += xGm.GetValue(1ull << 30);        // EXPECT gm-out-of-bounds
    if (mode == 2) acc += xGm.GetValue(257);               // the padding: legal, reads 0 or the poison
    if (mode == 3 || mode == 4) {
        Adds(t, t, 1.0f, 256);
        if (mode == 4) {
            event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(id);
            WaitFlag<HardEvent::V_S>(id);
        }
        acc += t.GetValue(5);                              // EXPECT ub-race (mode 3)
    }
    if (mode == 6) xGm.SetValue(3, acc);                   // EXPECT gm-write-input
    if (mode == 7) for (uint32_t i = 0; acc != -1.0f; ++i) acc += xGm.GetValue(i & 255);   // EXPECT timeout
    yGm.SetValue(0, acc);
    if (mode != 5) { yGm.SetValue(1, 0.0f); yGm.SetValue(2, 0.0f); }
    for (uint32_t i = 3; i < 256; ++i) yGm.SetValue(i, 0.0f);
}
'''
X = np.arange(N, dtype=np.float32) / 64


def _line(mark):
    return next(i + 1 for i, text in enumerate(KERNEL.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _run(mode, **kw):
    b = build({"scalar_checks.cpp": KERNEL.lstrip("\n")})
    assert b.ok, b.diagnostics
    return run(b, [GM("x", X), GM("y", None, "out", shape=(N,), dtype=np.float32), Scalar(mode, "uint32")], block_dim=1, **kw)


def _error(r):
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    return r.errors[0]


def test_fast_paths_compute_the_same_values():
    r = _run(4, auto_sync=False)
    assert r.ok, r.diagnostics
    assert r.outputs["y"][0] == np.float32(64 * (2.0 * N + X.sum()) + 3.0)   # 3.0: t[5] after Adds


def test_an_index_past_the_tensor_is_still_caught():
    e = _error(_run(0))
    assert (e.kind, e.line) == ("ub-out-of-range", _line("EXPECT ub-out-of-range")) and "GetValue(256)" in e.message


def test_a_gm_read_outside_every_buffer_is_still_caught():
    e = _error(_run(1))
    assert (e.kind, e.line) == ("gm-out-of-bounds", _line("EXPECT gm-out-of-bounds")) and "'x'" in e.message


def test_a_read_of_the_padding_stays_legal():
    r = _run(2)
    assert r.ok, r.diagnostics


def test_a_vector_result_read_without_a_flag_is_still_a_race():
    e = _error(_run(3, auto_sync=False))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT ub-race (mode 3)")) and "V_S" in e.hint
    assert _run(3).ok   # auto-sync on: the compiler's wait orders them


def test_a_scalar_write_into_an_input_is_still_caught():
    e = _error(_run(6))
    assert (e.kind, e.line) == ("gm-write-input", _line("EXPECT gm-write-input"))


def test_unwritten_ub_and_gm_read_the_poison():
    for poison in (0x3F, 0x5A):
        r = _run(5, poison=poison)
        assert r.ok, r.diagnostics
        want = np.frombuffer(bytes([poison]) * 4, np.float32)[0]
        assert r.outputs["y"][1] == want and r.outputs["y"][2] == want, (poison, r.outputs["y"][:3])


def test_the_trace_records_every_scalar_read():
    b = build({"scalar_checks.cpp": KERNEL.lstrip("\n")})
    t = trace(b, [GM("x", None, "in", shape=(N,), dtype=np.float32), GM("y", None, "out", shape=(N,), dtype=np.float32),
                  Scalar(4, "uint32")], block_dim=1)
    assert t.count("GetValue", Pipe.S) == 2 * 64 * N + 1


def test_a_run_counts_every_scalar_read_as_the_trace_records_it():
    "The inlined reads add to the S pipe's work as gm_read does: instructions and bytes, as many as the trace's records."
    b = build({"scalar_checks.cpp": KERNEL.lstrip("\n")})
    args = [GM("x", X), GM("y", None, "out", shape=(N,), dtype=np.float32), Scalar(4, "uint32")]
    r = run(b, args, block_dim=2)
    assert r.ok, r.diagnostics
    t = trace(b, args, block_dim=2)
    assert r.work["S"] == t.work()["S"] and r.work["S"][0] > 2 * 2 * 64 * N, (r.work["S"], t.work()["S"])


def test_a_run_stopped_in_a_loop_of_reads_names_the_read():
    "The inlined reads keep the status page's place: the timeout names the GetValue line the kernel was looping in."
    from ascendcraft.config import load_settings
    r = _run(7, settings=load_settings().replace(run_timeout=1.0))
    e = _error(r)
    assert e.kind == "timeout" and f"GetValue at scalar_checks.cpp:{_line('EXPECT timeout')}" in e.message, e.message
