"""The cube categories (issue 15, item 5): upstream's 17 `matmul` tasks and 11 of its `fuse` tasks (matmul + epilogue).

The registry holds upstream's files with our CI sizes (and, for the triangular tasks, signed inputs that keep the
task's promise) appended; they stay out of the default suite. Every task has an expert DSL kernel in
examples/<category>/; each checks clean at both sizes and matches its PyTorch reference through the NumPy interpreter
on MultiKernelBench's inputs and on signed ones. Three kernels, one per form (Matmul API, vector, mixed AIC:AIV), also
run on the emulator here; the full verification, coverage and timing run in `ascendcraft bench --category matmul
--category fuse`, whose figures the README reports.
"""
from pathlib import Path

import pytest
import torch

from ascendcraft.bind import bind, shape_bindings
from ascendcraft.check import check
from ascendcraft.config import load_settings
from ascendcraft.dsl import parse
from ascendcraft.generate import expert_path
from ascendcraft.interp import interpret
from ascendcraft.taskset import CUBE_COUNTS, DEFAULT_CATEGORIES, get_task, registry
from ascendcraft.verify import output_tolerances

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT / "tests" / "upstream_mkb" / "reference"
CUBE = registry(list(CUBE_COUNTS))
KERNELS = [(t, expert_path(t)) for t in CUBE]


def test_the_categories_are_upstreams_files_with_our_sizes():
    assert CUBE.counts() == CUBE_COUNTS == {"matmul": 17, "fuse": 11}
    assert sorted(t.id for t in CUBE if t.category == "matmul") == sorted(p.stem for p in (UPSTREAM / "matmul").glob("*.py"))
    for t in CUBE:
        ours, theirs = t.path.read_text(), (UPSTREAM / t.category / t.path.name).read_text()
        assert ours.startswith(theirs.rstrip()), t.key            # upstream's text, then SMALL (and SIGNED) appended
        assert t.has_small, t.key


def test_they_stay_out_of_the_default_suite_but_ids_find_them():
    assert {t.category for t in registry()} == set(DEFAULT_CATEGORIES)
    assert get_task("matmul/standard_matrix_multiplication").category == "matmul"
    assert get_task("gemm_add_relu").category == "fuse"


def test_every_task_has_an_expert_kernel():
    assert all(p.exists() for _, p in KERNELS), [t.key for t, p in KERNELS if not p.exists()]


@pytest.mark.parametrize("task,path", KERNELS, ids=[t.key for t, _ in KERNELS])
def test_kernel_checks_clean_at_both_sizes(task, path):
    program = parse(path.read_text(), str(path))
    diagnostics = check(program, shape_bindings(program, task, ("small", "full")))
    assert not diagnostics, "\n".join(map(str, diagnostics))


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
@pytest.mark.parametrize("task,path", KERNELS, ids=[t.key for t, _ in KERNELS])
def test_kernel_matches_torch_in_the_interpreter(task, path, signed):
    program = parse(path.read_text(), str(path))
    b = bind(program, task, trial=1, signed=signed)
    got = interpret(program, b.values).torch()
    for name, want, tol in zip(b.outputs, b.reference, output_tolerances(task, b.reference, load_settings())):
        out = got[name]
        assert out.shape == want.shape and out.dtype == want.dtype, name
        assert torch.allclose(out, want, atol=tol.atol, rtol=tol.rtol), f"{name}: max err {(out - want).abs().max():.3g}"


@pytest.mark.parametrize("key", ["matmul/batched_matrix_multiplication", "matmul/matmul_with_diagonal_matrices",
                                 "fuse/matmul_mish_mish"])
def test_one_kernel_per_form_matches_on_the_emulator(key):
    from ascendcraft.launch import run_kernel
    from ascendcraft.pipeline import Pipeline
    task = get_task(key)
    path = expert_path(task)
    pipe = Pipeline(path.read_text(), path.name, task=task)
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    b = bind(pipe.program, task, trial=0, signed=True)
    run = run_kernel(pipe.steps[-1].build, pipe.program, b.values)
    assert run.ok, "\n".join(map(str, run.run.diagnostics))
    for name, want, tol in zip(b.outputs, b.reference, output_tolerances(task, b.reference, load_settings())):
        assert torch.allclose(run.outputs[name], want, atol=tol.atol, rtol=tol.rtol), name
