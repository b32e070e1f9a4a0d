"""The emulator's race check (`ub-race`): accesses to the same UB bytes from two pipes of one core,
at least one a write, that no synchronisation orders.

Each kernel in tests/emu_kernels/race/ either races or is correctly synchronised. In a racing kernel
the racing access is marked `EXPECT: ub-race` and the earlier access it races with `FIRST`. Adding
the flag the diagnostic's hint names, just before the racing access, must make it run clean and
match NumPy. The synchronised kernels must run clean and match NumPy as they are.

These tests are about the check itself, so they run with auto-sync off (the compiler's automatic
synchronisation would otherwise insert the missing flags: tests/test_emu_autosync.py).
"""
import re
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.emu import GM, build, trace
from ascendcraft.emu import run as _run


def run(*args, **kw):
    "emu.run with auto-sync off: the race check applies as written."
    return _run(*args, auto_sync=False, **kw)

RACE = Path(__file__).parent / "emu_kernels" / "race"
BLOCKS = 2
X = np.random.default_rng(11).standard_normal((BLOCKS, 512)).astype(np.float32)
W = (np.arange(256) % 7 - 3).astype(np.float32)        # s_v_*: the weights the scalar unit stores


def relu(x): return np.maximum(x, 0)


def with_first(values, first):
    out = values.copy()
    out[:, 0] = first
    return out


# kernel -> (columns each block reads and writes, what it computes from its rows of X)
COMPUTES = {
    "v_s_missing": (256, lambda x: x - x.max(axis=1, keepdims=True)),
    "v_s_flag": (256, lambda x: x - x.max(axis=1, keepdims=True)),
    "scalar_operand": (256, lambda x: x / (x.max(axis=1, keepdims=True) + 1)),
    "s_v_missing": (256, lambda x: x * W),
    "s_v_flag": (256, lambda x: x * W),
    "mte2_v_missing": (256, relu),
    "mte2_v_flag": (256, relu),
    "mte2_s_missing": (256, lambda x: x * x[:, :1]),
    "s_mte3_missing": (256, lambda x: with_first(2 * x, -1.0)),
    "v_s_waw": (256, lambda x: with_first(relu(x), 7.0)),
    "tbuf_war": (512, relu),
    "pipe_barrier_all": (256, lambda x: np.concatenate([relu(x[:, :1]), x[:, :1] + x[:, 1:2], relu(x[:, 2:])], axis=1)),
    "partial_block": (256, lambda x: x * (x.sum(axis=1, keepdims=True) * 2)),
    "queue_bind_copy": (512, lambda x: x),
}

# racing kernel -> (hazard, pipe of the racing access, pipe of the earlier access, the flag that orders them)
RACY = {
    "v_s_missing": ("read-after-write", "S", "V", "V_S"),
    "scalar_operand": ("read-after-write", "S", "V", "V_S"),
    "s_v_missing": ("read-after-write", "V", "S", "S_V"),
    "mte2_v_missing": ("read-after-write", "V", "MTE2", "MTE2_V"),
    "mte2_s_missing": ("read-after-write", "S", "MTE2", "MTE2_S"),
    "s_mte3_missing": ("read-after-write", "MTE3", "S", "S_MTE3"),
    "v_s_waw": ("write-after-write", "S", "V", "V_S"),
    "tbuf_war": ("write-after-read", "MTE2", "V", "V_MTE2"),
}
SYNCHRONISED = ["v_s_flag", "s_v_flag", "mte2_v_flag", "pipe_barrier_all", "partial_block", "queue_bind_copy"]


def marked(text: str, mark: str) -> int:
    "The line of `text` that carries the comment `mark`."
    lines = [i + 1 for i, line in enumerate(text.splitlines()) if line.rstrip().endswith(mark)]
    assert len(lines) == 1, f"one line must end with {mark!r}"
    return lines[0]


def args_for(name: str):
    cols = COMPUTES[name][0]
    x = np.ascontiguousarray(X[:, :cols])
    return [GM("x", x), GM("y", np.empty_like(x), "out")]


def check_outputs(name: str, r):
    cols, compute = COMPUTES[name]
    np.testing.assert_allclose(r.outputs["y"], compute(X[:, :cols].astype(np.float64)), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(RACY))
