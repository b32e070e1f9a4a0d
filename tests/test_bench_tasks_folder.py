"""`ascendcraft bench --tasks-folder DIR`: the harness on your own operators, in MultiKernelBench's file format.

The task folder is written here, the way a user (or upstream) writes it: `Model`, `get_inputs` and `get_init_inputs`
with the file's own (small) shapes and nothing of ours (no SMALL, SIGNED, …); one task in upstream's newer style with
`get_input_groups()` and no `get_inputs()` at all; a flat task file without a kernel; a helper module that is not a
task. The kernels folder mirrors the layout. The run goes through the CLI and the same task processes as the suite.
"""
import io
import os
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ascendcraft import executor
from ascendcraft.bench import run_bench
from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.executor import read_execution

SHIFTED = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """relu(x - shift)"""
    def __init__(self, shift: float = 0.25):
        super().__init__()
        self.shift = shift

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x - self.shift)


batch_size = 33
dim = 1031


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return [0.25]
'''

GROUPED = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


SHAPES = [(5, 77), (16, 2048), (1, 9)]


def get_input_groups():
    groups = []
    for shape in SHAPES:
        groups.append([torch.rand(*shape) * 2 - 1])
    return groups


def get_init_inputs():
    return []
'''

NEGATE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return -x


def get_inputs():
    return [torch.rand(8, 8)]


def get_init_inputs():
    return []
'''

SHIFTED_DSL = '''from ascendcraft.dsl import *

TILE = 4096


@host
def shifted_relu(x: gm[f32, ...], y: out[f32, x], shift: float = 0.25):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)
    launch(shifted_relu_kernel, blocks, x, y, N, per_block, TILE, 0.0 - shift)


@kernel
def shifted_relu_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int, tile: int, minus_shift: float):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            adds(yout, xin, minus_shift, n)
            maxs(yout, yout, 0.0, n)
        with copyout():
            store(y[off : off + n], yout)
