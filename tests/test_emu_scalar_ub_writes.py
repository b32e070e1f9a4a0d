"""LocalTensor::SetValue's inlined write keeps every check (thirty-second round, scal).

A write of UB bytes that writes of the same place recorded since the S pipe's clock was last observed takes the inlined
path (local_set, runtime.h): no race record of its own and no written-bytes mark, only the value, the status page's place
and the S pipe's work. Each test below makes the access one of that shortcut's conditions exists for and checks that
it is still caught: an index past the view inside its buffer (warning) and past the buffer (error), inside the range
the earlier writes recorded; a write outside that range (its race record is needed); a write after a flag PIPE_S set
(the epoch: its clock is then told apart); a write after another place's write of the same bytes was recorded through
the full race check (the race report names the last writer's line). All writes of the range go through one place, the
lambda `put`. examples/benchmarks/bench_scalar_access.py times the call.
"""
import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run, trace

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Three 256-float buffers one after another in UB. `put` writes t and t2 whole (one range of 2 KB), then:
// mode 1: put of view[200] (past the 192-float view, inside buf); mode 2: put of view[300] (past buf: t2's bytes);
// mode 3 / 4: a flag S -> V, put of t[0..63] again, (mode 4: a flag S -> V), Adds reading t; mode 14: mode 3 with
// PipeBarrier<PIPE_ALL> for the flag;
// mode 5 / 6: Duplicate into o (a V write S does not know complete), SetValue of t[5] at another line (checked by the
// full race check), a flag V -> S, put of t[5], (mode 6: a flag S -> V), Adds reading t;
// mode 7 / 8: put of o[100] (outside the range), (mode 8: a flag S -> V), Adds reading o[96..103];
// mode 9: SetValue of t[5] at another line with nothing pending (recorded without the full check), Adds; mode 15:
// the same, then put of t[5] (its range had those bytes), Adds; mode 16: o written by put and another place in turn;
// mode 17: then a third line writes one of put2's elements, put2 writes it again, Adds reads it; mode 18: then put2
// writes one of put's elements, Adds reads it; mode 19: one place writes a float every other element, then an int64;
// mode 20 / 21: three taps that fill o[0..64) and read it with Muls and Add into t2 (mode 21: with a flag V -> S first);
// mode 22 / 23: o[0..64) filled one element after another, then Muls of o[0..64) (22) or o[0..4) (23) with no flag S -> V;
// mode 24: mode 22 with another line's write of o[3] after the fill;
// modes 10-13: an instruction of another pipe S does not know complete touches t, then put of t[7] (inside the range):
// 10 Duplicate (a V write), 11 Adds reading t (a V read), 12 DataCopy to y (an MTE3 read), 13 DataCopy from x (MTE2).
// Then every buffer goes to y (auto-sync off: the flags the kernel writes are all there is).
extern "C" __global__ __aicore__ void scalar_ub_writes(GM_ADDR x, GM_ADDR y, uint32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, buf2, buf3;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(buf2, 256 * sizeof(float));
    pipe.InitBuffer(buf3, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>(), t2 = buf2.Get<float>(), o = buf3.Get<float>();
    LocalTensor<float> view = buf.Get<float>(192);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 3 * 256);
    Duplicate(o, 0.0f, 256);
    event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    auto put = [](const LocalTensor<float> &d, uint32_t i, float v) { d.SetValue(i, v); };   // EXPECT put
    auto flagSV = [&]() {
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    };
    for (int r = 0; r < 4; ++r)
        for (uint32_t i = 0; i < 256; ++i) put(t, i, static_cast<float>(r * 1000 + i));
    for (uint32_t i = 0; i < 256; ++i) put(t2, i, 2.0f);
    if (mode == 1) put(view, 200, 7.0f);
    if (mode == 2) put(view, 300, 7.0f);
    if (mode == 3 || mode == 4 || mode == 14) {
        if (mode == 14) PipeBarrier<PIPE_ALL>();
        else flagSV();
        for (uint32_t i = 0; i < 64; ++i) put(t, i, 3.0f);
        if (mode == 4) flagSV();
        Adds(t, t, 1.0f, 64);                                                                    // EXPECT Adds t
    }
    if (mode == 5 || mode == 6 || mode == 9 || mode == 15) {
        if (mode == 5 || mode == 6) Duplicate(o, 5.0f, 256);
        t.SetValue(5, 9.0f);                                                                     // EXPECT other place
        if (mode == 5 || mode == 6) {
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
        }
        if (mode != 9) put(t, 5, 4.0f);
        if (mode == 6) flagSV();
        Adds(t, t, 1.0f, 64);                                                                    // EXPECT Adds t (5)
    }
    if (mode == 7 || mode == 8) {
        put(o, 100, 6.0f);
        if (mode == 8) flagSV();
        Adds(o[96], o[96], 1.0f, 8);                                                             // EXPECT Adds o
    }
    if (mode == 16 || mode == 17 || mode == 18) {   // two places in turn, as an unrolled loop writes: each keeps a range of its own
        auto put2 = [](const LocalTensor<float> &d, uint32_t i, float v) { d.SetValue(i, v); };   // EXPECT put2
        for (int r = 0; r < 3; ++r)
            for (uint32_t i = 0; i < 128; ++i) {
                put(o, 2 * i, static_cast<float>(r * 1000 + 2 * i));
                put2(o, 2 * i + 1, static_cast<float>(r * 1000 + 2 * i + 1));
            }
        if (mode == 17) {
            o.SetValue(67, 5.0f);   // one of put2's elements, from a third line
            put2(o, 67, 6.0f);
            Adds(o[64], o[64], 1.0f, 8);                                                         // EXPECT Adds o (17)
        }
        if (mode == 18) {
            put2(o, 66, 6.0f);   // one of put's elements, from put2: not one of put2's
            Adds(o[64], o[64], 1.0f, 8);                                                         // EXPECT Adds o (18)
        }
    }
    if (mode == 19) {   // one place, two scalar sizes: a float every other element, then an int64 over one and the next
        auto putAny = [](const auto &d, uint32_t i, auto v) { d.SetValue(i, v); };                // EXPECT putAny
        for (int r = 0; r < 2; ++r)
            for (uint32_t i = 0; i < 16; ++i) {
                putAny(o, 2 * i, static_cast<float>(i));
                o.SetValue(2 * i + 1, 0.0f);
            }
        putAny(o.ReinterpretCast<int64_t>(), 4, static_cast<int64_t>(7));   // o[8] (putAny's) and o[9] (the other line's)
        Adds(o[8], o[8], 1.0f, 8);                                                               // EXPECT Adds o (19)
    }
    if (mode == 20 || mode == 21) {   // a transposed convolution's taps: fill o[0..64) one element after another, then V
        for (int tap = 0; tap < 3; ++tap) {   // reads it (Muls, Add into t2); mode 21 waits for V before the next fill
            for (uint32_t i = 0; i < 64; ++i) {
                if (mode == 21 && tap > 0 && i == 0) {
                    SetFlag<HardEvent::V_S>(vs);
                    WaitFlag<HardEvent::V_S>(vs);
                }
                o.SetValue(i, static_cast<float>(tap * 100 + i));                                  // EXPECT tap fill
            }
            flagSV();
            Muls(o, o, 2.0f, 64);
            Add(t2, t2, o, 64);
        }
    }
    if (mode >= 22 && mode <= 24) {   // a run of appends (o[2..64) recorded later, all at once), then V reads it unflagged
        for (uint32_t i = 0; i < 64; ++i) o.SetValue(i, static_cast<float>(i));                  // EXPECT run fill
        if (mode == 24) o.SetValue(3, 9.0f);                                                        // EXPECT other writer
        Muls(o, o, 2.0f, mode == 23 ? 4 : 64);                                                      // EXPECT Muls run
    }
    if (mode >= 10 && mode <= 13) {
        if (mode == 10) Duplicate(t, 1.0f, 64);
        if (mode == 11) Adds(o, t, 1.0f, 64);
        if (mode == 12) DataCopy(yGm[512], t, 64);
        if (mode == 13) DataCopy(t, xGm, 64);
        put(t, 7, 8.0f);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 256);
    DataCopy(yGm[256], t2, 256);
    DataCopy(yGm[512], o, 256);
}
'''


def _line(mark):
    return next(i + 1 for i, text in enumerate(KERNEL.strip("\n").splitlines()) if text.rstrip().endswith(mark))


def _args(mode):
    return [GM("x", np.arange(256, dtype=np.float32)), GM("y", None, "out", shape=(3 * 256,), dtype=np.float32),
            Scalar(mode, "uint32")]


def _run(mode, block_dim=2, **kw):
    b = build({"scalar_ub_writes.cpp": KERNEL.lstrip("\n")})
    assert b.ok, b.diagnostics
    return run(b, _args(mode), block_dim=block_dim, auto_sync=False, **kw)


def _error(r):
    assert not r.ok and len(r.errors) == 1, r.diagnostics
    return r.errors[0]


def _want_t():
    return np.arange(256, dtype=np.float32) + 3000


def test_inlined_writes_compute_the_same_values_and_count_as_the_trace_records_them():
    r = _run(0)
    assert r.ok, r.diagnostics
    y = r.outputs["y"]
    np.testing.assert_array_equal(y[:256], _want_t())
    np.testing.assert_array_equal(y[256:512], np.full(256, 2.0, np.float32))
    np.testing.assert_array_equal(y[512:], np.zeros(256, np.float32))
    b = build({"scalar_ub_writes.cpp": KERNEL.lstrip("\n")})
    t = trace(b, _args(0), block_dim=2, auto_sync=False)
    assert r.work["S"] == t.work()["S"], (r.work["S"], t.work()["S"])
    assert r.work["S"][0] >= 2 * (4 * 256 + 256), r.work["S"]


def test_two_places_in_turn_compute_the_same_values_and_count_as_the_trace_records_them():
    r = _run(16)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][512:], np.arange(256, dtype=np.float32) + 2000)
    t = trace(build({"scalar_ub_writes.cpp": KERNEL.lstrip("\n")}), _args(16), block_dim=2, auto_sync=False)
    assert r.work["S"] == t.work()["S"], (r.work["S"], t.work()["S"])


def test_another_places_write_of_a_strided_ranges_element_is_recorded_again():
    "A range of every other element: another line's write of one of them drops it, and put2's next write is recorded."
    e = _error(_run(17))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds o (17)")), e
    assert e.context.get("other_line") == _line("EXPECT put2"), e.context


@pytest.mark.parametrize("mode, mark", [(18, "EXPECT put2"), (19, "EXPECT putAny")])
def test_a_write_of_bytes_that_are_not_one_of_the_ranges_elements_is_recorded(mode, mark):
    "The element test: put2's every-other range does not hold put's elements (18), nor an 8-byte write over two (19)."
    e = _error(_run(mode))
    assert (e.kind, e.line) == ("ub-race", _line(f"EXPECT Adds o ({mode})")), e
    assert e.context.get("other_line") == _line(mark), e.context


def test_inlined_writes_without_a_race_check_compute_the_same_values():
    r = _run(0, races="off")
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:256], _want_t())


def test_an_index_past_the_view_inside_the_range_is_still_a_warning():
    r = _run(1)
    assert r.ok, r.diagnostics
    w = [d for d in r.diagnostics if d.kind == "ub-out-of-range"]
    assert w and all(d.line == _line("EXPECT put") for d in w) and "SetValue(200)" in w[0].message, w
    assert r.outputs["y"][200] == 7.0


def test_an_index_past_the_buffer_inside_the_range_is_still_an_error():
    e = _error(_run(2))
    assert (e.kind, e.line) == ("ub-out-of-range", _line("EXPECT put")) and "SetValue(300)" in e.message, e


def test_a_write_after_a_flag_from_the_scalar_pipe_is_recorded_again():
    "The epoch: after SetFlag<S_V>, the range's writes are known complete to V; the writes after it are not."
    e = _error(_run(3))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds t")) and "S_V" in e.hint, e
    assert e.context.get("other_line") == _line("EXPECT put"), e.context
    r = _run(4)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:64], np.full(64, 4.0, np.float32))


def test_a_write_after_a_barrier_of_all_pipes_is_recorded_again():
    "The epoch: PipeBarrier<PIPE_ALL> makes the range's writes known complete to every pipe; the writes after it are not."
    e = _error(_run(14))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds t")) and "S_V" in e.hint, e
    assert e.context.get("other_line") == _line("EXPECT put"), e.context


def test_a_write_after_another_places_checked_write_names_its_own_line():
    "The epoch moves when the full race check records a scalar write: the bytes' record then names the other place."
    e = _error(_run(5))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds t (5)")), e
    assert e.context.get("other_line") == _line("EXPECT put"), e.context
    r = _run(6)
    assert r.ok, r.diagnostics
    assert r.outputs["y"][5] == 5.0


def test_a_write_outside_the_range_is_recorded():
    "The range: a write of bytes the place never wrote has no record yet, and V's read of them races with it."
    e = _error(_run(7))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds o")), e
    assert e.context.get("other_line") == _line("EXPECT put"), e.context
    r = _run(8)
    assert r.ok, r.diagnostics
    assert r.outputs["y"][512 + 100] == 7.0


def test_another_places_write_inside_the_range_is_recorded_as_its_own():
    "The place: another line's write of bytes inside the range, with nothing pending, is recorded (and named) as its own."
    e = _error(_run(9))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds t (5)")), e
    assert e.context.get("other_line") == _line("EXPECT other place"), e.context


def test_a_write_after_another_places_write_of_its_bytes_is_recorded_again():
    "Another place's write of bytes inside a range takes them out of it: the range's own place writes them again."
    e = _error(_run(15))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Adds t (5)")), e
    assert e.context.get("other_line") == _line("EXPECT put"), e.context


@pytest.mark.parametrize("mode, hazard, other", [(10, "write-after-write", "V"), (11, "write-after-read", "V"),
                                                 (12, "write-after-read", "MTE3"), (13, "write-after-write", "MTE2")])
def test_a_write_inside_the_range_with_another_pipe_pending_is_still_a_race(mode, hazard, other):
    """The four race words: V and MTE2 writes, V and MTE3 reads of UB the scalar unit does not know complete. The other
    pipe's instruction itself races with the range's writes (a warning with races = warning, and the run goes on);
    the write after it must be reported too."""
    r = _run(mode, block_dim=1, races="warning")   # one block: mode 12's copy to y is no other block's business
    assert r.ok, r.diagnostics
    w = [d for d in r.diagnostics if d.kind == "ub-race" and d.line == _line("EXPECT put")]
    assert len(w) == 1 and (w[0].context.get("hazard"), w[0].context.get("other_pipe")) == (hazard, other), r.diagnostics


def test_the_taps_of_a_transposed_convolution_keep_their_race_checks():
    """Each tap fills a vector one element after another (after its first write, each is the next element of the place's
    range: local_write's appends) and V reads it and writes it (Muls in place). Without a flag V -> S the next tap's
    first write is a race with Muls's write, at the fill's line; with it, t2 holds the three taps' sums, and the S work is the trace's."""
    e = _error(_run(20))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT tap fill")), e
    assert (e.context.get("hazard"), e.context.get("other_pipe")) == ("write-after-write", "V"), e.context   # Muls's
    r = _run(21)
    assert r.ok, r.diagnostics
    i = np.arange(64, dtype=np.float32)
    np.testing.assert_array_equal(r.outputs["y"][256:320], 2.0 + sum(2 * (tap * 100 + i) for tap in range(3)))
    t = trace(build({"scalar_ub_writes.cpp": KERNEL.lstrip("\n")}), _args(21), block_dim=2, auto_sync=False)
    assert r.work["S"] == t.work()["S"], (r.work["S"], t.work()["S"])


# o is the third 1 KB buffer of UB: its element i is UB bytes 2048 + 4 i .. 2048 + 4 i + 3
O_BASE = 2048


@pytest.mark.parametrize("mode, offset, size, other", [(22, 28, 4, "EXPECT run fill"), (23, 0, 16, "EXPECT run fill"),
                                                       (24, 12, 4, "EXPECT other writer")])
def test_a_run_of_appends_is_recorded_as_its_writes_one_by_one(mode, offset, size, other):
    """The fill's writes after its second are the next element of the place's range and take local_set's run of appends
    (runtime.h): no record when made, their race records made at once when Muls's race check starts
    (RaceChecker::settle). The report must be the one a record per write gives: in o's first 32-byte block the last
    write is element 7 (bytes 28..31, what a read of the block is reported against: mode 22) and elements 0..6 are the
    earlier writes' bytes (a read of elements 0..3 alone is reported against them: mode 23); another line's write of
    element 3 after the run is the block's last write (mode 24: the run's records come before it)."""
    e = _error(_run(mode, block_dim=1))
    assert (e.kind, e.line) == ("ub-race", _line("EXPECT Muls run")), e
    assert (e.context.get("hazard"), e.context.get("other_pipe")) == ("read-after-write", "S"), e.context
    assert e.context.get("other_line") == _line(other), e.context
    assert (e.context.get("ub_offset"), e.context.get("bytes")) == (O_BASE + offset, size), e.context
