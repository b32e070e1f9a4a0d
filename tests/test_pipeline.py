"""The steppable pipeline: step, rerun from a pass, edited snapshots, stale marking, export, diffs."""
import json
from pathlib import Path

import pytest

from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task

ROOT = Path(__file__).resolve().parents[1]
RELU = (ROOT / "examples/activation/relu.py").read_text()
KERNEL = "relu_kernel.cpp"


@pytest.fixture
def pipe():
    p = Pipeline(RELU, "relu.py", task=get_task("relu"))
    p.run_all()
    assert [s.status for s in p.steps] == ["ok"] * 5
    return p


def test_steps_one_at_a_time():
    p = Pipeline(RELU, "relu.py", task=get_task("relu"))
    assert p.next_index == 0
    names = []
    while (s := p.step()) is not None:
        names.append(s.name)
        assert s.status == "ok"
    assert names == ["dsl", "host", "init", "compute", "align"]
    assert p.step() is None


def test_each_snapshot_adds_its_layer(pipe):
    host, init, compute = (pipe[n].project[KERNEL] for n in ("host", "init", "compute"))
    assert "TODO(init pass)" in host and "InitBuffer" not in host
    assert "InitBuffer(xinQue, 2" in init and "TODO(compute pass): the kernel body" in init
    assert "CopyIn(" in compute and "TODO" not in compute
    assert all(pipe[n].changed for n in ("host", "init", "compute", "align"))


def test_rerun_from_a_pass_leaves_earlier_steps_alone(pipe):
    before = [(s.name, s.seconds) for s in pipe.steps[:3]]
    project = pipe["compute"].project
    pipe.rerun_from(3)
    assert [(s.name, s.seconds) for s in pipe.steps[:3]] == before
    assert pipe["compute"].project == project          # deterministic
    assert all(s.status == "ok" for s in pipe.steps)


def test_edit_marks_downstream_stale_and_continues_from_the_edit(pipe):
    text = pipe["init"].project[KERNEL].replace("pipe_ = pipe;", "pipe_ = pipe;  // reviewed")
    step = pipe.edit(2, {KERNEL: text})
    assert step.edited and step.status == "ok"
    assert [s.status for s in pipe.steps[3:]] == ["stale", "stale"]
    pipe.run_all()
    assert all(s.status == "ok" for s in pipe.steps)
    assert "// reviewed" in pipe.final[KERNEL]                  # compute and align kept the edit


def test_edit_that_breaks_the_build_then_fixes_it(pipe):
    good = pipe["align"].project[KERNEL]
    broken = good.replace("Relu(youtLocal, xinLocal, n);", "Relu(youtLocal, xinLocal, m);")
    step = pipe.edit(4, {KERNEL: broken})
    assert step.status == "compile error"
    line = next(i for i, l in enumerate(broken.splitlines(), 1) if "xinLocal, m)" in l)
    errors = step.errors
    assert errors and errors[0].file == KERNEL and errors[0].line == line
    assert "'m' was not declared" in errors[0].message
    earlier = [s.seconds for s in pipe.steps[:4]]
    step = pipe.edit(4, {KERNEL: good})
    assert step.status == "ok" and not step.errors
    assert [s.seconds for s in pipe.steps[:4]] == earlier       # nothing upstream reran


def test_a_pass_whose_placeholder_was_edited_away_fails_clearly(pipe):
    text = pipe["init"].project[KERNEL].replace("        // TODO(compute pass): the kernel body\n", "")
    pipe.edit(2, {KERNEL: text})
    step = pipe.step()
    assert step.name == "compute" and step.status == "failed"
    assert step.diagnostics[0].kind == "anchor-missing"
    assert "TODO(compute pass): the kernel body" in step.diagnostics[0].message


def test_new_dsl_makes_everything_stale_and_bad_dsl_fails_at_the_front(pipe):
    pipe.set_dsl(RELU.replace("relu(yout, xin, n)", "relu(yout, xin)"))
    assert all(s.status == "stale" for s in pipe.steps)
    pipe.run_all()
    front = pipe["dsl"]
    assert front.status == "failed" and front.diagnostics[0].kind == "arg-count"
    assert pipe["host"].status == "stale"


def test_align_pass_says_when_it_changes_nothing():
    from ascendcraft.check import TensorSpec
    from ascendcraft.dsl import DTYPES
    p = Pipeline(RELU, "relu.py", bindings=[{"x": TensorSpec((4096, 393216), DTYPES["f32"])}])
    p.run_all()
    align = p["align"]
    assert align.status == "ok" and align.changed is False
    assert "no change" in align.notes[0]
    assert "DataCopyPad" not in align.project[KERNEL]


def test_export_writes_numbered_steps(pipe, tmp_path):
    out = pipe.export(tmp_path / "run")
    names = sorted(p.name for p in out.iterdir())
    assert names == ["00_dsl", "01_host", "02_init", "03_compute", "04_align", "pipeline.json"]
    assert (out / "00_dsl" / "relu.py").read_text() == RELU
    assert (out / "04_align" / KERNEL).read_text() == pipe.final[KERNEL]
    assert "g++" in (out / "03_compute" / "log.txt").read_text()
    manifest = json.loads((out / "pipeline.json").read_text())
    assert [s["status"] for s in manifest["steps"]] == ["ok"] * 5


def test_diff_between_snapshots(pipe):
    d = pipe.diff(3, 4)
    assert d.startswith("--- 03_compute/relu_kernel.cpp") and "+        DataCopyPad(" in d
    assert pipe.diff(1, 4).count("+++") == 1          # only the kernel file changes after host
