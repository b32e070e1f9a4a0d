"""A vector mask outside its documented range (a continuous mask of 0 or past the lanes of a repeat, a bit mask of zeros):
the API reference bounds the continuous mask by 1..lanes, and CANN's CPU-debug build stops there, but on A2 the API turns
the mask into the two mask registers (AscendCUtils::SetMask) and the vector unit writes the lanes whose bits are set: 0
sets none, a count past the lanes sets all. ops-transformer's rotary_position_embedding_grad calls `Adds` with mask 0 for
an empty tail and passed on the 910B. The run option `vector_mask` says what the emulator does: "error" (emu.run's
default, the judge's) stops there; "warning" (run_project's default, for CANN's kernels) reports it once per place and
runs the instruction with the lanes A2's registers then select."""
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import CHIP, GM, RunRules, build, run
from ascendcraft.opproject import load_project, run_project

from _opprojects import unary_float_project

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void masks(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR v) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> s, a, b, c, d;
    pipe.InitBuffer(s, 64 * sizeof(float));
    pipe.InitBuffer(a, 64 * sizeof(float));
    pipe.InitBuffer(b, 64 * sizeof(float));
    pipe.InitBuffer(c, 64 * sizeof(float));
    pipe.InitBuffer(d, 64 * sizeof(float));
    GlobalTensor<float> xg, yg, zg, wg, vg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    zg.SetGlobalBuffer((__gm__ float*)z);
    wg.SetGlobalBuffer((__gm__ float*)w);
    vg.SetGlobalBuffer((__gm__ float*)v);
    LocalTensor<float> ls = s.Get<float>(), la = a.Get<float>(), lb = b.Get<float>(), lc = c.Get<float>(), ld = d.Get<float>();
    DataCopy(ls, xg, 64);
    Duplicate(la, 5.0f, 64);
    Duplicate(lb, 5.0f, 64);
    Duplicate(lc, 3.0f, 64);
    Duplicate(ld, 5.0f, 64);
    PipeBarrier<PIPE_ALL>();
    uint64_t tail = 64 - 64;                                  // an empty tail
    uint64_t many = 100;
    uint64_t none[2] = {0, 0};
    Adds(la, ls, 1.0f, tail, 1, {1, 1, 8, 8});                // ZERO: no lane on A2
    Adds(lb, ls, 1.0f, many, 1, {1, 1, 8, 8});                // MANY: 100 of float's 64 lanes: all of them
    Muls(lc, ls, 2.0f, none, 1, {1, 1, 8, 8});                // BITS: no lane
    SetMaskNorm();
    SetVectorMask<float, MaskMode::NORMAL>(tail);             // SET: no lane
    Adds<float, false>(ld, ls, 1.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, la, 64);
    DataCopy(zg, lb, 64);
    DataCopy(wg, lc, 64);
    DataCopy(vg, ld, 64);
}
"""


def _line(tag: str) -> int:
    return next(i + 1 for i, line in enumerate(KERNEL.splitlines()) if f"// {tag}" in line)


def _args(x):
    return [GM("x", x)] + [GM(n, np.zeros(64, np.float32), "out") for n in "yzwv"]


X = np.arange(64, dtype=np.float32) - 20


def test_a_mask_outside_its_range_is_an_error_at_its_place_by_default():
    r = run(build({"masks.cpp": KERNEL}), _args(X), block_dim=1)
    assert not r.ok
    errors = [d for d in r.errors if d.kind == "vector-mask"]
    assert errors and errors[0].line == _line("ZERO") and errors[0].file.endswith("masks.cpp")
    assert "must be 1..64" in errors[0].message


def test_warning_runs_the_lanes_a2s_mask_registers_select():
    r = run(build({"masks.cpp": KERNEL}), _args(X), block_dim=1, rules=RunRules(vector_mask="warning"))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], np.full(64, 5, np.float32))   # mask 0: nothing written
    np.testing.assert_array_equal(r.outputs["z"], X + 1)                        # mask 100: all 64 lanes
    np.testing.assert_array_equal(r.outputs["w"], np.full(64, 3, np.float32))   # zero bits: nothing written
    np.testing.assert_array_equal(r.outputs["v"], np.full(64, 5, np.float32))   # SetVectorMask(0): nothing written
    warned = {d.line: d for d in r.diagnostics if d.kind == "vector-mask"}
    assert sorted(warned) == sorted(_line(t) for t in ("ZERO", "MANY", "BITS", "SET"))
    assert all(d.severity == "warning" for d in warned.values())
    assert "no lane" in warned[_line("ZERO")].message and "every lane" in warned[_line("MANY")].message


def test_an_unknown_mode_is_refused():
    with pytest.raises(Exception, match="vector_mask must be one of"):
        RunRules(vector_mask="off")


# whole repeats of 64 floats, then the tail's Adds with mask n % 64, which is 0 when n is a multiple of 64
PROJECT_KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void tail_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, out;
    pipe.InitBuffer(in, t.n * sizeof(float));
    pipe.InitBuffer(out, t.n * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.n);
    yg.SetGlobalBuffer((__gm__ float*)y, t.n);
    LocalTensor<float> li = in.Get<float>(), lo = out.Get<float>();
    DataCopy(li, xg, t.n);
    PipeBarrier<PIPE_ALL>();
    uint32_t whole = t.n / 64, tail = t.n % 64;
    Adds(lo, li, 1.0f, 64, whole, {1, 1, 8, 8});
    Adds(lo[whole * 64], li[whole * 64], 1.0f, tail, 1, {1, 1, 8, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lo, t.n);
}
"""


def test_run_project_runs_an_empty_tail_as_a2_does_by_default(tmp_path: Path):
    unary_float_project(tmp_path, "TailCustom", PROJECT_KERNEL)
    x = np.arange(128, dtype=np.float32)
    project = load_project(tmp_path)
    r = run_project(project, {"x": x}, outputs={"y": ((128,), np.float32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
    assert [d.severity for d in r.run.diagnostics if d.kind == "vector-mask"] == ["warning"]
    strict = run_project(project, {"x": x}, outputs={"y": ((128,), np.float32)}, rules=replace(CHIP, vector_mask="error"))
    assert not strict.run.ok and [d.kind for d in strict.run.errors][:1] == ["vector-mask"]
