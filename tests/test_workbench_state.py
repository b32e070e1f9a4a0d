"""The workbench never loses work, steps like a debugger and tells the truth about each action (issue 19, items 1, 4, 5).

Headless: the widget is driven by setting editor values and clicking buttons, as a user would, and the tests check
what the view shows and what is saved on disk. The kernels are leaky_relu's (small, fast to compile). The same
walk in a real browser is tests/browser/test_workbench_state_browser.py.
"""
import json
import threading

import pytest

from ascendcraft.config import load_settings
from ascendcraft.llm import LLMClient, ReplyCache
from ascendcraft.session import Session
from ascendcraft.workbench import Workbench, open_workbench

TASK = "leaky_relu"
KERNEL = "leaky_relu_kernel.cpp"
GOOD_CALL = "LeakyRelu(youtLocal, xinLocal, slope, n);"
BAD_CALL = "LeakyRelu(youtLocal, xinLocal, slope);"
MINE = "LeakyRelu(youtLocal, xinLocal, slope, n);  // mine"


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "session"


def test_opens_fresh_and_steps_to_a_pass(folder):
    wb = open_workbench(TASK, llm=None, background=False, folder=folder)
    assert [s.status for s in wb.session.steps] == ["not run"] * 5        # the default setting: nothing runs
    assert wb.buttons["reset"].disabled and "fresh" in wb.buttons["reset"].tooltip
    wb._shortcut("step")                                                  # F10
    assert [s.status for s in wb.session.steps] == ["ok"] + ["not run"] * 4
    wb.select(2)
    wb.buttons["run_to"].click()
    assert [s.status for s in wb.session.steps] == ["ok"] * 3 + ["not run"] * 2
    assert 'data-state="done"' in wb.runner.message.value and "run to init: done" in wb.runner.message.value
    wb.buttons["reset"].click()
    assert [s.status for s in wb.session.steps] == ["not run"] * 5 and wb.selected == 0
    ran = open_workbench(TASK, llm=None, background=False, folder=None, settings=load_settings(workbench_start="run"))
    assert [s.status for s in ran.session.steps] == ["ok"] * 5          # workbench_start = run


def test_pending_text_survives_switching_passes_and_a_failed_apply_is_red(folder):
    wb = open_workbench(TASK, llm=None, background=False, folder=folder, run=True)
    wb.select(3)
    wb.snapshot_editor.value = wb.snapshot_editor.value.replace(GOOD_CALL, BAD_CALL)
    assert "unapplied edit" in wb.pass_list.infos[3].value and "unapplied edit" in wb.edit_state.value
    wb.select(2)
    assert BAD_CALL not in wb.snapshot_editor.value and "unapplied edit" in wb.pass_list.infos[3].value
    wb.select(3)
    assert BAD_CALL in wb.snapshot_editor.value                           # the typed text is back
    wb.buttons["apply_edit"].click()
    message = wb.runner.message.value
    assert 'data-state="failed"' in message and "#a40e26" in message and "done" not in message
    assert "3 compute: compile error" in message and f"{KERNEL}:" in message
    assert "unapplied edit" not in wb.pass_list.infos[3].value            # applied: no longer pending
    wb.snapshot_editor.value = wb.snapshot_editor.value.replace(BAD_CALL, MINE)
    wb.buttons["reload_edit"].click()                                     # Revert typing
    assert MINE not in wb.snapshot_editor.value and BAD_CALL in wb.snapshot_editor.value


