"""Headless tests of the workbench widget: build it on a session, set editor values, click buttons, read the HTML.

Every test drives the view the way a user would (editor values, button clicks) and checks what the view shows
against the session underneath. The kernels are leaky_relu's (small, fast to compile and time).
"""
import html
import json
import re
import socket
import threading
import time
from pathlib import Path

import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.session import Session
from ascendcraft.workbench import Workbench, launch_workbench, open_workbench, recorded_llm, workbench_page

TASK = "leaky_relu"
BAD_CALL = "LeakyRelu(youtLocal, xinLocal, slope);"          # the vector call without its count: does not compile
GOOD_CALL = "LeakyRelu(youtLocal, xinLocal, slope, n);"


def line_of(text: str, needle: str) -> int:
    "1-based number of the first line of `text` containing `needle`."
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def count_runs(session) -> list:
    "Record the index of every step the pipeline runs from now on."
    runs, run_step = [], session.pipeline.run_step

    def counting(k):
        runs.append(k)
        return run_step(k)
    session.pipeline.run_step = counting
    return runs


@pytest.fixture
def wb():
    "A workbench on leaky_relu with every pass run (inline, so each click completes before it returns)."
    return open_workbench(TASK, llm=None, background=False, run=True, folder=None)


def test_pass_list_diff_and_compiler_panes(wb):
    s = wb.session
    assert [st.status for st in s.steps] == ["ok"] * 5
    for k, info in enumerate(wb.pass_list.infos):
        assert 'data-status="ok"' in info.value
        assert ("changed" in info.value) == (k > 0)               # the front end has no snapshot to compare
    wb.select(4)                                                  # align: DataCopy -> DataCopyPad
    assert "DataCopyPad" in wb.diff_view.value and "03_compute/leaky_relu_kernel.cpp" in wb.diff_view.labels
    assert wb.diff_view.original == s.steps[3].project["leaky_relu_kernel.cpp"]   # the pass before, as code
    wb.diff_pane.layout_pick.value = "side"
    assert wb.diff_view.layout_mode == "side" and "DataCopyPad" in wb.diff_view.value
    build = s.steps[4].build
    assert " ".join(build.command[:2]) in wb.compiler_view.value  # the exact command, as it was run
    assert str(build.folder) in wb.compiler_view.value
    assert list(wb.files_view.titles) == s.steps[4].project.names


def test_snapshot_edit_error_at_its_line_then_fix_without_rerunning_earlier_passes(wb):
    s = wb.session
    wb.select(3)
    good = wb.snapshot_editor.value
    assert good == s.steps[3].project[wb.edit_file.value] and GOOD_CALL in good
    runs = count_runs(s)
    wb.snapshot_editor.value = good.replace(GOOD_CALL, BAD_CALL)
    wb.buttons["apply_edit"].click()
    line = line_of(wb.snapshot_editor.value, BAD_CALL)
    assert [st.status for st in s.steps][3:] == ["compile error", "stale"]
    assert 'data-status="compile error"' in wb.pass_list.infos[3].value and "edited" in wb.pass_list.infos[3].value
    assert f"leaky_relu_kernel.cpp:{line}:" in wb.compiler_view.value   # the error, against its line
    assert str(line) in wb.snapshot_editor.marks                         # marked in the editor
    files = wb.files_view.children[wb.files_view.titles.index("leaky_relu_kernel.cpp")].value
    marked = re.findall(r'background:#ffebe9;" title="[^"]*"><span[^>]*>\s*(\d+)', files)
    assert marked == [str(line)]                                         # and in the highlighted file
    assert not wb.buttons["step"].disabled

    wb.snapshot_editor.value = good
    wb.buttons["apply_edit"].click()
    assert s.steps[3].status == "ok" and 'data-status="ok"' in wb.pass_list.infos[3].value
    assert wb.snapshot_editor.marks == {}
    assert runs == []                                   # the edits ran no pass at all, only the compiler
    wb.buttons["step"].click()
    assert runs == [4] and s.steps[4].status == "ok"    # continuing runs only the align pass


def test_hide_unchanged_hides_the_align_pass_when_it_changed_nothing(wb):
    s = wb.session
    padded = s.steps[4].project["leaky_relu_kernel.cpp"]  # align's output: both copies use DataCopyPad
    wb.select(3)
    wb.snapshot_editor.value = padded                     # write the padded copies by hand into compute
    wb.buttons["apply_edit"].click()
    wb.buttons["step"].click()
    assert s.steps[4].status == "ok" and s.steps[4].changed is False
    assert "no change" in wb.pass_list.infos[4].value
    assert wb.pass_list.visible == [0, 1, 2, 3, 4]
    wb.hide_unchanged.value = True
    assert wb.pass_list.visible == [0, 1, 2, 3]
    assert wb.pass_list.rows[4].layout.display == "none"
    assert wb.selected == 3                               # the hidden pass is not left selected
    wb.hide_unchanged.value = False
    assert wb.pass_list.visible == [0, 1, 2, 3, 4]


