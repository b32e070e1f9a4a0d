"""The benchmark harness on a handful of tasks: results, tables, JSON, broken kernels, fingerprints, timing flags.

One run over a small kernels folder laid out like examples/: two good expert kernels, a DSL with a
syntax error, a kernel that is wrong on negative inputs, one whose hand-edited AscendC does not
compile, and a task without a kernel. The run must report each with its own status and log, and
carry on past every failure.
"""
import io
import json
import os
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from ascendcraft.bench import is_done, plan, run_bench
from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.pipeline import Pipeline
from ascendcraft.report import FAST_PS, BenchReport, TaskResult, report
from ascendcraft.seal import sign
from ascendcraft.taskset import get_task, registry

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TASKS = ["relu", "sgd", "gelu", "leaky_relu", "hardtanh", "tanh"]
LIMIT = 1.5     # plausible_speedup for this run: sgd (a fused optimizer step) beats it, relu does not


def make_kernels(folder: Path) -> Path:
    relu = (EXAMPLES / "activation" / "relu.py").read_text()
    (folder / "activation").mkdir(parents=True)
    (folder / "optimizer").mkdir()
    (folder / "activation" / "relu.py").write_text(relu)
    shutil.copy(EXAMPLES / "optimizer" / "sgd.py", folder / "optimizer" / "sgd.py")
    broken = relu.replace("def relu(x: gm[f32, ...], y: out[f32, x]):", "def relu(x: gm[f32, ...], y: out[f32, x])")
    assert broken != relu
    (folder / "activation" / "gelu.py").write_text(broken)                  # dsl-error
    (folder / "activation" / "leaky_relu.py").write_text(relu)              # relu is not leaky: wrong below zero
    (folder / "activation" / "hardtanh.py").write_text(relu)
    edits = folder / "activation" / "hardtanh.ascendc"                       # a hand edit that does not compile
    edits.mkdir()
    pipe = Pipeline(relu, "relu.py", task=get_task("relu"), compile=False)
    pipe.run_all()
    kernel = pipe.final["relu_kernel.cpp"]
    (edits / "relu_kernel.cpp").write_text(kernel.replace("Relu(youtLocal, xinLocal, n);", "Relu(youtLocal, xinLocal);"))
    return folder


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("bench")
    kernels = make_kernels(root / "kernels")
    settings = load_settings().replace(trials=2, plausible_speedup=LIMIT)
    rep = run_bench(TASKS, kernels=kernels, out=root / "out", jobs=2, settings=settings, progress=False)
    return rep, root, kernels, settings


def by_task(rep: BenchReport) -> dict:
    return {r.task: r for r in rep.results}


def test_every_task_gets_its_status(run):
    rep, root, *_ = run
    got = {t: (r.status, r.detail) for t, r in by_task(rep).items()}
    assert got == {"relu": ("ok", ""), "sgd": ("ok", ""), "gelu": ("dsl-error", "syntax"),
                   "leaky_relu": ("incorrect", "mismatch"), "hardtanh": ("compile-error", "align"),
                   "tanh": ("no-kernel", "")}, got


def test_failures_keep_their_logs(run):
    rep, root, *_ = run
    out = root / "out"
    results = by_task(rep)
    for task in ("gelu", "leaky_relu", "hardtanh"):
        r = results[task]
        log = out / r.category / r.task / r.log
        assert log.is_file() and log.stat().st_size > 0, (task, r.log)
        assert r.first_diagnostic
    assert results["gelu"].diagnostics[0]["where"].startswith("gelu.py:")
    assert "Relu" in results["hardtanh"].diagnostics[0]["text"]            # the failing line, quoted
    assert results["hardtanh"].edited and "edited" in results["hardtanh"].flags
    assert results["leaky_relu"].verdict["mkb_passed"] is True              # MultiKernelBench alone is fooled
    assert (results["hardtanh"].compiled, results["leaky_relu"].compiled, results["gelu"].compiled) == (False, True, False)
    for task in ("relu", "sgd"):
        folder = out / "activation" / task if task == "relu" else out / "optimizer" / task
        for name in ("pipeline/pipeline.json", "pipeline/04_align/relu_kernel.cpp" if task == "relu" else "pipeline/04_align/log.txt",
                     "verdict.json", "run.log", "timing.json", "honesty.txt", "result.json"):
            assert (folder / name).exists(), (task, name)