'''

ROOT = Path(__file__).resolve().parents[1]


def relu_dsl(name: str) -> str:
    text = (ROOT / "tests" / "cheats" / "relu.py").read_text()
    return text.replace("def relu(", f"def {name}(").replace("relu_kernel", f"{name}_kernel")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("own")
    ops, kernels, out = root / "my_ops", root / "kernels", root / "out"
    (ops / "activation").mkdir(parents=True)
    (ops / "activation" / "shifted_relu.py").write_text(SHIFTED)
    (ops / "activation" / "relu_groups.py").write_text(GROUPED)
    (ops / "activation" / "shapes.py").write_text("LIMIT = 4\n")          # a helper, not a task
    (ops / "negate.py").write_text(NEGATE)                                   # flat, and no kernel for it
    (kernels / "activation").mkdir(parents=True)
    (kernels / "activation" / "shifted_relu.py").write_text(SHIFTED_DSL)
    (kernels / "activation" / "relu_groups.py").write_text(relu_dsl("relu_groups"))
    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr):
        status = main(["bench", "--tasks-folder", str(ops), "--kernels", str(kernels), "--out", str(out), "--jobs", "2",
                       "--quiet"])
    assert status == 0, stderr.getvalue()
    return root, ops, kernels, out, stdout.getvalue()


def result(out: Path, key: str) -> dict:
    return json.loads((out / key / "result.json").read_text())


def test_own_tasks_run_through_the_harness(run):
    root, ops, kernels, out, printed = run
    summary = json.loads((out / "summary.json").read_text())
    got = {f"{t['category']}/{t['task']}": (t["status"], t["compiled"], t["correct"]) for t in summary["tasks"]}
    assert got == {"activation/shifted_relu": ("ok", True, True), "activation/relu_groups": ("ok", True, True),
                   "my_ops/negate": ("no-kernel", False, False), "activation/shapes": ("not-a-task", None, False)}
    assert [t["task"] for t in summary["not_run"]] == ["activation/shapes"]
    assert json.loads((out / "run.json").read_text())["tasks"] == str(ops.resolve())
    assert "| activation | 2 | 100.0% (2) | 100.0% (2) |" in printed
    shifted = result(out, "activation/shifted_relu")
    assert shifted["timing"]["outputs"] == [{"tensor": "y", "bytes": 33 * 1031 * 4, "covered": 33 * 1031 * 4,
                                             "written": 33 * 1031 * 4}]
    assert shifted["inputs"]["task_file"] == str(ops / "activation" / "shifted_relu.py")
    assert (out / "tasks.md").is_file() and (out / "activation" / "shifted_relu" / "timeline.svg").is_file()


def test_input_groups_are_the_trials(run):
    "Upstream's protocol: every group is checked (and its signed variant); the first group is what is timed."
    root, ops, kernels, out, _ = run
    verdict = json.loads((out / "activation" / "relu_groups" / "verdict.json").read_text())
    assert verdict["settings"]["trials"] == 3 and verdict["mkb_passed"]
    assert [(t["check"], t["trial"]) for t in verdict["trials"]] == [("mkb", 0), ("mkb", 1), ("mkb", 2),
                                                                     ("signed", 0), ("signed", 1), ("signed", 2)]
    assert [t["outputs"][0]["shape"] for t in verdict["trials"][:3]] == [[5, 77], [16, 2048], [1, 9]]
    timing = result(out, "activation/relu_groups")["timing"]
    assert [o["bytes"] for o in timing["outputs"]] == [5 * 77 * 4]


def test_a_wrong_kernel_for_an_own_task_is_incorrect(run, tmp_path):
    "The harness holds own tasks to the same protocol: relu is not relu(x - 0.25)."
    root, ops, kernels, out, _ = run
    wrong = tmp_path / "kernels"
    (wrong / "activation").mkdir(parents=True)
    (wrong / "activation" / "shifted_relu.py").write_text(relu_dsl("shifted_relu").replace(
        "def shifted_relu(x: gm[f32, ...], y: out[f32, x]):", "def shifted_relu(x: gm[f32, ...], y: out[f32, x], shift: float = 0.25):"))
    kept = executor._kept_servers.get(os.getpid())           # the fixture's run (the CLI, in this process) started it
    forked_before = kept[1].children_cpu if kept else 0.0
    rep = run_bench(["shifted_relu"], kernels=wrong, out=tmp_path / "out", tasks_folder=ops, timing=False,
                    settings=load_settings().replace(trials=1), progress=False)
    r, = rep.results
    assert (r.status, r.detail, r.compiled, r.correct) == ("incorrect", "mismatch", True, False)
    # this run's task process was forked by the same kept server, and its CPU is counted from the server's report
    assert kept is not None and executor._kept_servers[os.getpid()][1] is kept[1] and kept[1].usable
    [session] = read_execution(tmp_path / "out")["sessions"]
    forked = kept[1].children_cpu - forked_before             # the server's report of the task process it forked
    assert session["executor"] == "local" and forked > 0 and session["cpu_s"] >= round(forked, 3), (session, forked)


def test_a_run_folder_holds_one_task_set(run):
    root, ops, kernels, out, _ = run
    with pytest.raises(AscendCraftError, match="holds a run with tasks"):
        run_bench(["relu"], kernels=ROOT / "examples", out=out, progress=False, size="auto")   # the CLI's default size


def test_a_broken_task_file_is_a_per_task_status_and_the_run_goes_on(run, tmp_path):
    "A syntax error, a missing module, a failing import and a non-task are each listed with their reason; the rest runs."
    root, ops, kernels, out, _ = run
    broken = tmp_path / "ops"
    broken.mkdir()
    (broken / "good.py").write_text(NEGATE)
    (broken / "bad.py").write_text(NEGATE + "\nraise ValueError('cannot load')\n")
    (broken / "syntax.py").write_text(NEGATE + "\ndef broken(:\n")
    (broken / "needs_npu.py").write_text("import torch_npu\n" + NEGATE)
    (broken / "helper.py").write_text("LIMIT = 4\n")
    printed = io.StringIO()
    with redirect_stderr(io.StringIO()), redirect_stdout(printed):
        status = main(["bench", "--tasks-folder", str(broken), "--kernels", str(kernels), "--out", str(tmp_path / "o"),
                       "--quiet", "--no-timing"])
    assert status == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    got = {t["task"]: (t["status"], t["detail"]) for t in summary["tasks"]}
    assert got == {"good": ("no-kernel", ""), "bad": ("task-error", "task-load-error"),
                   "syntax": ("task-error", "task-syntax"), "needs_npu": ("task-error", "task-missing-dependency"),
                   "helper": ("not-a-task", "not-a-task")}
    reasons = {t["task"]: t["reason"] for t in summary["not_run"]}
    assert "cannot load" in reasons["ops/bad"] and "torch_npu" in reasons["ops/needs_npu"]
    assert "bug in AscendCraft" not in (tmp_path / "o" / "summary.md").read_text()
    assert "## Task files not run (4)" in (tmp_path / "o" / "summary.md").read_text()
    assert [m["tasks"] for m in summary["metrics"] if m["group"] == "all"] == [1]


def test_task_and_category_choose_files_before_loading(run, tmp_path):
    "--task names one file: a broken neighbour is never loaded."
    root, ops, kernels, out, _ = run
    broken = tmp_path / "ops"
    (broken / "cat").mkdir(parents=True)
    (broken / "cat" / "good.py").write_text(NEGATE)
    (broken / "cat" / "syntax.py").write_text("def broken(:\n")
    (broken / "other").mkdir()
    (broken / "other" / "bad.py").write_text("raise SystemError('never load me')\n")
    rep = run_bench(["good"], kernels=kernels, out=tmp_path / "o1", tasks_folder=broken, timing=False, progress=False)
    assert [(r.key, r.status) for r in rep.results] == [("cat/good", "no-kernel")]
    rep = run_bench(None, ["cat"], kernels=kernels, out=tmp_path / "o2", tasks_folder=broken, timing=False, progress=False)
    assert sorted((r.key, r.status) for r in rep.results) == [("cat/good", "no-kernel"), ("cat/syntax", "task-error")]
    with pytest.raises(AscendCraftError, match="no task file 'godo'"):
        run_bench(["godo"], kernels=kernels, out=tmp_path / "o3", tasks_folder=broken, progress=False)
