"""Whose edit is it, and is it kept: the workbench in a real browser (issue 19, items 1, 8 and 10), with an LLM
endpoint that is a real OpenAI-compatible server on 127.0.0.1 (`FakeLLMServer`, answering from a script). The test
does what a user does:

- breaks the DSL with a UB overflow (one buffer made bigger): the error is shown once, at the line that changed, in
  the compiler pane and in the DSL editor;
- edits the compute pass by hand, switches the pass to the LLM and back: the edit waits for the pass, visibly, and is
  applied to the LLM's output, then to the rules' output again;
- breaks the pass with an edit and asks the LLM for a fix: the fix is labelled as the LLM's, not "edited by hand",
  in the pass list, above the snapshot and in the diff's colour key.

The page's model name is new for each run, so no reply recorded by an earlier run is replayed; the replies this
run writes to the reply cache are removed afterwards.
"""
import re

import pytest

from ascendcraft.llm_server import Reply

from test_wb_views_browser import DIFF, line_of, search  # noqa: E402
from test_workbench_llm_browser import (BAD_CALL, GOOD_CALL, KERNEL,  # noqa: E402  (the same operator and page)
                                        compute_by_rules, scripted_page)
from test_workbench_llm_browser import fenced as llm_fenced  # noqa: E402
from test_workbench_state_browser import act, replace_in, statuses  # noqa: E402

pytestmark = pytest.mark.browser
MINE = "  // checked by hand"
MODEL_LINE = "// tiles streamed by the model\n"                 # what the LLM's compute pass adds (a line of its own)
FIXED = "  // fixed by the model"
BUFFER = "yout = ub_out(f32, tile, bufs=2)"
TOO_BIG = "yout = ub_out(f32, tile, bufs=6)"                  # 4 more 32 KB buffers: over the 192 KB of UB
LONG = 300_000


def fenced(code: str) -> str:
    return llm_fenced("cpp", code, KERNEL)


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    "The script: the compute pass by the LLM (its own line added), then a fix of the broken compute pass."
    s, ruled = compute_by_rules()
    assert GOOD_CALL in ruled and s.dsl.count(BUFFER) == 1
    script = [Reply(fenced(MODEL_LINE + ruled)), Reply(fenced(ruled.replace(GOOD_CALL, GOOD_CALL + FIXED)))]
    with scripted_page(tmp_path_factory, script, "edits-page") as (page, llm):
        yield page, llm, s.dsl


def show_compute(page):
    "Pick the compute pass and its snapshot editor; wait until the editor holds its file (its note names the pass)."
    from playwright.sync_api import expect
    page.get_by_role("button", name="3 · compute").click()
    page.get_by_role("tab", name="Edit snapshot").click()
    expect(page.locator(".ac-detail-title")).to_contain_text("3 · compute")
    expect(page.locator(".ac-edit-state")).to_contain_text("this snapshot was edited by hand")


def snapshot_text(page) -> str:
    return page.locator('.ac-editor[data-name="snapshot"] .cm-content').text_content()