def test_racing_kernel_names_both_accesses_and_the_flag(name):
    path = RACE / f"{name}.cpp"
    text = path.read_text()
    hazard, pipe, other_pipe, event = RACY[name]
    r = run(build(path), args_for(name), block_dim=BLOCKS)
    assert not r.ok and r.errors, f"{name} ran clean"
    d = r.errors[0]
    assert (d.kind, d.file, d.line) == ("ub-race", path.name, marked(text, "EXPECT: ub-race")), str(d)
    c = d.context
    assert (c["hazard"], c["pipe"], c["other_pipe"], c["event"]) == (hazard, pipe, other_pipe, event), c
    assert c["other_line"] == marked(text, "// FIRST") and c["block"] == 0
    first_call = re.search(r"(\w+)\(", text.splitlines()[c["other_line"] - 1].split("=")[-1])[1]
    assert c["other_api"] == first_call and c["other_api"] in d.message and c["api"] in d.message
    assert f"PIPE_{pipe}" in d.message and f"PIPE_{other_pipe}" in d.message and f"line {c['other_line']}" in d.message
    assert f"SetFlag<HardEvent::{event}>(id); WaitFlag<HardEvent::{event}>(id);" in d.hint
    assert c["bytes"] >= 1 and c["ub_offset"] % 4 == 0


@pytest.mark.parametrize("name", sorted(RACY))
def test_the_flag_the_hint_names_fixes_the_race(name):
    path = RACE / f"{name}.cpp"
    lines = path.read_text().splitlines()
    at = marked("\n".join(lines), "EXPECT: ub-race") - 1
    event = RACY[name][3]
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at, f"{indent}SetFlag<HardEvent::{event}>(EVENT_ID5); WaitFlag<HardEvent::{event}>(EVENT_ID5);")
    r = run(build({path.name: "\n".join(lines)}), args_for(name), block_dim=BLOCKS)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    check_outputs(name, r)


@pytest.mark.parametrize("name", SYNCHRONISED)
def test_synchronised_kernel_runs_clean_and_matches(name):
    r = run(build(RACE / f"{name}.cpp"), args_for(name), block_dim=BLOCKS)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    check_outputs(name, r)


def test_the_queue_protocol_orders_a_software_pipelined_kernel():
    b = build(RACE / "queue_prefetch.cpp")
    x, y = np.random.default_rng(12).standard_normal((2, BLOCKS * 8 * 128)).astype(np.float32)   # 8 tiles of 128 per block
    r = run(b, [GM("x", x), GM("y", y.copy()), GM("z", np.empty_like(x), "out")], block_dim=BLOCKS)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["z"], x + y)


def test_edges_chain_a_dequeue_then_a_vector_to_scalar_wait_orders_the_copy_in():
    # DeQue makes PIPE_V wait for MTE2; a V -> S flag after it closes the chain MTE2 -> V -> S
    text = (RACE / "mte2_s_missing.cpp").read_text().replace(
        "    float first = xLocal.GetValue(0);  // EXPECT: ub-race",
        "    SetFlag<HardEvent::V_S>(EVENT_ID0);\n    WaitFlag<HardEvent::V_S>(EVENT_ID0);\n    float first = xLocal.GetValue(0);")
    r = run(build({"chain.cpp": text}), args_for("mte2_s_missing"), block_dim=BLOCKS)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    check_outputs("mte2_s_missing", r)


def test_a_barrier_on_one_pipe_does_not_order_the_others():
    text = (RACE / "pipe_barrier_all.cpp").read_text()
    line = marked(text, "// BARRIER")
    r = run(build({"one_pipe.cpp": text.replace("PipeBarrier<PIPE_ALL>();  // BARRIER", "PipeBarrier<PIPE_V>();")}),
            args_for("pipe_barrier_all"), block_dim=BLOCKS)
    d = r.errors[0]
    assert (d.kind, d.line, d.context["api"], d.context["other_api"]) == ("ub-race", line + 1, "SetValue", "Relu"), str(d)
    assert (d.context["hazard"], d.context["event"]) == ("write-after-write", "V_S")


