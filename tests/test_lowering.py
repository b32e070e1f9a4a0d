"""Every expert DSL example lowers through the four passes, compiles after each pass on the CPU
emulation, and the final kernel matches both PyTorch and the DSL interpreter.

The CI shapes of the tasks keep the traps: rows and tails that are not 32-byte aligned, sizes that
do not divide evenly across the 48 cores. A few kernels also run on extra odd shapes.
"""
from pathlib import Path

import pytest
import torch

from ascendcraft import emu
from ascendcraft.bind import bind
from ascendcraft.interp import interpret
from ascendcraft.launch import run_kernel
from ascendcraft.pipeline import Pipeline
from ascendcraft.config import load_settings
from ascendcraft.generate import expert_path
from ascendcraft.taskset import get_task, registry
from ascendcraft.verify import output_tolerances

EXAMPLES = sorted(p for p in map(expert_path, registry()) if p.exists())  # one expert kernel per task


def max_abs_err(got, want) -> float:
    "For the message of a failed comparison only (in float64, computed when the check fails)."
    return (got.double() - want.double()).abs().max().item() if got.numel() else 0.0


def lowered(path: Path) -> Pipeline:
    pipe = Pipeline(path.read_text(), path.name, task=get_task(path.stem))
    pipe.run_all()
    return pipe


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_lowers_compiles_and_matches(path):
    pipe = lowered(path)
    for step in pipe.steps:
        assert step.status == "ok", f"{step.name}: {step.status}\n" + "\n".join(map(str, step.diagnostics))
        if step.index:
            assert step.build is not None and step.build.ok, f"{step.name} snapshot does not compile"
    final = pipe.final
    assert "TODO(" not in final[pipe.lowering.names.kernel_file], "a placeholder survived the passes"
    task = get_task(path.stem)
    for trial, signed in ((0, False), (1, True)):
        if signed and not task.has_signed: continue
        b = bind(pipe.program, task, trial=trial, signed=signed)
        run = run_kernel(pipe["align"].build, pipe.program, b.values)
        assert run.ok, "\n".join(map(str, run.run.diagnostics))
        interp = interpret(pipe.program, b.values).torch()
        tolerances = output_tolerances(task, b.reference, load_settings())
        for name, want, tol in zip(b.outputs, b.reference, tolerances):
            got = run.outputs[name]
            assert got.shape == want.shape and got.dtype == want.dtype
            assert torch.allclose(got, want, atol=tol.atol, rtol=tol.rtol), \
                f"{name} vs torch, trial {trial}: max err {max_abs_err(got, want):.3g}"
            close = 1e-5 if got.dtype == torch.float32 else tol.atol
            assert torch.allclose(got, interp[name], atol=close, rtol=close), f"{name}: emulator and interpreter disagree"


ODD_SHAPES = [
    ("relu", {"x": (1, 5)}),                 # one block, a 20-byte tail
    ("relu", {"x": (3, 48 * 8 + 3)}),        # more blocks than work per block would suggest
    ("softmax", {"x": (5, 9001)}),           # odd rows, many blocks' worth of rows < cores
    ("layer_norm", {"x": (2, 3, 5, 7)}),     # a 105-element sample
    ("cumsum", {"x": (130, 67)}),            # three row tiles, a partial column tile
    ("max_pooling_2d", {"x": (1, 2, 9, 17)}),
]