def test_the_session_is_saved_and_restored_with_every_kind_of_work(folder):
    wb = open_workbench(TASK, llm=None, background=False, folder=folder, run=True)
    wb.select(3)
    wb.snapshot_editor.value = wb.snapshot_editor.value.replace(GOOD_CALL, MINE)
    wb.buttons["apply_edit"].click()
    wb.select(4)
    wb.snapshot_editor.value = wb.snapshot_editor.value + "// typed in align\n"
    wb.dsl_editor.value = wb.dsl_editor.value + "\n# a thought\n"
    wb._save()
    saved = json.loads((folder / "state.json").read_text())
    assert saved["edits"]["compute"]["by"] == "hand" and "align" in saved["pending"] and saved["typed_dsl"]

    again = open_workbench(TASK, llm=None, background=False, folder=folder)    # reopening restores and reruns
    s = again.session
    assert "restore the saved session: done" in again.runner.message.value
    assert [st.status for st in s.steps][:4] == ["ok"] * 4 and s.steps[3].edited and MINE in s.steps[3].project[KERNEL]
    assert again.dsl_editor.value.endswith("# a thought\n") and "edited" in again.dsl_state.value
    assert "unapplied edit" in again.pass_list.infos[4].value
    again.select(4)
    assert again.snapshot_editor.value.endswith("// typed in align\n")


def test_a_broken_saved_file_is_reported_and_kept(folder):
    folder.mkdir(parents=True)
    (folder / "state.json").write_text("{broken")
    wb = open_workbench(TASK, llm=None, background=False, folder=folder)
    assert "cannot read the saved workbench session" in wb.runner.error.value and "move the file away" in wb.runner.error.value
    wb._shortcut("step")
    assert (folder / "state.json").read_text() == "{broken"             # never overwritten


def test_undo_and_discard_edit(folder):
    wb = open_workbench(TASK, llm=None, background=False, folder=folder, run=True)
    assert wb.buttons["undo"].disabled and wb.buttons["discard_edit"].disabled
    wb.select(3)
    wb.snapshot_editor.value = wb.snapshot_editor.value.replace(GOOD_CALL, MINE)
    wb.buttons["apply_edit"].click()
    assert wb.session.steps[3].edited and "take back: edit compute" == wb.buttons["undo"].tooltip
    wb.buttons["discard_edit"].click()
    s = wb.session
    assert not s.steps[3].edited and MINE in s.steps[3].set_aside[KERNEL] and GOOD_CALL in wb.snapshot_editor.value
    wb.buttons["undo"].click()                                            # takes back the discard
    assert s.steps[3].edited and MINE in s.steps[3].project[KERNEL]
    wb.buttons["undo"].click()                                            # takes back the edit
    assert not s.steps[3].edited and MINE not in s.steps[3].project[KERNEL]
    assert [st.status for st in s.steps][:4] == ["ok"] * 4 and wb.buttons["undo"].disabled


def test_switching_a_pass_to_the_llm_and_back_keeps_the_hand_edit(tmp_path):
    settings = load_settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="never-asked")   # nothing runs an LLM pass here
    wb = Workbench(Session(TASK, settings=settings, llm=LLMClient(settings, cache=ReplyCache(tmp_path))), background=False)
    wb.run_all()
    wb.select(3)
    wb.snapshot_editor.value = wb.snapshot_editor.value.replace(GOOD_CALL, MINE)
    wb.buttons["apply_edit"].click()
    wb.set_pass_mode("compute", "llm")
    s = wb.session
    assert s.steps[3].carried is not None and "edit waiting" in wb.pass_list.infos[3].value
    wb.set_pass_mode("compute", "rules")
    assert s.steps[3].carried is not None
    wb.buttons["run_all"].click()
    assert s.steps[3].edited and MINE in s.pipeline.final[KERNEL]


def test_cancel_stops_a_long_run_at_its_next_step(folder):
    wb = open_workbench(TASK, llm=None, folder=folder)                    # actions in the background
    s, entered, release = wb.session, threading.Event(), threading.Event()
    run_step = s.pipeline.run_step

    def slow(k):
        if k == 1: entered.set(); release.wait(30)
        return run_step(k)
    s.pipeline.run_step = slow
    assert wb.run_all() and entered.wait(60)
    assert not wb.runner.cancel_button.disabled
    assert wb.runner.cancel()
    release.set()
    assert wb.wait(120)
    assert 'data-state="cancelled"' in wb.runner.message.value
    assert [st.status for st in s.steps] == ["ok", "ok", "not run", "not run", "not run"]   # what finished is kept


