"""Upstream's vector-only categories beyond the seven (issue 14, item 5): broadcast, index and resize.

The registry holds upstream's files unmodified; every one of them has an expert DSL kernel in examples/<category>/
or is named in the README's list of uncovered tasks with its reason. Each kernel checks clean at both sizes and matches
its PyTorch reference through the NumPy interpreter on MultiKernelBench's inputs and on signed ones (the emulator,
coverage and timing run in `ascendcraft bench --category ...`, whose figures the README reports).
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
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.taskset import BEYOND_COUNTS, DEFAULT_CATEGORIES, load_task_file, registry
from ascendcraft.verify import output_tolerances

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT / "tests" / "upstream_mkb" / "reference"
BEYOND = registry(list(BEYOND_COUNTS))
KERNELS = [(t, expert_path(t)) for t in BEYOND if expert_path(t).exists()]
# Upstream files whose fixed output size leaves no derivable small size (the bench verifies them with --size full):
# the interpreter checks their kernels on our own copies at a quarter of the size, the same ratios kept.
NO_SMALL = {k: ROOT / "tests" / "fixtures" / "beyond_small" / f"{k.split('/')[1]}.py"
            for k in ("resize/bicubic_upsample", "resize/resize_with_antialias")}


def test_the_three_categories_are_upstreams_files_unmodified():
    assert BEYOND.counts() == BEYOND_COUNTS == {"broadcast": 10, "index": 12, "resize": 10}
    for t in BEYOND:
        assert t.path.read_bytes() == (UPSTREAM / t.category / t.path.name).read_bytes(), t.key


def test_they_stay_out_of_the_default_suite_but_ids_find_them():
    assert {t.category for t in registry()} == set(DEFAULT_CATEGORIES)
    assert registry(tasks=["gather"]).ids == ["gather"] and registry(tasks=["index/gather"])[0].category == "index"


def test_every_task_has_a_kernel_or_a_stated_reason():
    readme = (ROOT / "README.md").read_text()
    missing = [t.key for t, p in ((t, expert_path(t)) for t in BEYOND) if not p.exists()]
    unexplained = [k for k in missing if f"`{k}`" not in readme]
    assert not unexplained, f"no expert kernel and no reason in the README for {unexplained}"


@pytest.mark.parametrize("task,path", KERNELS, ids=[t.key for t, _ in KERNELS])
def test_kernel_checks_clean_at_both_sizes(task, path):
    program = parse(path.read_text(), str(path))
    if task.key in NO_SMALL:
        with pytest.raises(AscendCraftError, match="no-derived-size"):
            shape_bindings(program, task, ("small",))
    sizes = ("full",) if task.key in NO_SMALL else ("small", "full")
    diagnostics = check(program, shape_bindings(program, task, sizes))
    assert not diagnostics, "\n".join(map(str, diagnostics))


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
@pytest.mark.parametrize("task,path", KERNELS, ids=[t.key for t, _ in KERNELS])
def test_kernel_matches_torch_in_the_interpreter(task, path, signed):
    program = parse(path.read_text(), str(path))
    size = "small"
    if task.key in NO_SMALL:
        task, size = load_task_file(NO_SMALL[task.key]), "full"
    for trial in range(2):
        b = bind(program, task, size, trial=trial, signed=signed)
        if signed and not all(torch.isfinite(r).all() for r in b.reference if r.is_floating_point()):
            continue                     # the harness drops a signed trial whose reference is not finite
        got = interpret(program, b.values).torch()
        for name, want, tol in zip(b.outputs, b.reference, output_tolerances(task, b.reference, load_settings())):
            out = got[name]
            assert out.shape == want.shape and out.dtype == want.dtype, name
            assert torch.allclose(out, want, atol=tol.atol, rtol=tol.rtol, equal_nan=True), f"{name} trial {trial}"


@pytest.mark.parametrize("key", ["index/inplace_update", "index/index_copy"])
@pytest.mark.parametrize("size", ["small", "full"])
def test_repeated_indices_apply_in_order_in_the_reference(key, size):
    "The reference runs in PyTorch's deterministic mode: repeated indices land in order, the last one wins."
    task = registry(tasks=[key])[0]
    x, idx, value = task.inputs(size)
    assert len(set(idx.tolist())) < len(idx)             # the draw really repeats indices
    want = x.clone()
    for i in range(len(idx)): want[idx[i]] = value[i]
    for _ in range(2):
        assert torch.equal(task.reference([x.clone(), idx, value], size), want)
