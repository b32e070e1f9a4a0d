"""Every expert DSL example in examples/ matches its PyTorch reference through the NumPy interpreter.

MultiKernelBench protocol (seed 1024, five input sets, allclose atol = rtol = 1e-4 for float32
outputs; 16-bit outputs get the 16-bit floors of `verify`) on the benchmark's [0, 1) inputs and
on signed inputs, at each task's small (CI) shapes.
"""

import pytest
import torch

from ascendcraft.bind import bind
from ascendcraft.check import check
from ascendcraft.bind import shape_bindings
from ascendcraft.dsl import parse
from ascendcraft.interp import interpret
from ascendcraft.config import load_settings
from ascendcraft.generate import expert_path
from ascendcraft.taskset import get_task, registry
from ascendcraft.verify import output_tolerances

EXAMPLES = sorted(p for p in map(expert_path, registry()) if p.exists())  # one expert kernel per task


def _task_or_skip(path):
    try:
        return get_task(path.stem)
    except Exception as e:  # an example without a registry task is a test-suite bug
        pytest.fail(f"{path.name}: no task named {path.stem!r} in the registry ({e})")


def max_abs_err(out, want) -> float:
    "For the message of a failed comparison only (in float64: millions of elements, computed when the check fails)."
    return (out.double() - want.double()).abs().max().item() if out.numel() else 0.0


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_checks_clean_at_both_sizes(path):
    program = parse(path.read_text(), str(path))
    task = _task_or_skip(path)
    diagnostics = check(program, shape_bindings(program, task, ("small", "full")))
    assert not diagnostics, "\n".join(map(str, diagnostics))


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_matches_torch(path, signed):
    program = parse(path.read_text(), str(path))
    task = _task_or_skip(path)
    if signed and not task.has_signed:
        pytest.skip(f"{task.id} has no signed input variant (SIGNED = False)")
    for trial in range(5):
        b = bind(program, task, trial=trial, signed=signed)
        got = interpret(program, b.values).torch()
        tolerances = output_tolerances(task, b.reference, load_settings())
        for name, want, tol in zip(b.outputs, b.reference, tolerances):
            out = got[name]
            assert out.shape == want.shape, f"{name}: shape {tuple(out.shape)} != {tuple(want.shape)}"
            assert out.dtype == want.dtype, f"{name}: dtype {out.dtype} != {want.dtype}"
            assert torch.allclose(out, want, atol=tol.atol, rtol=tol.rtol), \
                f"{name} trial {trial}: max abs err {max_abs_err(out, want):.3g}"