def test_task_processes_share_the_cpus_among_the_jobs(run):
    "Two task processes at once on this machine: each runs torch on its share of the CPUs (more threads only spin)."
    rep, root, *_ = run
    share = max(1, len(os.sched_getaffinity(0)) // 2)
    for r in (r for r in rep.results if r.status != "no-kernel"):         # a task without a kernel starts no process
        folder = root / "out" / r.category / r.task
        assert json.loads((folder / "spec.json").read_text())["threads"] == share, r.key
        assert f"task process: torch on {share} thread(s)" in (folder / "task.log").read_text(), r.key


def test_metrics_and_tables(run):
    rep, root, *_ = run
    rs = rep.results
    summary = json.loads((root / "out" / "summary.json").read_text())
    overall = next(m for m in summary["metrics"] if m["group"] == "all")
    assert (overall["tasks"], overall["compiled"], overall["correct"]) == (6, 3, 2)
    for p in FAST_PS:
        expected = sum(1 for r in rs if r.correct and r.speedup is not None and r.speedup >= p)
        assert overall["fast"][f"{p:.1f}"]["count"] == expected
    assert summary["timing"]["kind"] == "modelled" and summary["fast_p"]["comparison"] == ">="
    md = (root / "out" / "summary.md").read_text()
    assert "modelled on the Ascend910B2 profile" in md
    for t in TASKS: assert f"| {t} |" in md
    assert "activation/gelu/pipeline/00_dsl/log.txt" in md                 # failure -> its log
    timed = [r for r in rs if r.timing]
    assert {r.task for r in timed} == {"relu", "sgd"}
    for r in timed:
        t = r.timing
        assert t["kind"] == "modelled" and t["soc"] == "Ascend910B2" and t["verdict"].endswith("-bound")
        assert abs(t["speedup"] - t["eager_us"] / t["call_us"]) < 1e-9 * t["speedup"]
    buf = io.StringIO()
    with redirect_stdout(buf): assert main(["table", str(root / "out")]) == 0
    assert rep.metrics_table() in buf.getvalue()


def test_implausible_speedups_are_flagged_not_dropped(run):
    rep, root, *_ = run
    for r in rep.results:
        if r.timing:
            assert ("implausible-speedup" in r.flags) == (r.speedup > LIMIT), (r.task, r.speedup, r.flags)
    flagged = [r for r in rep.results if "implausible-speedup" in r.flags]
    assert flagged, "sgd's modelled speed-up should exceed the 1.5x limit of this run"
    md = rep.markdown()
    assert "## Flagged for review" in md and all(f"**{r.key}**" in md for r in flagged)
    assert rep.overall.fast[1.0] == sum(1 for r in rep.results if r.correct and (r.speedup or 0) >= 1.0)  # still counted


def test_table_never_mixes_measured_and_modelled(run, tmp_path):
    rep, root, kernels, settings = run
    copy = tmp_path / "mixed"
    shutil.copytree(root / "out", copy)
    path = copy / "activation" / "relu" / "result.json"
    data = json.loads(path.read_text())
    data["timing"]["kind"] = "measured"
    path.write_text(json.dumps(sign(data, settings.cache_path)))        # as a sealed measured run would have written it
    with pytest.raises(AscendCraftError, match="mix measured and modelled"):
        report(copy)
    assert main(["table", str(copy)]) == 2


def test_a_run_folder_holds_one_size(run):
    rep, root, kernels, settings = run
    with pytest.raises(AscendCraftError, match="size 'small', not 'full'"):
        run_bench(["relu"], kernels=kernels, out=root / "out", size="full", settings=settings, progress=False)


def test_changed_dsl_invalidates_only_its_task(run):
    rep, root, kernels, settings = run
    out = root / "out"
    before = {r.task: (out / r.category / r.task / "result.json").stat().st_mtime_ns for r in rep.results}
    specs = plan(list(registry(tasks=TASKS)), kernels, out, size="small", timing=True, source="expert",
                 settings=settings, task_timeout=900)
    assert all(is_done(s) for s in specs)
    dsl = kernels / "activation" / "relu.py"
    dsl.write_text(dsl.read_text() + "\n# a comment changes the fingerprint\n")
    specs = plan(list(registry(tasks=TASKS)), kernels, out, size="small", timing=True, source="expert",
                 settings=settings, task_timeout=900)
    assert {s.task for s in specs if not is_done(s)} == {"relu"}
    again = run_bench(TASKS, kernels=kernels, out=out, jobs=2, settings=settings, progress=False)
    after = {r.task: (out / r.category / r.task / "result.json").stat().st_mtime_ns for r in again.results}
    assert {t for t in TASKS if after[t] != before[t]} == {"relu"}
    assert by_task(again)["relu"].status == "ok"
