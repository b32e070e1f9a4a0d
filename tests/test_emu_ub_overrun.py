"""An operand that runs past the UB buffer its LocalTensor came from, into the next buffer InitBuffer made (hicann ops-nn
mse_loss_grad_v2's Cast back counts three tiles over a one-tile buffer; mul_addn's bfloat16 Cast of K elements into a
buffer sized for the M tile): on the NPU the vector unit and the MTEs address UB, not tensors, so the kernel reads and
writes the neighbour's bytes, and these kernels passed on the 910B. The run option `ub_overrun` says what the emulator
does: "error" (emu.run's default, the judge's) stops there; "warning" (run_project's default, for CANN's kernels)
reports it once per place with the buffer it lands in and carries the access out on the emulated UB, whose layout is
AscendC's (InitBuffer order from offset 0, each buffer rounded up to 32 bytes). Past the end of UB stays an error."""
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import CHIP, GM, RunRules, build, run
from ascendcraft.opproject import load_project, run_project

from _opprojects import unary_float_project

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void over(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, c, d;
    pipe.InitBuffer(a, 8 * sizeof(float));    // UB 0..32
    pipe.InitBuffer(b, 5 * sizeof(float));    // UB 32..64: 20 bytes, rounded up to 32
    pipe.InitBuffer(c, 16 * sizeof(float));   // UB 64..128
    pipe.InitBuffer(d, 8 * sizeof(float));    // UB 128..160
    GlobalTensor<float> xg, yg, zg, wg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    zg.SetGlobalBuffer((__gm__ float*)z);
    wg.SetGlobalBuffer((__gm__ float*)w);
    LocalTensor<float> la = a.Get<float>(), lb = b.Get<float>(), lc = c.Get<float>(), ld = d.Get<float>();
    Duplicate(lb, 7.0f, 8);                   // b's whole 32 bytes (inside its buffer)
    DataCopy(la, xg, 8);
    PipeBarrier<PIPE_ALL>();
    Muls(lc, la, 2.0f, 16);                   // READ: 16 floats of a's 8: the last 8 are b's
    PipeBarrier<PIPE_ALL>();
    float v = la.GetValue(9);                 // GET: element 9 of a's 8: b's element 1
    Adds(la, lc, 1.0f, 16);                   // WRITE: 16 floats into a's 8: the last 8 land in b
    PipeBarrier<PIPE_ALL>();
    Duplicate(ld, v, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lb, 8);
    DataCopy(zg, lc, 16);
    DataCopy(wg, ld, 8);
}
"""

TOP = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void top(GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> rest, last;
    pipe.InitBuffer(rest, 196608 - 32);
    pipe.InitBuffer(last, 32);                // the last 32 bytes of UB
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> l = last.Get<float>();
    Duplicate(l, 1.0f, 16);                   // PAST: 64 bytes from UB offset 196576: 32 past the end of UB
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, l, 8);
}
"""


def _line(text: str, tag: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if f"// {tag}" in line)


def _args(x):
    return [GM("x", x), GM("y", np.zeros(8, np.float32), "out"), GM("z", np.zeros(16, np.float32), "out"),
            GM("w", np.zeros(8, np.float32), "out")]


def test_past_its_buffer_is_an_error_at_its_place_by_default():
    r = run(build({"over.cpp": KERNEL}), _args(np.arange(8, dtype=np.float32)), block_dim=1)
    assert not r.ok
    errors = [d for d in r.errors if d.kind == "ub-out-of-range"]
    assert errors and errors[0].line == _line(KERNEL, "READ") and errors[0].file.endswith("over.cpp")
    assert "holds only 32 bytes" in errors[0].message


