"""A flag counts its SetFlags (runtime/sync/emu_flags.cpp): a second SetFlag of one event and id before its WaitFlag is
a warning, `event-set-twice`, and each later WaitFlag takes one set, oldest first. The API reference calls the double set
undefined behaviour and names one outcome, a core hung by a `PipeBarrier<PIPE_ALL>` between the sets and their waits
(an error here, tests/emu_kernels/broken/event_double_set.cpp); CANN's own operators set twice and wait twice with no
barrier between (ops-nn add_rms_norm's float32 path: two `FetchEventID(MTE2_V)` give the same id) and pass on the NPU.

The kernels here are ours, written in that operator's style: two inputs copied in, one flag id fetched twice, set after
each copy, waited for twice, then the vector sum."""
import numpy as np

from ascendcraft.emu import GM, build
from ascendcraft.emu import run as _run


def run(*args, **kw):
    "emu.run with auto-sync off: the flags are all the kernel has, as the race check sees them."
    return _run(*args, auto_sync=False, **kw)


N = 256
X1 = np.random.default_rng(3).standard_normal(N).astype(np.float32)
X2 = np.random.default_rng(4).standard_normal(N).astype(np.float32)

ADD_TWO = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void add_two(GM_ADDR x1, GM_ADDR x2, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 3 * 256 * sizeof(float));
    GlobalTensor<float> x1Gm, x2Gm, yGm;
    x1Gm.SetGlobalBuffer((__gm__ float *)x1, 256);
    x2Gm.SetGlobalBuffer((__gm__ float *)x2, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> a = b.Get<float>();
    LocalTensor<float> c = a[256];
    LocalTensor<float> o = a[512];
    DataCopy(a, x1Gm, 256);
    event_t first = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(first);
    DataCopy(c, x2Gm, 256);
    event_t second = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(second);  // SECOND SET
WAITS
    Add(o, a, c, 256);
    event_t out = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(out);
    WaitFlag<HardEvent::V_MTE3>(out);
    DataCopy(yGm, o, 256);
}
"""


def line_of(text: str, mark: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if mark in line)


def kernel(waits: str) -> str:
    return ADD_TWO.replace("WAITS\n", waits)


def args():
    return [GM("x1", X1), GM("x2", X2), GM("y", np.empty(N, np.float32), "out")]


def test_two_sets_and_two_waits_run_with_a_warning_at_the_second_set_and_match():
    text = kernel("    WaitFlag<HardEvent::MTE2_V>(first);\n    WaitFlag<HardEvent::MTE2_V>(second);\n")
    r = run(build({"add_two.cpp": text}), args(), block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert [(d.kind, d.severity, d.line) for d in r.diagnostics] == [
        ("event-set-twice", "warning", line_of(text, "SECOND SET"))], "\n".join(map(str, r.diagnostics))
    assert "undefined behaviour" in r.diagnostics[0].message and r.diagnostics[0].hint
    np.testing.assert_array_equal(r.outputs["y"], X1 + X2)


def test_the_first_wait_takes_only_the_first_set():
    # after one wait, the second copy is not ordered before the vector read: the race check names it
    one = kernel("    WaitFlag<HardEvent::MTE2_V>(first);\n    Add(o, c, c, 256);  // READ\n"
                 "    WaitFlag<HardEvent::MTE2_V>(second);\n")
    r = run(build({"one.cpp": one}), args(), block_dim=1, races="warning")
    races = [d for d in r.diagnostics if d.kind == "ub-race"]
    assert [d.line for d in races] == [line_of(one, "READ")], "\n".join(map(str, r.diagnostics))
    # after both waits it is
    both = kernel("    WaitFlag<HardEvent::MTE2_V>(first);\n    WaitFlag<HardEvent::MTE2_V>(second);\n"
                  "    Add(o, c, c, 256);  // READ\n")
    r = run(build({"both.cpp": both}), args(), block_dim=1, races="warning")
    assert r.ok and not [d for d in r.diagnostics if d.kind == "ub-race"], "\n".join(map(str, r.diagnostics))


def test_a_set_left_over_is_still_an_error_at_the_end():
    text = kernel("    WaitFlag<HardEvent::MTE2_V>(first);\n")
    r = run(build({"left.cpp": text}), args(), block_dim=1, races="warning")   # (Add reads the second copy unordered)
    assert not r.ok and [(d.kind, d.line) for d in r.errors] == [("event-unmatched", line_of(text, "SECOND SET"))]
    assert ("ub-race", line_of(text, "Add(o, a, c")) in [(d.kind, d.line) for d in r.diagnostics]
    assert "never waited for" in r.errors[0].message


def test_a_third_wait_has_no_set_left():
    text = kernel("    WaitFlag<HardEvent::MTE2_V>(first);\n    WaitFlag<HardEvent::MTE2_V>(second);\n"
                  "    WaitFlag<HardEvent::MTE2_V>(second);  // THIRD\n")
    r = run(build({"third.cpp": text}), args(), block_dim=1)
    assert not r.ok and [(d.kind, d.line) for d in r.errors] == [("event-unmatched", line_of(text, "THIRD"))]
