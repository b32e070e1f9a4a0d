"""The saved session in a real browser (issue 19, items 1 and 2): the page reopens a session saved beside it, the user
compares two of its variants and reads their DSL diff, whose line numbers stand beside their lines.

The saved session is written before the page opens (two variants of leaky_relu: the expert one and one with a
smaller tile), as the workbench itself writes it (`wb_state.capture`).
"""
import re

import pytest

from ascendcraft.config import load_settings
from ascendcraft.generate import Evaluation, Variant
from ascendcraft.session import Session
from ascendcraft.wb_state import capture, session_folder
from ascendcraft.workbench import launch_workbench
from _servers import stopped_later

from test_wb_views_browser import gutter_number, line_of, look_at, misaligned_rows  # noqa: E402

pytestmark = pytest.mark.browser
TASK = "leaky_relu"
LONG = 240_000
SETTINGS = dict(workbench_start="fresh", llm_base_url="", llm_model="")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    "A page folder holding a saved session with two variants; the page's server; the two DSL texts."
    settings = load_settings(**SETTINGS)
    s = Session(TASK, settings=settings)
    smaller = s.dsl.replace("TILE = 8192", "TILE = 4096")
    assert smaller != s.dsl
    s.history.variants += [Variant("expert", s.dsl, "expert", Evaluation(True)),
                           Variant("smaller", smaller, "edit", Evaluation(True))]
    work = tmp_path_factory.mktemp("saved-page")
    folder = session_folder(settings, s.task, work)
    folder.mkdir(parents=True)
    (folder / "state.json").write_text(capture(s).to_json())
    with stopped_later(launch_workbench(TASK, port=0, block=False, settings=settings, workdir=work)) as running:
        yield running.ready(), s.dsl, smaller


def open_page(chromium, server, width: int):
    from playwright.sync_api import expect
    context = chromium.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url, timeout=LONG)
    message = page.locator(".ac-progress-message")
    expect(message).to_contain_text("restore the saved session", timeout=LONG)
    expect(message).to_have_attribute("data-state", "done", timeout=LONG)
    return context, page


@pytest.mark.parametrize("width", [1000, 1600])
def test_variant_compare_numbers_stand_beside_their_lines(chromium, saved, artifacts, width):
    from playwright.sync_api import expect
    server, older, newer = saved
    expect.set_options(timeout=30_000)
    context, page = open_page(chromium, server, width)
    try:
        page.get_by_role("tab", name="Variants & compare").click()
        page.get_by_role("button", name="Compare", exact=True).click()
        diff = '.ac-diffview[data-name="variant-diff"]'
        content = page.locator(f"{diff} .cm-content").first
        expect(content).to_have_attribute("data-language", "python")
        expect(page.locator(f"{diff} .ac-diff-head")).to_contain_text("0_expert/leaky_relu.py")
        expect(page.locator(f"{diff} .cm-line", has_text="TILE = 4096").first).to_be_visible()

        # the user scrolls down to the diff (it opens below the fold) and reads the changed line's number
        look_at(page, diff, "TILE = 4096")
        assert misaligned_rows(page, diff) == []
        expected = ([str(line_of(older, "TILE = 8192")), str(line_of(newer, "TILE = 4096"))]
                    if page.locator(diff).get_attribute("data-layout") == "side" else [str(line_of(newer, "TILE = 4096"))])
        numbers = lambda: gutter_number(page, diff, "TILE = 8192") + gutter_number(page, diff, "TILE = 4096")
        assert numbers() == expected, (numbers(), expected)

        # the whole file, read down to its last line: every number still level with its line
        page.locator(".ac-compare-diff").get_by_text("whole file", exact=True).click()
        expect(page.locator(f"{diff} .cm-collapsedLines")).to_have_count(0)
        last = next(t.strip() for t in reversed(newer.splitlines()) if t.strip() and newer.count(t.strip()) == 1)
        page.locator(f"{diff} .cm-scroller").last.evaluate("e => { e.scrollTop = e.scrollHeight; }")
        look_at(page, diff, last)
        assert misaligned_rows(page, diff) == []
        assert gutter_number(page, diff, last)[-1] == str(line_of(newer, last))
        page.screenshot(path=str(artifacts / f"wb-variant-compare-{width}.png"))
    finally:
        context.close()
