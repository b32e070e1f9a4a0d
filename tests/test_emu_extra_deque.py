"""A DeQue past the EnQues of a depth-1 queue (run rule `extra_deque`). CANN's GroupedMatmulSwigluQuant EnQues its
per-row scale buffer once, DeQues it once per row to set the row's scale and once more to copy the scales out, then
EnQues it back. By the API reference this is an error (a DeQue on an empty queue; CANN's CPU-debug build stops), and the
judge refuses it. On the NPU the depth-1 TQueBind keeps the buffer of its last EnQue as its one entry: a DeQue hands it
out, waits on its EnQue event only while it holds one (the first DeQue gives the id back), and its uint8_t count is
checked only in the debug build, so each further DeQue returns the same buffer at once and the count wraps below 0.
Under CHIP (`extra_deque="warning"`) the emulator does that, with one warning per place naming the line. A queue never
EnQueued, a buffer freed since, and a queue deeper than 1 stay errors under both rule sets."""
from dataclasses import replace

import numpy as np
import pytest

from ascendcraft.emu import CHIP, GM, JUDGE, RunRules, build, run

R, L = 8, 16   # rows, floats a row

# The GroupedMatmulSwigluQuant pattern, small: y[r] = 2 * x[r, 0] + r, set through a DeQue per row, copied out through
# one more; c gets GetTensorCountInQue() after the extra DeQues and after the EnQue back.
ROWS = r"""#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t R = 8, L = 16;
extern "C" __global__ __aicore__ void rows(GM_ADDR x, GM_ADDR y, GM_ADDR c) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> scaleQ;
    TBuf<TPosition::VECCALC> countBuf;
    pipe.InitBuffer(inQ, 1, R * L * sizeof(float));
    pipe.InitBuffer(scaleQ, 2, R * sizeof(float));
    pipe.InitBuffer(countBuf, 8 * sizeof(int32_t));
    GlobalTensor<float> xg, yg;
    GlobalTensor<int32_t> cg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    cg.SetGlobalBuffer((__gm__ int32_t*)c);
    LocalTensor<int32_t> counts = countBuf.Get<int32_t>();
    LocalTensor<float> scale0 = scaleQ.AllocTensor<float>();
    scaleQ.EnQue(scale0);
    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xg, R * L);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    PipeBarrier<PIPE_ALL>();
    for (uint32_t r = 0; r < R; r++) {
        float v = xl.GetValue(r * L) * 2.0f + static_cast<float>(r);
        LocalTensor<float> s = scaleQ.DeQue<float>();   // ROW: from the second row on, past the one EnQue
        s.SetValue(r, v);
    }
    LocalTensor<float> s = scaleQ.DeQue<float>();       // OUT: one more
    counts.SetValue(0, scaleQ.GetTensorCountInQue());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, s, R);
    scaleQ.EnQue(s);
    counts.SetValue(1, scaleQ.GetTensorCountInQue());
    counts.SetValue(2, scaleQ.HasTensorInQue() ? 1 : 0);
    s = scaleQ.DeQue<float>();
    scaleQ.FreeTensor(s);
    inQ.FreeTensor(xl);
    PipeBarrier<PIPE_ALL>();
    DataCopy(cg, counts, 8);
}
"""


def _line(src, mark):
    return next(i + 1 for i, line in enumerate(src.splitlines()) if mark in line)


def _run_rows(rules):
    x = np.arange(R * L, dtype=np.float32).reshape(R, L) / 4
    return x, run(build({"rows.cpp": ROWS}), [GM("x", x), GM("y", np.zeros(R, np.float32), "out"),
                                              GM("c", np.zeros(8, np.int32), "out")], block_dim=1, rules=rules)


def test_the_judge_refuses_a_dequeue_past_the_enqueues_naming_the_line():
    _, r = _run_rows(JUDGE)
    assert not r.ok
    [d] = r.errors
    assert d.kind == "queue-empty" and d.file == "rows.cpp" and d.line == _line(ROWS, "// ROW")
    assert "depth 1" in d.message and "scaleQ.DeQue" in d.source_line and 'extra_deque="warning"' in d.hint


def test_on_the_chip_rules_each_dequeue_hands_out_the_last_buffer_and_warns_once_per_line():
    x, r = _run_rows(CHIP)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x[:, 0] + np.arange(R, dtype=np.float32))
    warned = [d for d in r.diagnostics if d.kind == "queue-empty"]
    assert [(d.line, d.severity) for d in warned] == [(_line(ROWS, "// ROW"), "warning"), (_line(ROWS, "// OUT"), "warning")]
    assert all(d.file == "rows.cpp" and 'extra_deque="warning"' in d.message for d in warned)
    # the NPU's uint8_t count: 0 - 8 extra DeQues wraps to 248; the EnQue back makes it 249, which is "a tensor in it"
    np.testing.assert_array_equal(r.outputs["c"][:3], [256 - R, 256 - R + 1, 1])


def test_one_rule_strict_in_the_chip_set_refuses_it_too():
    _, r = _run_rows(replace(CHIP, extra_deque="error"))
    assert [d.kind for d in r.errors] == ["queue-empty"] and r.errors[0].line == _line(ROWS, "// ROW")
    with pytest.raises(ValueError, match=r"extra_deque must be one of \('error', 'warning'\)"):
        RunRules(extra_deque="off")


# Cases the rule must still refuse under CHIP: the NPU would hand out something other than a buffer the kernel holds.
NEVER = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void never(GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64);
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> s = q.DeQue<float>();   // BAD: no EnQue ever (the NPU reads an unset entry)
    DataCopy(yg, s, 16);
    q.FreeTensor(s);
}
"""

FREED = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void freed(GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 64);
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> s = q.AllocTensor<float>();
    Duplicate(s, 1.0f, 16);
    q.EnQue(s);
    s = q.DeQue<float>();
    DataCopy(yg, s, 16);
    q.FreeTensor(s);
    LocalTensor<float> t = q.DeQue<float>();   // BAD: its last buffer was freed
    DataCopy(yg, t, 16);
}
"""

DEEP = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void deep(GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 2> q;
    pipe.InitBuffer(q, 2, 64);
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> s = q.AllocTensor<float>();
    Duplicate(s, 1.0f, 16);
    q.EnQue(s);
    s = q.DeQue<float>();
    LocalTensor<float> t = q.DeQue<float>();   // BAD: depth 2 (a ring: the next entry is not this buffer)
    DataCopy(yg, s, 16);
    q.FreeTensor(s);
}
"""


@pytest.mark.parametrize("name, src", [("never", NEVER), ("freed", FREED), ("deep", DEEP)])
def test_the_chip_rules_still_refuse_a_dequeue_with_no_held_buffer_behind_it(name, src):
    r = run(build({f"{name}.cpp": src}), [GM("y", np.zeros(16, np.float32), "out")], block_dim=1, rules=CHIP)
    assert not r.ok
    [d] = r.errors
    assert d.kind == "queue-empty" and d.line == _line(src, "// BAD") and d.file == f"{name}.cpp"
    assert not [w for w in r.diagnostics if w.kind == "queue-empty" and w.severity == "warning"]