def test_broken_dsl_marks_its_line_and_fixing_it_turns_green(wb):
    s = wb.session
    good = wb.dsl_editor.value
    wb.dsl_editor.value = good.replace("leaky_relu(yout, xin, slope, n)", "leaky_relu(yout, xin, n)")
    assert "edited" in wb.dsl_state.value and not wb.buttons["run_all"].disabled
    wb.buttons["run_all"].click()
    line = line_of(wb.dsl_editor.value, "leaky_relu(yout, xin, n)")
    assert s.steps[0].status == "failed" and wb.selected == 0
    assert [st.status for st in s.steps][1:] == ["stale"] * 4
    assert list(wb.dsl_editor.marks) == [str(line)]
    assert f"leaky_relu.py:{line}:" in wb.compiler_view.value and "DSL check" in wb.compiler_view.value
    wb.dsl_editor.value = good
    wb.buttons["run_all"].click()
    assert [st.status for st in s.steps] == ["ok"] * 5 and wb.dsl_editor.marks == {}


def test_llm_buttons_disabled_without_a_client_and_say_why():
    wb = Workbench(Session(TASK), background=False)
    for name in ("ask_fix", "ask_faster"):
        assert wb.buttons[name].disabled
        assert "no LLM client" in wb.buttons[name].tooltip and "llm_base_url" in wb.buttons[name].tooltip
    with_llm = Workbench(Session(TASK, llm=recorded_llm()), background=False)
    assert not with_llm.buttons["ask_faster"].disabled
    assert with_llm.buttons["ask_fix"].disabled and "compile errors" in with_llm.buttons["ask_fix"].tooltip


def test_progress_is_shown_and_buttons_disabled_during_a_background_action():
    wb = Workbench(Session(TASK), background=True)
    seen = []
    report = wb.session.progress

    def spy(message, fraction):                       # what the view shows at each progress report
        report(message, fraction)
        seen.append((wb.runner.bar.value, wb.runner.message.value, wb.buttons["verify"].disabled,
                     wb.buttons["run_all"].disabled, wb.runner.busy))
    wb.session.progress = spy
    wb.buttons["run_all"].click()
    assert wb.wait(120)
    messages = " ".join(m for _, m, *_ in seen)
    assert "host pass" in messages and "align pass" in messages
    fractions = [f for f, *_ in seen]
    assert any(0 < f < 1 for f in fractions) and fractions == sorted(fractions)
    assert all(busy and verify_off and run_off for *_, verify_off, run_off, busy in seen)
    assert not wb.runner.busy and not wb.buttons["verify"].disabled
    assert wb.runner.bar.bar_style == "success" and "run all: done" in wb.runner.message.value


def test_a_failing_action_shows_its_diagnostics_in_the_view():
    wb = Workbench(Session(TASK), background=True)
    wb.dsl_editor.value = wb.session.dsl.replace("leaky_relu(yout, xin, slope, n)", "leaky_relu(yout, xin, n)")
    wb.buttons["time"].click()                        # time needs a lowered kernel: the DSL does not check
    assert wb.wait(120)
    assert isinstance(wb.runner.last_error, AscendCraftError)
    assert "not-lowered" in wb.runner.error.value and "run all passes" in wb.runner.error.value
    assert wb.runner.bar.bar_style == "danger" and "time: failed" in wb.runner.message.value
    wb.dsl_editor.value = wb.session.dsl.replace("leaky_relu(yout, xin, n)", "leaky_relu(yout, xin, slope, n)")
    wb.buttons["run_all"].click(); wb.wait(120)
    assert wb.runner.error.value == ""                # the next action clears the banner