def test_open_another_operator_saves_the_first(tmp_path):
    wb = open_workbench(TASK, llm=None, background=False, folder=tmp_path / ".ascendcraft-session" / TASK, run=True)
    wb.dsl_editor.value = wb.dsl_editor.value + "\n# keep me\n"
    assert "relu" in wb.operator.options and "softmax" in wb.operator.options
    wb.operator.value = "relu"
    wb.buttons["open"].click()
    assert wb.session.task.id == "relu" and "relu_kernel" in wb.dsl_editor.value
    assert wb.desk.folder == tmp_path / ".ascendcraft-session" / "relu"
    assert "# keep me" in json.loads((tmp_path / ".ascendcraft-session" / TASK / "state.json").read_text())["typed_dsl"]
    wb.operator.value = TASK
    wb.buttons["open"].click()
    assert wb.dsl_editor.value.endswith("# keep me\n")
    wb.operator.value = "no_such_operator"
    wb.buttons["open"].click()
    assert "no_such_operator" in wb.runner.error.value and wb.session.task.id == TASK


def test_the_first_runtime_build_shows_what_it_does(monkeypatch, folder):
    from ascendcraft import emu
    real = emu.runtime_library

    def building(settings=None, sanitize=False, progress=None):       # a stand-in for a cold machine's first build
        if progress is not None:
            progress("building the emulator runtime (once per machine): 9 files in parallel, expected about 30 s")
            progress("  api.cpp compiled (3/9, 4.0 s)")
        return real(settings, sanitize)
    monkeypatch.setattr(emu, "runtime_library", building)
    wb = open_workbench(TASK, llm=None, background=False, folder=folder)
    heard, report = [], wb.runner.report
    wb.runner.report = lambda message, fraction: (heard.append((message, round(fraction, 3))), report(message, fraction))
    wb.buttons["step"].click()
    assert heard[:2] == [("building the emulator runtime (once per machine): 9 files in parallel, expected about 30 s", 0.02),
                         ("api.cpp compiled (3/9, 4.0 s)", round(3 / 9 * 0.95, 3))]
    assert "step: done" in wb.runner.message.value


def test_a_pass_picked_while_the_session_is_restored_stays_picked(monkeypatch, folder):
    "The restore follows its run only until the user picks a pass; the pick then shows that pass's diff when it ends."
    wb = open_workbench(TASK, llm=None, background=False, folder=folder, run=True)
    wb.select(1)
    wb._save()                                                            # saved: every pass ran, pass 1 shown
    again = Workbench(Session(TASK), folder=folder)                       # actions in the background
    s, entered, release = again.session, threading.Event(), threading.Event()
    pipeline = type(s.pipeline)
    run_step = pipeline.run_step

    def held(self, k):                                                    # the restore waits at pass 2 ...
        if k == 2: entered.set(); release.wait(30)
        return run_step(self, k)
    monkeypatch.setattr(pipeline, "run_step", held)                       # (the restore makes its own pipeline)
    assert again.reopen() and entered.wait(600)                           # (a cold cache builds the runtime first)
    again.select(3)                                                       # ... while the user picks pass 3
    assert again.diff_pane.view.layout.display == "none"                  # no snapshot yet: the note says so
    release.set()
    assert again.wait(120)
    assert "restore the saved session: done" in again.runner.message.value
    assert [st.status for st in s.steps] == ["ok"] * 5
    assert again.selected == 3 and "3 · compute" in again.detail_title.value   # not moved to the last pass run
    assert again.diff_pane.view.layout.display is None                    # its diff is shown
    assert again.diff_pane.file.value == KERNEL
    again.run_all()                                                       # the next action follows its run again
    assert again.wait(120) and again.selected == 4