# ---- the model, case by case, in one kernel -----------------------------------------------------------------------
# Every case starts from a UB buffer f that Duplicate filled, between two PipeBarrier<PIPE_ALL>, so no case sees another's
# accesses; run with races="warning", each racing case reports once, at its own line.
CASES = [
    # a scalar read is complete when GetValue returns: a later vector write cannot overtake it
    ("float v = f.GetValue(0); Duplicate(f, v, 64);", None),
    # a scalar store is not known to the vector pipe without S -> V
    ("f.SetValue(0, 2.0f); Duplicate(f, 0.0f, 64);", ("Duplicate", "write-after-write", "S_V")),
    # bytes count: 64 floats are blocks 0..7, element 100 lies in block 12
    ("Adds(f, f, 1.0f, 64); f.SetValue(100, 2.0f);", None),
    ("Adds(f, f, 1.0f, 64); float v = f.GetValue(63); (void)v;", ("GetValue", "read-after-write", "V_S")),
    # a barrier on one pipe, or a flag towards another pipe, does not make the scalar unit wait
    ("Adds(f, f, 1.0f, 64); PipeBarrier<PIPE_V>(); float v = f.GetValue(3); (void)v;", ("GetValue", "read-after-write", "V_S")),
    ("Adds(f, f, 1.0f, 64); SetFlag<HardEvent::V_MTE3>(EVENT_ID0); WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);"
     " float v = f.GetValue(3); (void)v;", ("GetValue", "read-after-write", "V_S")),
    ("Adds(f, f, 1.0f, 64); TQueSync<PIPE_V, PIPE_S> vs; vs.SetFlag(EVENT_ID2); vs.WaitFlag(EVENT_ID2);"
     " float v = f.GetValue(3); (void)v;", None),
    # a flag carries what was issued before SetFlag, not what comes between SetFlag and WaitFlag
    ("Adds(f, f, 1.0f, 64); SetFlag<HardEvent::V_S>(EVENT_ID1); Adds(f[128], f[128], 1.0f, 64);"
     " WaitFlag<HardEvent::V_S>(EVENT_ID1); float a = f.GetValue(0); float c = f.GetValue(128); (void)a; (void)c;",
     ("GetValue", "read-after-write", "V_S")),
    # level 0: a block stride of 2 skips every other 32-byte block; a 4-lane mask touches 16 bytes of block 0
    ("Adds(f, f, 1.0f, 64, 1, {2, 2, 16, 16}); float v = f.GetValue(8); (void)v;", None),
    ("Adds(f, f, 1.0f, 64, 1, {2, 2, 16, 16}); float v = f.GetValue(16); (void)v;", ("GetValue", "read-after-write", "V_S")),
    ("Adds(f, f, 1.0f, 4, 1, {1, 1, 8, 8}); float v = f.GetValue(6); (void)v;", None),
    ("Adds(f, f, 1.0f, 4, 1, {1, 1, 8, 8}); float v = f.GetValue(2); (void)v;", ("GetValue", "read-after-write", "V_S")),
    # one instruction that touches a block twice (two repeats on the same 8 bytes) keeps the older writer of the
    # block's other bytes: byte 16 was written before the V -> S flag, so reading it after the flag is ordered
    ("Adds(f, f, 1.0f, 8); SetFlag<HardEvent::V_S>(EVENT_ID1); WaitFlag<HardEvent::V_S>(EVENT_ID1);"
     " Adds(f, f, 1.0f, 2, 2, {1, 1, 0, 0}); float v = f.GetValue(4); (void)v;", None),
    ("Adds(f, f, 1.0f, 8); SetFlag<HardEvent::V_S>(EVENT_ID1); WaitFlag<HardEvent::V_S>(EVENT_ID1);"
     " Adds(f, f, 1.0f, 2, 2, {1, 1, 0, 0}); float v = f.GetValue(1); (void)v;", ("GetValue", "read-after-write", "V_S")),
    # a UB -> UB DataCopy runs on the vector pipe
    ("DataCopy(f[256], f, 64); float v = f.GetValue(256); (void)v;", ("GetValue", "read-after-write", "V_S")),
    ("f.SetValue(3, 2.0f); DataCopy(f[256], f, 64);", ("DataCopy", "read-after-write", "S_V")),
    # a reduction writes only its result; the other bytes of that block keep their own writers
    ("f.SetValue(260, 5.0f); ReduceSum(f[256], f, f[384], 64); float v = f.GetValue(260); (void)v;", None),
    ("ReduceSum(f[256], f, f[384], 64); float v = f.GetValue(256); (void)v;", ("GetValue", "read-after-write", "V_S")),
]
MODEL_HEAD = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void model(GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 512 * sizeof(float));
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> f = b.Get<float>();
"""
RESET = "    PipeBarrier<PIPE_ALL>();\n    Duplicate(f, 1.0f, 512);\n    PipeBarrier<PIPE_ALL>();\n"


def model_kernel(cases) -> tuple[str, dict]:
    "The kernel that runs `cases` one after the other, and {line of a racing case: what it races on}."
    text, expected = MODEL_HEAD, {}
    for body, race in cases:
        text += RESET
        line = text.count("\n") + 1
        text += f"    {{ {body} }}\n"
        if race: expected[line] = race
    return text + RESET + "    DataCopy(yGm, f, 256);\n}\n", expected


def test_model_edges():
    text, expected = model_kernel(CASES)
    b = build({"model.cpp": text})
    assert b.ok and not b.errors, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.empty(256, np.float32), "out")], block_dim=1, races="warning")
    assert r.ok and all(d.kind == "ub-race" for d in r.diagnostics), "\n".join(map(str, r.diagnostics))
    found = {d.line: (d.context["api"], d.context["hazard"], d.context["event"]) for d in r.diagnostics}
    assert found == expected and len(r.diagnostics) == len(expected), "\n".join(map(str, r.diagnostics))
    errors = run(b, [GM("y", np.empty(256, np.float32), "out")], block_dim=1)      # as an error: the first one stops the run
    assert [(d.kind, d.line) for d in errors.errors] == [("ub-race", min(expected))]


# ---- modes --------------------------------------------------------------------------------------------------------
def test_warnings_let_the_kernel_finish_and_report_each_pair_of_sites_once():
    r = run(build(RACE / "v_s_missing.cpp"), args_for("v_s_missing"), block_dim=BLOCKS, races="warning")
    assert r.ok and [(d.kind, d.severity) for d in r.diagnostics] == [("ub-race", "warning")]   # two blocks, one pair
    check_outputs("v_s_missing", r)          # right in the emulator: only the check can tell


def test_warnings_stop_after_twenty():
    reads = "\n".join(f"    sum += red.GetValue(0) * {k}.0f;" for k in range(25))       # 25 racing sites
    text = (RACE / "v_s_missing.cpp").read_text().replace(
        "    float rowMax = red.GetValue(0);  // EXPECT: ub-race", "    float sum = 0.0f;\n" + reads + "\n    float rowMax = sum;")
    r = run(build({"many.cpp": text}), args_for("v_s_missing"), block_dim=BLOCKS, races="warning")
    assert r.ok and len(r.diagnostics) == 20 and len({d.line for d in r.diagnostics}) == 20


def test_off_and_trace_mode_do_not_check():
    b = build(RACE / "scalar_operand.cpp")
    off = run(b, args_for("scalar_operand"), block_dim=BLOCKS, races="off")
    assert off.ok and not off.diagnostics
    check_outputs("scalar_operand", off)
    t = trace(b, args_for("scalar_operand"), block_dim=BLOCKS, auto_sync=False)
    assert t.count("GetValue") == BLOCKS and not t.meta["notes"]


def test_an_unknown_mode_is_refused():
    with pytest.raises(AscendCraftError) as e:
        run(build(RACE / "v_s_flag.cpp"), args_for("v_s_flag"), block_dim=BLOCKS, races="strict")
    assert e.value.kinds == ["run-args"] and "races must be one of" in str(e.value)


def test_the_check_is_clean_under_asan_and_ubsan():
    # the shadow state, the flags and the level-0 walk: every model case, a racing kernel and a clean one
    text, expected = model_kernel(CASES)
    b = build({"model.cpp": text}, sanitize=True)
    r = run(b, [GM("y", np.empty(256, np.float32), "out")], block_dim=1, races="warning")
    assert b.sanitize and r.ok and sorted(d.line for d in r.diagnostics) == sorted(expected), (r.diagnostics, r.stderr[-2000:])
    for name, ok in (("tbuf_war", False), ("partial_block", True)):
        r = run(build(RACE / f"{name}.cpp", sanitize=True), args_for(name), block_dim=BLOCKS)
        assert r.ok == ok and [d.kind for d in r.errors] == ([] if ok else ["ub-race"]), (name, r.diagnostics, r.stderr[-2000:])
        if ok: check_outputs(name, r)
