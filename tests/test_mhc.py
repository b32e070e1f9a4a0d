"""The mHC case study's kernels: every variant verifies on the CPU emulation, and verification
catches H_res applied untransposed (which a doubly-stochastic or symmetry check would not)."""
from pathlib import Path

import pytest
import torch

from ascendcraft.bind import host_values
from ascendcraft.launch import run_kernel
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task, resolve_task
from ascendcraft.verify import verify

ROOT = Path(__file__).resolve().parents[1]
MHC = ROOT / "examples" / "mhc"
KERNELS = sorted([*MHC.glob("*.py"), *(MHC / "variants").glob("*.py")])


def verdict_of(source: str, task_id: str):
    task = resolve_task(task_id)                 # an id, or the path of a task file (the fp32 tasks)
    pipe = Pipeline(source, f"{task.id}.py", task=task)
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    build, program = pipe["align"].build, pipe.program
    outputs = [p.name for p in program.host.params if p.kind == "out"]

    def candidate(inputs):
        run = run_kernel(build, program, host_values(program, task, inputs))
        assert run.ok, [str(d) for d in run.run.diagnostics]
        values = [run.outputs[n] for n in outputs]
        return values[0] if len(values) == 1 else tuple(values)

    return verify(task, candidate)


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_variant_verifies_on_the_emulator(path):
    task_id = "mhc_post_grad" if path.stem.startswith("mhc_post_grad") else "mhc_post"
    verdict = verdict_of(path.read_text(), task_id)
    assert verdict.passed, verdict.summary


FP32 = MHC / "fp32"


@pytest.mark.parametrize("name", ["mhc_post", "mhc_post_grad"])
def test_fp32_stream_kernels_verify_against_fp32_tasks(name):
    # the paper times fp32 streams too: their own kernels (no widening casts), checked on fp32 inputs
    task = resolve_task(str(FP32 / f"{name}_f32.py"))
    assert task.id == f"{name}_f32" and all(t.dtype == torch.float32 for t in task.inputs("small")[:-2])
    verdict = verdict_of((FP32 / f"{name}_f32_kernel.py").read_text(), str(FP32 / f"{name}_f32.py"))
    assert verdict.passed, verdict.summary


def test_untransposed_h_res_is_caught():
    source = (MHC / "mhc_post.py").read_text()
    wrong = source.replace("get(coef, 8 + i * 8 + j)", "get(coef, 8 + j * 8 + i)")   # H_res[t, j, i] instead of [t, i, j]
    assert wrong != source
    verdict = verdict_of(wrong, "mhc_post")
    assert not verdict.passed and verdict.kind == "mismatch", verdict.summary


def test_the_reference_grad_matches_autograd():
    task = get_task("mhc_post_grad")
    G, X, h, H_post, H_res = [x.double() for x in task.inputs("small")]
    fwd = get_task("mhc_post").model("small")
    X.requires_grad_(True); h.requires_grad_(True); H_post.requires_grad_(True); H_res.requires_grad_(True)
    Y = fwd(h, X, H_post, H_res)
    grads = torch.autograd.grad(Y, (h, X, H_post, H_res), G)
    dh, dX, dH_post, dH_res = task.model("small")(G, X.detach(), h.detach(), H_post.detach(), H_res.detach())
    for ours, auto in zip((dh, dX, dH_post, dH_res), grads):
        assert torch.allclose(ours, auto, atol=1e-10, rtol=1e-10)
