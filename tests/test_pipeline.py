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


def test_a_broken_hand_edit_is_not_thrown_away_by_rerunning_later_steps(pipe):
    # the edit (a comment and a typo) leaves a compile error; rerunning from the next pass, or
    # running everything, must not quietly regenerate the edited step
    text = pipe["compute"].project[KERNEL]
    broken = text.replace("Relu(youtLocal, xinLocal, n);", "Relu(youtLocal, xinLocal, nn);  // reviewed")
    assert pipe.edit(3, {KERNEL: broken}).status == "compile error"
    for again in (lambda: pipe.rerun_from(4), pipe.run_all, pipe.step):
        again()
        step = pipe["compute"]
        assert step.edited and step.status == "compile error" and step.project[KERNEL] == broken
        assert pipe["align"].status == "stale"
    fixed = broken.replace("xinLocal, nn)", "xinLocal, n)")
    assert pipe.edit(3, {KERNEL: fixed}).status == "ok"
    pipe.run_all()
    assert all(s.status == "ok" for s in pipe.steps) and "// reviewed" in pipe.final[KERNEL]


def test_an_edit_is_reapplied_when_the_dsl_changes_elsewhere_and_set_aside_when_it_clashes(pipe):
    text = pipe["compute"].project[KERNEL]
    pipe.edit(3, {KERNEL: text.replace("Relu(youtLocal, xinLocal, n);", "Relu(youtLocal, xinLocal, n);  // reviewed")})
    # a DSL change away from the edited line (same line count, so the `// relu.py:N` comments stay)
    pipe.set_dsl(RELU.replace("n = min(tile, end - off)", "n = min(end - off, tile)"))
    pipe.run_all()
    assert all(s.status == "ok" for s in pipe.steps)
    assert pipe["compute"].edited and "// reviewed" in pipe.final[KERNEL]
    assert "ScalarMin(end - off, tile)" in pipe.final[KERNEL]               # and the new pass output around it
    assert "hand edit re-applied to the pass output" in pipe["compute"].notes
    # a change on the edited line itself: relu becomes abs in the DSL, so the line the edit changed is gone
    pipe.set_dsl(RELU.replace("relu(yout, xin, n)", "abs(yout, xin, n)"))
    pipe.run_all()
    step = pipe["compute"]
    assert step.status == "ok" and not step.edited and "Abs(youtLocal, xinLocal, n);" in step.project[KERNEL]
    (warning,) = [d for d in step.diagnostics if d.kind == "edit-not-reapplied"]
    assert warning.severity == "warning" and warning.file == KERNEL and "set_aside" in warning.hint
    assert "// reviewed" in step.set_aside[KERNEL] and "// reviewed" not in pipe.final[KERNEL]


def test_discard_edit_restores_the_pass_output(pipe):
    plain = pipe["init"].project[KERNEL]
    pipe.edit(2, {KERNEL: plain.replace("pipe_ = pipe;", "pipe_ = pipe;  // x")})
    step = pipe.discard_edit(2)
    assert step.status == "ok" and not step.edited and step.project[KERNEL] == plain
    assert pipe["compute"].status == "stale"


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