def test_verify_time_variants_and_compare(wb, tmp_path):
    s = wb.session
    wb.buttons["verify"].click()
    assert s.verdict.passed and 'data-kind="pass"' in wb.verify_view.value
    assert wb.verify_view.value.count("<tr>") == 1 + len(s.verdict.trials)   # header + one row per trial
    wb.buttons["time"].click()
    view = wb.timing_view.value
    assert f"Timing · {s.timing.label}" in view and s.timing.label.startswith("modelled on Ascend910B2")
    assert f"bottleneck: <b>{s.timing.kernel.verdict}</b>" in view and "<svg" in view   # the static picture, folded
    figure = json.loads(wb.timeline_plot.figure)     # the interactive timeline: a row per pipe and block, hover details
    assert wb.timeline_plot.layout.display is None and "ac-timeline-plot" in wb.timeline_plot._dom_classes and wb.timeline_plot.name == "timeline"
    rows = {y for trace in figure["data"] for y in trace["y"]}
    assert {"block 0 · MTE2", "block 1 · MTE2", "block 0 · V"} <= rows, rows
    assert all("bytes" in t["hovertemplate"] and "AscendC line" in t["hovertemplate"] for t in figure["data"])
    assert f"{s.timing.kernel.total_us:,.1f} µs" in view

    wb.variant_name.value = "tile8k"
    wb.buttons["record"].click()
    wb.dsl_editor.value = s.dsl.replace("TILE = 8192", "TILE = 4096")
    assert "stale" not in wb.timing_view.value
    wb.buttons["run_all"].click()
    assert "stale" in wb.timing_view.value            # the last timing stays on screen, marked stale
    wb.variant_name.value = "tile4k"
    wb.buttons["record"].click()
    names = [v.name for v in s.history.variants]
    assert names == ["tile8k", "tile4k"] and [v.origin for v in s.history.variants] == ["expert", "edit"]
    assert wb.variants_view.value.count('class="ac-variant"') == 2
    assert not wb.buttons["compare"].disabled
    wb.compare_a.value, wb.compare_b.value = 0, 1
    wb.buttons["compare"].click()
    a, b = (v.evaluation.kernel_us for v in s.history.variants)
    assert f"{a / b:.2f}×" in wb.compare_view.value and "1 tile4k" in wb.compare_view.value
    diff = wb.compare_diff.view                       # the DSL diff as code: CodeMirror, Python, the files' own lines
    assert wb.compare_diff.layout.display is None and diff.language == "python"
    assert diff.labels == [f"0_tile8k/{s.filename}", f"1_tile4k/{s.filename}"]
    assert "TILE = 8192" in diff.original and "TILE = 4096" not in diff.original and "TILE = 4096" in diff.value
    assert wb.compare_view.value.count("<svg") == 2   # both timelines

    wb.variant_pick.value = 0
    wb.buttons["use_variant"].click()
    assert "TILE = 8192" in wb.dsl_editor.value and s.dsl == wb.dsl_editor.value
    assert [st.status for st in s.steps] == ["ok"] * 5

    wb.export_folder.value = str(tmp_path / "run")
    wb.buttons["export"].click()
    assert (tmp_path / "run" / "pipeline" / "pipeline.json").exists()
    assert (tmp_path / "run" / "variants" / "00_tile8k.py").exists()
    assert "exported" in wb.export_view.value


def test_the_page_gets_the_task_and_settings(tmp_path):
    from ascendcraft.config import load_settings
    settings = load_settings(jobs=1, llm_model="m")
    path = workbench_page("relu", settings, tmp_path, workdir=tmp_path / "work")
    cells = json.loads(path.read_text())["cells"]
    params = next(c for c in cells if "parameters" in c["metadata"].get("tags", []))
    scope = {}
    exec("".join(params["source"]), scope)
    assert scope["task"] == "relu" and scope["settings_values"]["jobs"] == 1 and scope["settings_values"]["llm_model"] == "m"
    assert scope["settings_values"]["soc"] == settings.soc and scope["workdir"] == str(tmp_path / "work")
    page = json.loads(path.read_text())                      # `nbdev-clean` drops cell tags: still found by its content
    for cell in page["cells"]: cell["metadata"] = {}
    (tmp_path / "clean").mkdir(); (tmp_path / "clean.ipynb").write_text(json.dumps(page))
    again = json.loads(workbench_page("gelu", None, tmp_path / "clean", tmp_path / "clean.ipynb").read_text())
    cell = next("".join(c["source"]) for c in again["cells"] if "".join(c["source"]).startswith("task = 'gelu'"))
    assert cell.startswith("task = 'gelu'\nsettings_values = None\nworkdir = None\nstarted = ")
    scope = {}
    exec(cell, scope)
    assert abs(scope["started"] - time.time()) < 600          # when the page was made: a reload after it resumes


def test_launch_refuses_an_unknown_task_before_starting_a_server():
    with pytest.raises(AscendCraftError) as e:
        launch_workbench("no_such_operator", port=0, block=False)
    assert "no_such_operator" in str(e.value)


def test_launch_refuses_a_port_in_use():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0)); busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(AscendCraftError) as e:
            launch_workbench(TASK, port=port, block=False)
    assert e.value.kinds == ["port-in-use"]


