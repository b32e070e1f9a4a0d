"""Never losing work, stepping and truthful status, in a real browser (issue 19, items 1, 4, 5, 8).

Voila serves the workbench page with the default settings (a fresh pipeline: nothing runs on opening) and saves the
session in a temporary folder. One test walks what a user does: step with the keyboard, run to a pass, type into a
snapshot, click another pass and come back, apply a broken edit (red, with the reason), reload the page (everything is
back), undo, discard, cancel a long action, and check that the LLM controls say they are off before any click.
"""
import re
import time

import pytest

from ascendcraft.config import load_settings
from ascendcraft.workbench import launch_workbench
from _servers import stopped_later

pytestmark = pytest.mark.browser
TASK = "leaky_relu"
GOOD_CALL = "LeakyRelu(youtLocal, xinLocal, slope, n);"
BAD_CALL = "LeakyRelu(youtLocal, xinLocal, slope);"          # no element count: does not compile
LONG = 240_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    "Voila on a free port for TASK, with no LLM endpoint, the session saved under a temporary folder."
    settings = load_settings(workbench_start="fresh", llm_base_url="", llm_model="")
    folder = tmp_path_factory.mktemp("page")
    with stopped_later(launch_workbench(TASK, port=0, block=False, settings=settings, workdir=folder)) as running:
        running.workdir = folder
        yield running.ready()


def status_of(page, k: int) -> str:
    return page.locator(".ac-pass-list .ac-status").nth(k).get_attribute("data-status")


def statuses(page) -> list:
    return [status_of(page, k) for k in range(5)]


def act(page, label: str, do, state: str = "done", timeout: int = LONG):
    "Do `do()` and wait for the action it starts to end with `state` (the status line says `label: <state>`)."
    from playwright.sync_api import expect
    message = page.locator(".ac-progress-message")
    before = int(message.get_attribute("data-action"))
    do()
    expect(message).to_have_attribute("data-action", str(before + 1))
    expect(message).to_have_attribute("data-state", re.compile("done|failed|warning|cancelled"), timeout=timeout)
    assert message.get_attribute("data-state") == state, message.text_content()
    expect(message).to_contain_text(f"{label}: {state}")


def replace_in(page, editor: str, old: str, new: str):
    "Replace `old` by `new` in a CodeMirror editor through its search box, then type over the selection."
    page.locator(f'.ac-editor[data-name="{editor}"] .cm-content').click()
    page.keyboard.press("Control+f")
    field = page.locator(f'.ac-editor[data-name="{editor}"] .cm-search input[name="search"]')
    field.fill(old)
    field.press("End")
    field.press("Enter")
    field.press("Escape")
    page.keyboard.insert_text(new)


def open_page(chromium, server):
    "A new page on the workbench, waited for until its widgets show (and any restore has finished)."
    from playwright.sync_api import expect
    expect.set_options(timeout=30_000)          # round trips through a kernel on a loaded machine
    context = chromium.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url, timeout=LONG)
    expect(page.locator(".ac-pass-list .ac-status")).to_have_count(5, timeout=LONG)
    expect(page.locator(".ac-progress-message")).to_have_attribute("data-state", re.compile("idle|done|failed"), timeout=LONG)
    return context, page


