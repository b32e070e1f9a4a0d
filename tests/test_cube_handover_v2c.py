"""The vector -> cube hand-over in the cube DSL (issue 15): a prologue the vector cores compute and store to a GM
workspace, which the cube core then loads and multiplies (tests/fixtures/cube/scaled_gemm.py: y = (a * scale) @ w^T).
The vector cores close their stores with `handover(READY)` (CrossCoreSetFlag<2, PIPE_MTE3>: mode 2 releases the cube
core's wait once both vector cores of the group have set), the cube core opens its loads with `wait(READY)`
(CrossCoreWaitFlag), and hands the slot back with `handover(FREE)` once it has read it. Without the pair the cube's
read is a `missing-handover` error at its line:col; with it the kernel runs on the interpreter (three cores per group,
flags counted as on the chip) and on the emulator, and the emulator catches the race of a generated kernel whose
wait was dropped. Also: the static check with no flags at all (either direction), and the flag-id range of modes 0-2
on Atlas A2 (0 to 15; 11 to 14 belong to the hardware SyncAll)."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.check import Target, analyze
from ascendcraft.dsl import parse
from ascendcraft.interp import interpret

ROOT = Path(__file__).parent.parent
KERNEL = ROOT / "tests" / "fixtures" / "cube" / "scaled_gemm.py"
SRC = KERNEL.read_text()
WAIT_READY = "        with copyl1():\n            wait(READY)\n"
SET_READY = "        with copyout():\n            handover(READY)\n"
SET_FREE = "            handover(FREE)\n"
WAIT_FREE = "        with copyin():\n            wait(FREE)\n"


def _errors(src):
    return [d for d in analyze(parse(src, KERNEL.name)).diagnostics if d.is_error]


def _line(src, text) -> int:
    [n] = [i for i, l in enumerate(src.splitlines(), 1) if l.strip().startswith(text)]
    return n


def _inputs(m=150, n=70, k=100, seed=0):
    g = torch.Generator().manual_seed(seed)
    return {"a": torch.randn(m, k, generator=g), "w": torch.randn(n, k, generator=g), "scale": 0.5}


def _reference(v):
    return ((v["a"].double() * v["scale"]) @ v["w"].double().T).float()


def test_the_prologue_kernel_passes_its_checks_and_runs_on_the_interpreter():
    assert SRC.count(WAIT_READY) == SRC.count(SET_READY) == SRC.count(SET_FREE) == SRC.count(WAIT_FREE) == 1
    assert _errors(SRC) == []
    # 3 x 2 blocks of y over 2 groups: each cube core takes 3 blocks through one slot; the last row of blocks (22 rows)
    # leaves vector core 1 of its group no rows, and K = 100 is a full and a tail chunk
    v = _inputs()
    out = interpret(parse(SRC, KERNEL.name), v, Target(cores=4)).outputs["y"]
    np.testing.assert_allclose(out, _reference(v).numpy(), rtol=1e-5, atol=1e-4)


def test_without_the_wait_the_cubes_read_is_a_missing_handover_at_its_line_and_column():
    src = SRC.replace(WAIT_READY, "")
    d = next(d for d in _errors(src) if d.kind == "missing-handover")
    text = src.splitlines()[d.line - 1]
    assert d.line == _line(src, "load(a1, ws[") and d.col == text.index("load(a1") + 1
    assert "the cube core reads 'ws' before the vector cores have handed it over" in d.message
    assert "CrossCoreSetFlag<2, PIPE_MTE3> on the vector cores" in d.hint and "wait(READY)" in d.hint
    shown = d.render()
    assert f"{KERNEL.name}:{d.line}:{d.col}: error[missing-handover]" in shown and "^^^^" in shown and "hint:" in shown


def test_without_any_flag_either_direction_is_a_missing_handover():
    src = SRC
    for part in (WAIT_READY, SET_READY, SET_FREE, WAIT_FREE): src = src.replace(part, "")
    errs = _errors(src)
    d = next(d for d in errs if d.kind == "missing-handover")
    assert d.line == _line(src, "load(a1, ws[")
    # the cube -> vector direction with no flag at all was not checked before either
    gemm = (ROOT / "examples" / "fuse" / "gemm_relu_divide.py").read_text()
    for flag in ("            wait(READY)\n", "            handover(READY)\n", "            wait(FREE)\n", "            handover(FREE)\n"):
        gemm = gemm.replace(flag, "")
    gemm = gemm.replace("h0 = sub_block_idx() * HALF", "h0 = 0")
    d = next(d for d in _errors(gemm) if d.kind == "missing-handover")
    assert d.line == _line(gemm, "load(cin, ws[") and "the vector cores read 'ws'" in d.message
    assert "CrossCoreSetFlag<2, PIPE_FIX> on the cube core" in d.hint


def test_overwriting_the_slot_before_the_cube_read_it_is_a_missing_handover_at_the_store():
    src = SRC.replace(WAIT_FREE, "")
    d = next(d for d in _errors(src) if d.kind == "missing-handover")
    assert d.line == _line(src, "store(ws[") and "next block" in d.message and "wait(FREE)" in d.hint


def test_a_wait_nobody_sets_is_a_deadlock_statically_and_on_the_interpreter():
    src = SRC.replace(SET_READY, "")
    d = next(d for d in _errors(src) if d.kind == "flag-deadlock")
    assert d.line == _line(src, "wait(READY)") and "cube core" in d.message
    from ascendcraft.diagnostics import AscendCraftError
    with pytest.raises(AscendCraftError) as e:
        interpret(parse(src, KERNEL.name), _inputs(), Target(cores=4))
    [d] = e.value.diagnostics
    assert d.kind == "flag-deadlock" and d.line == _line(src, "wait(READY)") and "the cube core of group 0" in d.message


def test_flag_ids_follow_the_documented_range_of_modes_0_to_2():
    # 0..15 per core on Atlas A2 (the CrossCoreSetFlag / CrossCoreWaitFlag pages); 15 is a good id
    assert _errors(SRC.replace("FREE = 1 ", "FREE = 15 ")) == []
    errs = _errors(SRC.replace("FREE = 1 ", "FREE = 17 "))
    assert [d.kind for d in errs] == ["cross-flag", "cross-flag"]
    d = errs[0]
    assert "from 0 to 15, not 17" in d.message and "17 would be flag 1" in d.hint and "^" in d.render()
    assert d.line == _line(SRC, "handover(FREE)") and d.col == SRC.splitlines()[d.line - 1].index("FREE") + 1
    # 11..14 are the hardware SyncAll's own flags: an error only in a kernel that also calls sync_all()
    assert _errors(SRC.replace("FREE = 1 ", "FREE = 12 ")) == []
    synced = SRC.replace("    slot = block_idx() * TM\n", "    slot = block_idx() * TM\n    sync_all()\n")
    assert _errors(synced) == []
    errs = _errors(synced.replace("FREE = 1 ", "FREE = 12 "))
    assert [d.kind for d in errs] == ["cross-flag", "cross-flag"]
    assert f"sync_all() (line {_line(synced, 'sync_all()')})" in errs[0].message and "11 to 14" in errs[0].message
    assert "0 to 10 (or 15)" in errs[0].hint and errs[0].line == _line(synced, "handover(FREE)")
    from ascendcraft.dsl import FLAG_IDS, SYNC_ALL_FLAGS
    assert FLAG_IDS == 16 and list(SYNC_ALL_FLAGS) == [11, 12, 13, 14]


@pytest.fixture(scope="module")
def pipe():
    from ascendcraft.interp import binding_of
    from ascendcraft.pipeline import Pipeline
    binding, _ = binding_of(_inputs())
    p = Pipeline(SRC, KERNEL.name, bindings=[binding])
    p.run_all()
    assert all(s.ok for s in p.steps), p.summary()
    return p


def test_every_pass_compiles_and_the_emulator_matches(pipe):
    from ascendcraft.launch import run_kernel
    kernel = pipe.final[pipe.lowering.names.kernel_file]
    for api in ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", "CrossCoreSetFlag<2, PIPE_MTE3>(0);",
                "CrossCoreWaitFlag<2>(0);", "CrossCoreSetFlag<2, PIPE_FIX>(1);", "CrossCoreWaitFlag<2>(1);", "GetSubBlockIdx()"):
        assert api in kernel, api
    # the cube core's wait opens the copy to L1 before the loop over K that reads the slot; the vector cores' set
    # follows their stores to it
    cin = kernel[kernel.index("void CopyL1()"):kernel.index("void CopyL12(")]
    assert "CrossCoreWaitFlag<2>(0);" in cin
    out = kernel[kernel.index("void CopyOut2()"):]
    assert out.index("CrossCoreSetFlag<2, PIPE_MTE3>(0);") < out.index("}")
    body = kernel[kernel.index("__aicore__ inline void Process()"):]
    assert body.index("CopyOut2()") < body.index("CopyL1()") < body.index("CopyL12(")
    for cores, seed in ((4, 1), (8, 2), (2, 3)):
        v = _inputs(seed=seed)
        r = run_kernel(pipe.steps[-1].build, pipe.program, v, target=Target(cores=cores))
        assert r.run.ok, [d.render() for d in r.run.diagnostics]
        torch.testing.assert_close(r.outputs["y"], _reference(v), rtol=1e-5, atol=1e-4)


def test_the_emulator_catches_the_race_of_a_generated_kernel_without_the_cube_wait(pipe):
    from ascendcraft import emu
    from ascendcraft.launch import run_kernel
    files = pipe.final.as_dict()
    name = pipe.lowering.names.kernel_file
    files[name] = files[name].replace("CrossCoreWaitFlag<2>(0);", "// (no wait)")
    b = emu.build(files, entry=pipe.lowering.names.entry)
    assert b.ok, [str(d) for d in b.diagnostics]
    r = run_kernel(b, pipe.program, _inputs(seed=4), target=Target(cores=4))
    assert not r.run.ok
    d = next(d for d in r.run.diagnostics if d.kind == "cross-core-race")
    line = files[name].splitlines()[d.line - 1]
    assert "wsGm" in line and "AIC" in d.message and "CrossCoreWaitFlag" in d.hint