def test_ask_the_llm_to_fix_the_selected_snapshot(tmp_path):
    from ascendcraft.config import load_settings
    from ascendcraft.llm import LLMClient, ReplyCache
    from ascendcraft.llm_server import FakeLLMServer

    def answer(request):                              # an expert's fix: put the count back
        user = request["messages"][-1]["content"]
        kernel = re.search(r"```cpp title=leaky_relu_kernel\.cpp\n(.*?)\n```", user, re.S).group(1)
        return f"Pass the count.\n\n```cpp title=leaky_relu_kernel.cpp\n{kernel.replace(BAD_CALL, GOOD_CALL)}\n```\n"

    with FakeLLMServer(answer) as server:
        settings = load_settings(llm_base_url=server.base_url, llm_model="scripted")
        wb = Workbench(Session(TASK, settings=settings, llm=LLMClient(settings, cache=ReplyCache(tmp_path))))
        wb.buttons["run_all"].click(); assert wb.wait(120)
        wb.select(3)
        wb.snapshot_editor.value = wb.snapshot_editor.value.replace(GOOD_CALL, BAD_CALL)
        wb.buttons["apply_edit"].click(); assert wb.wait(120)
        assert wb.session.steps[3].status == "compile error" and not wb.buttons["ask_fix"].disabled
        runs = count_runs(wb.session)
        wb.buttons["ask_fix"].click(); assert wb.wait(120)
        asked = server.chat_requests
    assert wb.runner.error.value == "" and "ask the LLM for a fix: done" in wb.runner.message.value
    assert wb.session.steps[3].status == "ok" and wb.session.steps[3].edited and runs == []
    assert GOOD_CALL in wb.snapshot_editor.value and wb.snapshot_editor.marks == {}
    assert len(asked) == 1 and BAD_CALL in asked[0].body["messages"][-1]["content"]   # the broken snapshot was sent
    # the conversation is shown as the LLM's, with what it produced; the edit is the LLM's, not "by hand"
    assert "edited · LLM fix" in wb.pass_list.infos[3].value and "edited by the LLM fix" in wb.edit_state.value
    assert "by hand" not in wb.edit_state.value
    [talk] = wb.desk.conversations
    assert talk.produced == "edit of 3 compute (LLM fix)" and len(talk.turns) == 1
    shown = html.unescape(wb.conversation_view.value)
    assert "produced: edit of 3 compute (LLM fix)" in shown and "LLM reply" in shown
    assert BAD_CALL in shown and "Pass the count." in shown              # the prompt with the broken snapshot, the reply


def test_a_reloaded_page_comes_back_on_the_operator_picked_last(tmp_path, monkeypatch):
    "The page opens its own operator; once another is picked, a reload (after the server started) opens that one."
    import time
    monkeypatch.chdir(tmp_path)
    started = time.time() - 1
    first = open_workbench("relu", run=False, background=False, llm=None, resume_since=started)
    assert first.session.task.id == "relu"
    assert first.open_operator("gelu") and first.session.task.id == "gelu"
    again = open_workbench("relu", run=False, background=False, llm=None, resume_since=started)
    assert again.session.task.id == "gelu" and again.operator.value == "gelu"      # the reload: where the user was
    assert open_workbench("relu", run=False, background=False, llm=None).session.task.id == "relu"   # a plain open
    later = open_workbench("relu", run=False, background=False, llm=None, resume_since=time.time() + 60)
    assert later.session.task.id == "relu"            # a server started after the note: its own operator
    (tmp_path / ".ascendcraft-session" / "last-operator.txt").write_text("no_such_task_here\n")
    assert open_workbench("relu", run=False, background=False, llm=None, resume_since=started).session.task.id == "relu"


def test_an_action_says_its_last_word_only_after_the_view_is_redrawn():
    "'done' (or cancelled, failed) is said after `on_done` redrew the view: a reader that sees it sees the view it left."
    from ascendcraft.workbench import ActionRunner, Cancelled
    seen = []
    runner = ActionRunner(background=False, on_done=lambda: seen.append(runner.message.value))
    assert runner.run("step", lambda: None)
    assert 'data-state="running"' in seen[-1] and 'data-state="done"' in runner.message.value
    assert "step: done in" in runner.message.value

    def cancelled(): raise Cancelled()
    runner.run("run all", cancelled)
    assert 'data-state="running"' in seen[-1] and 'data-state="cancelled"' in runner.message.value

    def fails(): raise ValueError("no such pass")
    runner.run("rerun", fails)
    assert 'data-state="running"' in seen[-1] and 'data-state="failed"' in runner.message.value
    assert "rerun: failed — no such pass" in runner.message.value and runner.last_outcome.state == "failed"

    # an error the redraw shows (saving the session failed) is not covered by the action's "done"
    saving = ActionRunner(background=False, on_done=lambda: saving.show_error("save the session", OSError("disk full")))
    saving.run("step", lambda: None)
    assert 'data-state="failed"' in saving.message.value and "save the session: failed — disk full" in saving.message.value
    broken = ActionRunner(background=False, on_done=lambda: 1 / 0)
    broken.run("step", lambda: None)
    assert "redraw: failed" in broken.message.value