def test_warning_carries_the_access_out_on_the_neighbour():
    x = np.arange(8, dtype=np.float32)
    r = run(build({"over.cpp": KERNEL}), _args(x), block_dim=1, rules=RunRules(ub_overrun="warning"))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    z = np.concatenate([2 * x, np.full(8, 14, np.float32)])    # the read got b's 7s
    np.testing.assert_array_equal(r.outputs["z"], z)
    np.testing.assert_array_equal(r.outputs["y"], z[8:] + 1)   # the write changed b: 15s, not its 7s
    np.testing.assert_array_equal(r.outputs["w"], np.full(8, 7, np.float32))   # GetValue(9) read b's element 1
    warned = {d.line: d for d in r.diagnostics if d.kind == "ub-out-of-range"}
    assert sorted(warned) == sorted(_line(KERNEL, t) for t in ("READ", "GET", "WRITE"))
    assert all(d.severity == "warning" for d in warned.values())
    read = warned[_line(KERNEL, "READ")].message
    # the buffer, the bytes past it, and the buffer they land in (b: the InitBuffer two lines below a's)
    assert "UB 0..64" in read and "UB 32..64 is the TBuf, buffer 0 of 1 that InitBuffer at over.cpp:" in read
    assert f"over.cpp:{_line(KERNEL, 'UB 32..64')}" in read


def test_past_the_end_of_ub_stays_an_error():
    r = run(build({"top.cpp": TOP}), [GM("y", np.zeros(8, np.float32), "out")], block_dim=1, rules=RunRules(ub_overrun="warning"))
    assert not r.ok
    assert [d.line for d in r.errors if d.kind == "ub-out-of-range"][:1] == [_line(TOP, "PAST")]


def test_an_unknown_mode_is_refused():
    with pytest.raises(Exception, match="ub_overrun must be one of"):
        RunRules(ub_overrun="off")


RACE = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void race(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 8 * sizeof(float));
    pipe.InitBuffer(b, 8 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<float> la = a.Get<float>(), lb = b.Get<float>();
    DataCopy(lb, xg, 8);                      // MTE2 writes b
    Duplicate(la, 1.0f, 16);                  // RACE: the vector unit writes b's bytes too, nothing orders the two
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lb, 8);
}
"""


def test_the_race_check_sees_the_neighbours_bytes():
    r = run(build({"race.cpp": RACE}), [GM("x", np.ones(8, np.float32)), GM("y", np.zeros(8, np.float32), "out")],
            block_dim=1, rules=RunRules(ub_overrun="warning"), auto_sync=False)   # the compiler's automatic sync off: the kernel's own
    assert [d.line for d in r.errors if d.kind == "ub-race"][:1] == [_line(RACE, "RACE")]


# the scratch buffer is sized for 8 floats, the Muls into it counts n (16): it spills into `out`, which the Adds
# then writes again whole, so the result is right on the NPU
PROJECT_KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void spill_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, scratch, out;
    pipe.InitBuffer(in, t.n * sizeof(float));
    pipe.InitBuffer(scratch, 8 * sizeof(float));
    pipe.InitBuffer(out, t.n * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.n);
    yg.SetGlobalBuffer((__gm__ float*)y, t.n);
    LocalTensor<float> li = in.Get<float>(), ls = scratch.Get<float>(), lo = out.Get<float>();
    DataCopy(li, xg, t.n);
    PipeBarrier<PIPE_ALL>();
    Muls(ls, li, 2.0f, t.n);
    PipeBarrier<PIPE_ALL>();
    Adds(lo, li, 1.0f, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lo, t.n);
}
"""


def test_run_project_carries_an_overrun_out_by_default(tmp_path: Path):
    unary_float_project(tmp_path, "SpillCustom", PROJECT_KERNEL)
    x = np.arange(16, dtype=np.float32)
    project = load_project(tmp_path)
    r = run_project(project, {"x": x}, outputs={"y": ((16,), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
    assert [d.severity for d in r.run.diagnostics if d.kind == "ub-out-of-range"] == ["warning"]
    strict = run_project(project, {"x": x}, outputs={"y": ((16,), np.float32)}, rules=replace(CHIP, ub_overrun="error"))
    assert not strict.run.ok and [d.kind for d in strict.run.errors][:1] == ["ub-out-of-range"]