def test_ub_error_once_edits_kept_across_modes_and_the_llm_fix_labelled(chromium, scripted, artifacts):
    from playwright.sync_api import expect
    server, llm, dsl = scripted
    expect.set_options(timeout=30_000)
    context = chromium.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(server.url, timeout=LONG)
        expect(page.locator(".ac-pass-list .ac-status")).to_have_count(5, timeout=LONG)
        expect(page.locator(".ac-progress-message")).to_have_attribute("data-state", "idle", timeout=LONG)
        run_all = page.get_by_role("button", name=re.compile("Run all"))
        act(page, "run all", run_all.click)
        assert statuses(page) == ["ok"] * 5

        # a UB overflow: one error, at the buffer line that changed (not the first buffer), in the pane and the editor
        replace_in(page, "dsl", BUFFER, TOO_BIG)
        act(page, "run all", run_all.click, "failed")
        pane = page.locator(".ac-compiler-view")
        errors = pane.locator('.ac-diagnostic[data-kind="ub-overflow"]')
        expect(errors).to_have_count(1)
        changed = line_of(dsl.replace(BUFFER, TOO_BIG), TOO_BIG)
        expect(errors).to_contain_text(f"leaky_relu.py:{changed}:")
        expect(errors).to_contain_text("this line changed")
        expect(pane).to_contain_text("1 error")
        marked = page.locator('.ac-editor[data-name="dsl"] .ac-error-line')
        expect(marked).to_have_count(1)
        expect(marked).to_contain_text(TOO_BIG)
        page.screenshot(path=str(artifacts / "wb-ub-error-once.png"))
        replace_in(page, "dsl", TOO_BIG, BUFFER)
        act(page, "run all", run_all.click)
        assert statuses(page) == ["ok"] * 5

        # a hand edit of the compute pass
        row = page.locator(".ac-pass-row").nth(3)
        page.get_by_role("button", name="3 · compute").click()
        page.get_by_role("tab", name="Edit snapshot").click()
        # type only once the editor holds the compute pass's file (the align pass's, shown before, has the same line)
        expect(page.locator(".ac-edit-state")).to_contain_text("the compute pass's output")
        replace_in(page, "snapshot", GOOD_CALL, GOOD_CALL + MINE)
        act(page, "edit compute", page.get_by_role("button", name="Apply edit").click)
        expect(row.locator(".ac-edited")).to_have_text("edited")

        # the pass to the LLM: the edit waits for the pass (shown), then is applied to the LLM's output
        act(page, "compute pass by the LLM", lambda: row.get_by_role("button", name="LLM", exact=True).click())
        expect(row.locator(".ac-edit-waiting")).to_have_count(1)
        expect(page.locator(".ac-edit-state")).to_contain_text("a hand edit waits for this pass")
        act(page, "run all", run_all.click)
        assert statuses(page) == ["ok"] * 5
        assert len(llm.chat_requests) == 1
        expect(row).to_contain_text("LLM · 1 round")
        expect(row.locator(".ac-edited")).to_have_text("edited")
        show_compute(page)
        expect(page.locator('.ac-editor[data-name="snapshot"] .cm-content')).to_contain_text(MINE.strip())
        assert MODEL_LINE.strip() in snapshot_text(page)

        # back to the rules: the edit waits again, then is applied to the rules' output
        act(page, "compute pass by the rules", lambda: row.get_by_role("button", name="rules", exact=True).click())
        expect(row.locator(".ac-edit-waiting")).to_have_count(1)
        act(page, "run all", run_all.click)
        expect(row.locator(".ac-edited")).to_have_text("edited")
        show_compute(page)
        expect(page.locator('.ac-editor[data-name="snapshot"] .cm-content')).to_contain_text(MINE.strip())
        assert MODEL_LINE.strip() not in snapshot_text(page)

        # break the pass by hand, ask the LLM for a fix: the fix is the LLM's, and says so everywhere
        replace_in(page, "snapshot", GOOD_CALL + MINE, BAD_CALL)
        act(page, "edit compute", page.get_by_role("button", name="Apply edit").click, "failed")
        expect(page.locator(".ac-compiler-view")).to_contain_text("no matching function")
        act(page, "ask the LLM for a fix", page.get_by_role("button", name="Ask LLM: fix").click)
        assert len(llm.chat_requests) == 2
        assert [statuses(page)[k] for k in range(4)] == ["ok"] * 4
        expect(row.locator(".ac-edited")).to_have_text("edited · LLM fix")
        expect(page.locator(".ac-edit-state")).to_contain_text("edited by the LLM fix")
        expect(page.locator(".ac-edit-state")).not_to_contain_text("by hand")
        page.get_by_role("tab", name="Diff").click()
        legend = page.locator(".ac-pass-diff-pane .ac-diff-controls")
        expect(legend).to_contain_text("edited by the LLM fix")
        expect(legend).not_to_contain_text("edited by hand")
        search(page, DIFF, FIXED.strip())                          # the LLM's line: coloured as an edit of the pass
        expect(page.locator(f"{DIFF} .ac-hand-line", has_text=FIXED.strip()).first).to_be_visible()
        page.screenshot(path=str(artifacts / "wb-llm-fix-labelled.png"))
    finally:
        context.close()