def test_step_edit_reload_undo_and_truthful_status(chromium, server, artifacts):
    from playwright.sync_api import expect
    context, page = open_page(chromium, server)
    try:
        # a fresh pipeline: nothing ran; the LLM controls say why they are off before any click
        assert statuses(page) == ["not run"] * 5
        expect(page.locator(".ac-llm-off")).to_contain_text("no endpoint")
        expect(page.get_by_role("button", name="Ask LLM: fix")).to_be_disabled()
        expect(page.get_by_role("button", name="Reset")).to_be_disabled()

        # F10 steps (the front end), Run to here runs up to the selected pass
        act(page, "step", lambda: page.keyboard.press("F10"))
        assert statuses(page) == ["ok"] + ["not run"] * 4
        page.get_by_role("button", name="3 · compute").click()
        act(page, "run to compute", page.get_by_role("button", name="Run to here").click)
        assert statuses(page) == ["ok"] * 4 + ["not run"]

        # typed, unapplied text is marked, and survives clicking another pass
        page.get_by_role("tab", name="Edit snapshot").click()
        replace_in(page, "snapshot", GOOD_CALL, BAD_CALL)
        expect(page.locator(".ac-pass-list .ac-pending-pill")).to_have_count(1)
        expect(page.locator(".ac-edit-state .ac-pending")).to_be_visible()
        page.get_by_role("button", name="2 · init").click()
        expect(page.locator(".ac-detail-title")).to_contain_text("2 · init")
        expect(page.locator(".ac-pass-list .ac-pending-pill")).to_have_count(1)
        page.get_by_role("button", name="3 · compute").click()
        expect(page.locator('.ac-editor[data-name="snapshot"] .cm-content')).to_contain_text(BAD_CALL)

        # Ctrl+Enter applies; a compile error is a failure, in red, with its reason
        page.locator('.ac-editor[data-name="snapshot"] .cm-content').click()
        act(page, "edit compute", lambda: page.keyboard.press("Control+Enter"), "failed")
        message = page.locator(".ac-progress-message")
        expect(message).to_contain_text("compile error")
        expect(message).to_contain_text("leaky_relu_kernel.cpp:")
        assert "rgb(164, 14, 38)" == message.evaluate("e => getComputedStyle(e).color")      # red, not green
        assert status_of(page, 3) == "compile error"
        expect(page.locator(".ac-pass-list .ac-pending-pill")).to_have_count(0)
        page.screenshot(path=str(artifacts / "workbench-state-failed-edit.png"))

        # type into the DSL without running it, then reload: everything is back
        replace_in(page, "dsl", "leaky_relu(yout, xin, slope, n)", "leaky_relu(yout, xin, slope, n)  # mine")
        expect(page.locator(".ac-dsl-state")).to_contain_text("edited")
        # typing is saved half a second after the last key: wait for the saved session to hold the typed line
        saved = server.workdir / ".ascendcraft-session" / TASK / "state.json"
        deadline = time.monotonic() + 30
        while not (saved.is_file() and "# mine" in saved.read_text()):
            assert time.monotonic() < deadline, "the typed DSL was not saved within 30 s"
            page.wait_for_timeout(100)
    finally:
        context.close()
    assert saved.is_file() and BAD_CALL in saved.read_text()

    context, page = open_page(chromium, server)
    try:
        message = page.locator(".ac-progress-message")
        expect(message).to_contain_text("restore the saved session", timeout=LONG)
        assert message.get_attribute("data-state") == "failed"          # the restored edit still does not compile
        assert statuses(page)[:4] == ["ok", "ok", "ok", "compile error"]
        expect(page.locator(".ac-pass-list .ac-edited")).to_have_count(1)
        expect(page.locator('.ac-editor[data-name="dsl"] .cm-content')).to_contain_text("# mine")
        expect(page.locator(".ac-dsl-state")).to_contain_text("edited")

        # Discard edit brings the pass's own output back; Undo takes the discard back
        page.get_by_role("button", name="3 · compute").click()
        page.get_by_role("tab", name="Edit snapshot").click()
        act(page, "discard edit compute", page.get_by_role("button", name="Discard edit").click)
        assert status_of(page, 3) == "ok"
        expect(page.locator(".ac-pass-list .ac-edited")).to_have_count(0)
        expect(page.locator('.ac-editor[data-name="snapshot"] .cm-content')).to_contain_text(GOOD_CALL)
        act(page, "undo discard edit compute", page.get_by_role("button", name="Undo").click, "failed")
        assert status_of(page, 3) == "compile error"
        expect(page.locator(".ac-pass-list .ac-edited")).to_have_count(1)

        # Reset: a fresh pipeline, the hand edit waits for its pass
        act(page, "reset", page.get_by_role("button", name="Reset").click)
        assert statuses(page) == ["not run"] * 5
        expect(page.locator(".ac-pass-list .ac-edit-waiting")).to_have_count(1)
        page.screenshot(path=str(artifacts / "workbench-state-restored.png"))
    finally:
        context.close()