@pytest.mark.parametrize("task_id,shapes", ODD_SHAPES, ids=[f"{t}-{'x'.join(map(str, s['x']))}" for t, s in ODD_SHAPES])
def test_odd_shapes(task_id, shapes):
    task = get_task(task_id)
    path = next(p for p in EXAMPLES if p.stem == task_id)
    pipe = lowered(path)
    assert pipe.final is not None
    values = bind(pipe.program, task, trial=0, signed=True).values
    g = torch.Generator().manual_seed(7)
    for name, shape in shapes.items():
        values[name] = torch.randn(*shape, generator=g)
    if "ln_weight" in values:  # parameters follow the input's trailing shape
        values["ln_weight"] = torch.randn(*shapes["x"][1:], generator=g)
        values["ln_bias"] = torch.randn(*shapes["x"][1:], generator=g)
    model = task.model("small")
    if task_id == "layer_norm":
        model = torch.nn.LayerNorm(shapes["x"][1:])
        with torch.no_grad():
            model.weight.copy_(values["ln_weight"]); model.bias.copy_(values["ln_bias"])
    # this kernel was analysed for the task's shapes; a new shape gets a fresh pipeline
    binding = {k: (v if not isinstance(v, torch.Tensor) else v) for k, v in values.items()}
    from ascendcraft.bind import spec_of_value
    fresh = Pipeline(path.read_text(), path.name, bindings=[{k: spec_of_value(v) for k, v in binding.items()}])
    fresh.run_all()
    assert fresh.final is not None, fresh.summary()
    run = run_kernel(fresh["align"].build, fresh.program, binding)
    assert run.ok, "\n".join(map(str, run.run.diagnostics))
    forward_args = [values[n] for n in task.forward_params]
    with torch.no_grad():
        want = model(*forward_args)
    got = next(iter(run.outputs.values()))
    assert torch.allclose(got, want, atol=1e-4, rtol=1e-4), (got - want).abs().max()


# The last block of a 2**31-element tensor: every scalar fits in 32 bits, but `start + per_block`
# and the loop variable after its last step do not. The kernel copies 8 elements every 2**20 of
# its share; traced at the full size, every copy must land where it should, exactly once (a 32-bit
# sum would wrap negative and skip the last block, a 32-bit loop variable would wrap and loop on).
LAST_TILE = '''
@host
def last_tile(x: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    per_block = align_up(ceil_div(N, cores()), 8)
    launch(last_tile_kernel, ceil_div(N, per_block), x, y, N, per_block)


@kernel
def last_tile_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int):
    xin = ub_in(f32, 8)
    yout = ub_out(f32, 8)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, 2**20):   # on the last block `off += 2**20` passes 2**31
        with copyin():
            load(xin, x[off : off + 8])
        with compute():
            muls(yout, xin, 1.0, 8)
        with copyout():
            store(y[off : off + 8], yout)
'''


def test_32_bit_scalars_are_widened_before_they_can_wrap():
    import numpy as np
    from ascendcraft.check import TensorSpec
    from ascendcraft.dsl import DTYPES
    from ascendcraft.launch import trace_kernel
    from ascendcraft.trace import Kind, Pipe
    n = 2**31
    binding = {"x": TensorSpec((n,), DTYPES["f32"])}
    pipe = Pipeline(LAST_TILE, "last_tile.py", bindings=[binding])
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    kernel = pipe.final[pipe.lowering.names.kernel_file]
    assert "int32_t start;" in kernel, "the range analysis should keep `start` in 32 bits (the trap this test is for)"
    # g++ may hide a wrapping loop variable (signed overflow is undefined, so it can reason the trip
    # count out in 64 bits), so its type is checked as written
    assert "for (int64_t off = start;" in kernel
    trace = trace_kernel(pipe["align"].build, pipe.program, {"x": binding["x"]})
    r = trace.records
    y = trace.tensor_names().index("y")
    stores = r[(r["kind"] == Kind.INSTR) & (r["pipe"] == Pipe.MTE3) & (r["tensor"] == y)]
    per_block = (-(-n // 48) + 7) // 8 * 8
    want = sorted(off for b in range(48) for off in range(b * per_block, min(b * per_block + per_block, n), 2**20))
    assert sorted((stores["gm_offset"] // 4).tolist()) == want, "every block stores exactly once per trip"


def test_snapshots_before_the_last_are_checked_and_the_last_is_built():
    "The passes' intermediate snapshots are checked by g++'s front end; only the last, which runs, is linked."
    pipe = lowered(EXAMPLES[0])
    *before, last = pipe.steps[1:]
    assert before and all(s.build.ok and s.build.check_only and s.build.binary is None for s in before)
    assert last.build.ok and not last.build.check_only and last.build.binary is not None
    assert pipe["align"].build is last.build
