"""The explicit AIC -> AIV hand-over in the cube DSL (issue 15): the cube core stores its block of C to a GM workspace
and sets a cross-core flag (`handover(READY)` in the fixpipe stage: CrossCoreSetFlag<2, PIPE_FIX>), the vector cores
wait for it (`wait(READY)`: CrossCoreWaitFlag) before they load the block, and hand the slot back (`handover(FREE)`)
before the cube core overwrites it. The form passes its checks, runs on the interpreter, lowers through every pass
(each snapshot compiles) and matches on the emulator; dropping a flag is a line error, and the emulator catches the
race a kernel without the wait would have."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.check import Target, analyze
from ascendcraft.dsl import parse
from ascendcraft.interp import interpret

ROOT = Path(__file__).parent.parent
KERNEL = ROOT / "examples" / "fuse" / "gemm_relu_divide.py"
SRC = KERNEL.read_text()
TASK = "fuse/gemm_relu_divide"


def _errors(src):
    return [d for d in analyze(parse(src, KERNEL.name)).diagnostics if d.is_error]


def _line(src, text) -> int:
    [n] = [i for i, l in enumerate(src.splitlines(), 1) if l.strip().startswith(text)]
    return n


def _pipeline():
    from ascendcraft.pipeline import Pipeline
    from ascendcraft.taskset import get_task
    task = get_task(TASK)
    pipe = Pipeline(SRC, KERNEL.name, task=task)
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    return pipe, task


def _inputs(m, n, k, seed=0):
    g = torch.Generator().manual_seed(seed)
    return {"x": torch.randn(m, k, generator=g), "linear_weight": torch.randn(n, k, generator=g),
            "linear_bias": torch.randn(n, generator=g), "divisor": 2.0}


def _reference(v):
    return torch.relu(v["x"].double() @ v["linear_weight"].double().T + v["linear_bias"].double()).float() / v["divisor"]


def test_the_expert_kernel_passes_its_checks_and_runs_on_the_interpreter():
    assert _errors(SRC) == []
    # 2 x 2 blocks of y (256 x 128) over 2 groups (a 4-core target): each cube core hands over 2 blocks through one
    # slot, and the last row of blocks (44 rows) leaves the second vector core of its group no rows
    v = _inputs(300, 150, 70)
    out = interpret(parse(SRC, KERNEL.name), v, Target(cores=4)).outputs["y"]
    np.testing.assert_allclose(out, _reference(v).numpy(), rtol=1e-5, atol=1e-4)


def test_every_pass_compiles_and_the_emulator_matches_with_the_flags():
    from ascendcraft.bind import bind
    from ascendcraft.launch import run_kernel
    pipe, task = _pipeline()
    kernel = pipe.final[pipe.lowering.names.kernel_file]
    for api in ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)", "if ASCEND_IS_AIC {", "if ASCEND_IS_AIV {",
                "CrossCoreSetFlag<2, PIPE_FIX>(0);", "CrossCoreWaitFlag<2>(0);", "CrossCoreSetFlag<2, PIPE_MTE2>(1);",
                "CrossCoreWaitFlag<2>(1);", "(__gm__ float*)(workspace + tiling.ws_offset)", "GetSubBlockIdx()",
                "(GetBlockIdx() / GetTaskRation())", "Fixpipe<float, float, CFG_ROW_MAJOR>(wsGm[", "TQue<TPosition::CO1"):
        assert api in kernel, api
    assert "Matmul<" not in kernel and "GetTensorC" not in kernel
    # the fixpipe stage sets READY after its store and then waits for the slot; the load stage waits first
    fix = kernel[kernel.index("void FixpipeOut("):]
    assert fix.index("Fixpipe<") < fix.index("CrossCoreSetFlag<2, PIPE_FIX>(0)") < fix.index("CrossCoreWaitFlag<2>(1)")
    cin = kernel[kernel.index("void CopyIn("):]
    assert cin.index("CrossCoreWaitFlag<2>(0)") < cin.index("wsGm[") < cin.index("CrossCoreSetFlag<2, PIPE_MTE2>(1)")
    b = bind(pipe.program, task, "small", signed=True)
    r = run_kernel(pipe.steps[-1].build, pipe.program, b.values)
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    torch.testing.assert_close(r.outputs["y"], b.reference[0], rtol=1e-5, atol=1e-4)
    # several blocks per group: the slot is handed back (FREE) before the cube core stores the next block
    v = _inputs(300, 150, 70, seed=1)
    r = run_kernel(pipe.steps[-1].build, pipe.program, v, target=Target(cores=4))
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    torch.testing.assert_close(r.outputs["y"], _reference(v), rtol=1e-5, atol=1e-4)


def test_removing_the_wait_is_a_missing_handover_at_the_read():
    src = SRC.replace("            wait(READY)\n", "")
    errs = _errors(src)
    d = next(d for d in errs if d.kind == "missing-handover")
    assert d.line == _line(src, "load(cin, ws[")
    assert "'ws'" in d.message and "wait(READY)" in d.hint and "^" in d.render()
    # the READY sets now pile up: nothing in the loop waits for them
    assert any(d.kind == "cross-flag" and d.line == _line(src, "handover(READY)") and "at most 15 pending" in d.message
               for d in errs)


def test_the_cube_overwriting_a_slot_the_vector_cores_read_is_a_missing_handover_at_the_store():
    src = SRC.replace("            wait(FREE)\n", "")
    d = next(d for d in _errors(src) if d.kind == "missing-handover")
    assert d.line == _line(src, "store(ws[") and "next block" in d.message and "wait(FREE)" in d.hint


def test_reading_before_the_cube_stores_is_a_missing_handover():
    fix = "        with fixpipe():\n            store(ws[slot : slot + m, 0 : n], c1)\n            handover(READY)\n            wait(FREE)\n"
    src = SRC.replace(fix, "").replace("        with compute():", fix + "        with compute():")
    d = next(d for d in _errors(src) if d.kind == "missing-handover")
    assert d.line == _line(src, "load(cin, ws[") and "only after this read" in d.message


def test_a_wait_nobody_sets_is_a_deadlock_error():
    src = SRC.replace("wait(READY)", "wait(5)")
    d = next(d for d in _errors(src) if d.kind == "flag-deadlock")
    assert d.line == _line(src, "wait(5)") and "never ends" in d.message and "handover(5)" in d.hint
    src = SRC.replace("            handover(FREE)\n", "")        # the cube core would wait for a hand-back forever
    d = next(d for d in _errors(src) if d.kind == "flag-deadlock")
    assert d.line == _line(src, "wait(FREE)") and "cube core" in d.message


EARLY = SRC.replace("            store(ws[slot : slot + m, 0 : n], c1)\n            handover(READY)\n            wait(FREE)\n",
                    "            wait(FREE)\n            store(ws[slot : slot + m, 0 : n], c1)\n            handover(READY)\n")
# the slot starts free: the vector cores hand FREE over once before the loop, the cube core takes the last one after it
PRIMED = EARLY.replace("    for t in range(block_idx(), tiles, block_num()):\n",
                       "    with copyin():\n        handover(FREE)\n    for t in range(block_idx(), tiles, block_num()):\n") \
    + "    with fixpipe():\n        wait(FREE)\n"


def test_a_wait_for_the_slot_before_the_first_store_deadlocks_unless_the_slot_starts_free():
    assert EARLY != SRC
    [d] = _errors(EARLY)
    assert d.kind == "flag-deadlock" and d.line == _line(EARLY, "wait(FREE)") and "first wait never ends" in d.message
    assert _errors(PRIMED) == []
    from ascendcraft.launch import run_kernel
    from ascendcraft.pipeline import Pipeline
    from ascendcraft.taskset import get_task
    pipe = Pipeline(PRIMED, KERNEL.name, task=get_task(TASK))
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    v = _inputs(300, 150, 70, seed=3)
    r = run_kernel(pipe.steps[-1].build, pipe.program, v, target=Target(cores=4))
    assert r.run.ok, [d.render() for d in r.run.diagnostics]          # no race, no pending set left, no deadlock
    torch.testing.assert_close(r.outputs["y"], _reference(v), rtol=1e-5, atol=1e-4)


def test_flag_ids_placement_and_the_matmul_api():
    errs = _errors(SRC.replace("FREE = 1 ", "FREE = 16 "))
    assert [d.kind for d in errs] == ["cross-flag", "cross-flag"] and "0 to 15, not 16" in errs[0].message
    assert "16 would be flag 0" in errs[0].hint
    src = SRC.replace("            wait(READY)\n            load(bin, bias[n0 : n0 + n])\n",
                      "            load(bin, bias[n0 : n0 + n])\n            wait(READY)\n")
    d = next(d for d in _errors(src) if d.kind == "cross-flag")
    assert d.line == _line(src, "wait(READY)") and "open the stage" in d.hint
    from ascendcraft.diagnostics import AscendCraftError
    with pytest.raises(AscendCraftError, match="misplaced-flag|outside a stage"):
        parse(SRC.replace("        with copyout():", "        handover(FREE)\n        with copyout():"), KERNEL.name)
    api = (ROOT / "examples" / "fuse" / "gemm_add_relu.py").read_text().replace(
        "        with copyin():\n", "        with copyin():\n            wait(0)\n")
    d = next(d for d in _errors(api) if d.kind == "cross-flag")
    assert "Matmul" in d.message
    # sub_block_idx() splits a group's block between its two vector cores: only a kernel with the flags has groups
    api = (ROOT / "examples" / "fuse" / "gemm_add_relu.py").read_text().replace(
        "        n = min(TN, N - n0)\n", "        n = min(TN, N - n0) + sub_block_idx() * 0\n")
    d = next(d for d in _errors(api) if d.kind == "cross-flag")
    assert d.line == _line(api, "n = min(TN, N - n0) + sub_block_idx()") and "handover()/wait()" in d.message


def _emulated_variant(pipe, edit):
    "The generated project with `edit` applied to the kernel file, built for the emulator."
    from ascendcraft import emu
    files = pipe.final.as_dict()
    name = pipe.lowering.names.kernel_file
    before = files[name]
    files[name] = edit(before)
    assert files[name] != before
    b = emu.build(files, entry=pipe.lowering.names.entry)
    assert b.ok, [str(d) for d in b.diagnostics]
    return b, files[name].splitlines()


def test_the_emulator_catches_the_race_and_the_deadlock_of_hand_written_variants():
    from ascendcraft.launch import run_kernel
    pipe, _ = _pipeline()
    v = _inputs(300, 150, 70, seed=2)
    # no wait on the vector cores: they read the workspace the cube core is still writing
    b, lines = _emulated_variant(pipe, lambda k: k.replace("CrossCoreWaitFlag<2>(0);", "// (no wait)"))
    r = run_kernel(b, pipe.program, v, target=Target(cores=4))
    assert not r.run.ok
    d = next(d for d in r.run.diagnostics if d.kind == "cross-core-race")
    assert "wsGm[" in lines[d.line - 1] and "CrossCoreWaitFlag" in d.hint
    # no hand-back wait on the cube core: it overwrites the slot before the vector cores have read it
    b, lines = _emulated_variant(pipe, lambda k: k.replace("CrossCoreWaitFlag<2>(1);", "// (no wait)"))
    r = run_kernel(b, pipe.program, v, target=Target(cores=4))
    assert not r.run.ok and any(d.kind == "cross-core-race" for d in r.run.diagnostics)
    # a wait for a flag nobody sets: a deadlock error at the wait, not a hang
    b, lines = _emulated_variant(pipe, lambda k: k.replace("CrossCoreWaitFlag<2>(0);", "CrossCoreWaitFlag<2>(5);"))
    r = run_kernel(b, pipe.program, v, target=Target(cores=4))
    d = next(d for d in r.run.diagnostics if d.kind == "cross-core-deadlock")
    stuck = next(i for i, l in enumerate(lines, 1) if "CrossCoreWaitFlag<2>(5);" in l)
    # the cube core, waiting for its slot, is reported at its wait; the vector cores' wait for flag 5 beside it
    assert "CrossCoreWaitFlag<2>(1)" in lines[d.line - 1]
    assert f"at line {stuck} (CrossCoreWaitFlag(5))" in d.message and "AIV 0 of group 0" in d.message
