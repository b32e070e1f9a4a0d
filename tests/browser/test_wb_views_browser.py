"""The workbench's views in a real browser (issue 19, items 2, 3, 6, 7): Voila serves the workbench page, Chromium
loads it, and each test does what a user does — picks a pass, toggles the diff, searches it, clicks a DSL line, an
AscendC line, a compiler error, hovers and zooms the timeline — then checks what the page shows.

The layout test takes screenshots at 1600, 1000 and 760 px (test-artifacts/wb-layout-*.png) and checks them
pixel by pixel: the gutters between the panes are blank (nothing spills from one pane into the next) and the panes
stand where the width says they should (three columns, two, or stacked).
"""
import io
import re

import pytest

from ascendcraft.pipeline import Pipeline
from ascendcraft.session import Session
from ascendcraft.wb_views import MEDIUM_PX, WIDE_PX
from ascendcraft.workbench import launch_workbench
from _servers import stopped_later

pytestmark = pytest.mark.browser
TASK = "softmax"
LONG = 240_000                        # ms: a cold cache compiles the emulator runtime and every snapshot


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # the page's own folder: its saved session (wb_state) starts empty and stays out of the working tree
    with stopped_later(launch_workbench(TASK, port=0, block=False, workdir=tmp_path_factory.mktemp("wb-views"))) as running:
        yield running.ready()


@pytest.fixture(scope="module")
def snapshots():
    "The rule-based snapshots of the page's DSL, to know which file line each text is on."
    s = Session(TASK)
    pipe = Pipeline(s.dsl, s.filename, task=s.task, compile=False)
    pipe.run_all()
    return s, pipe


def open_page(chromium, server, width: int, height: int = 1000):
    from playwright.sync_api import expect
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url, timeout=LONG)
    page.locator(".ac-pass-list").wait_for(timeout=LONG)
    # the page opens fresh, or restores the saved session (wb_state) in an action of its own: let that finish,
    # then run what is not run yet
    expect(page.locator(".ac-progress-message")).not_to_have_attribute("data-state", "running", timeout=LONG)
    run_all = page.get_by_role("button", name=re.compile("Run all"))
    if run_all.is_enabled():
        act(page, "run all", run_all.click)
    return context, page


def act(page, label: str, click, outcome: str = "done"):
    "Do `click` and wait until the workbench says `label: <outcome>` (green 'done', or red 'failed' with the reason)."
    from playwright.sync_api import expect
    message = page.locator(".ac-progress-message")
    before = int(message.get_attribute("data-action"))
    click()
    expect(message).to_have_attribute("data-action", str(before + 1))
    expect(message).to_have_attribute("data-state", re.compile("done|failed"), timeout=LONG)
    expect(message).to_contain_text(f"{label}: {outcome}")


def search(page, scope: str, text: str, close: bool = True):
    "Find `text` with the CodeMirror search box of the editor or diff under `scope` (the match is selected and shown)."
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    box = page.locator(scope)
    if box.locator(".ac-diff-search").count():
        try:
            box.locator(".ac-diff-search").click()
        except PlaywrightTimeout as e:   # say what the page showed instead, so a failure under load can be traced
            raise AssertionError(f"the search button of {scope} could not be clicked; the page showed: "
                                 f"{page_state(page)}") from e
    else:
        box.locator(".cm-content").first.click()
        page.keyboard.press("Control+f")
    field = box.locator('.cm-search input[name="search"]')
    field.fill(text)
    field.press("End")
    field.press("Enter")
    if close:
        from playwright.sync_api import expect
        field.press("Escape")
        # the closed panel hands the focus back to its editor: keys typed before that (insert_text) would go nowhere
        expect(box.locator(".cm-editor.cm-focused")).to_have_count(1)


def page_state(page) -> dict:
    "What the workbench page shows now: the action message, the pass in the detail panes, the tab, the diff's note."
    return page.evaluate("""() => {
        const text = sel => { const e = document.querySelector(sel); return e ? e.textContent.trim() : null; };
        const message = document.querySelector('.ac-progress-message');
        const diff = document.querySelector('.ac-diffview[data-name="pass-diff"]');
        return {message: text('.ac-progress-message'), state: message && message.dataset.state,
                detail: text('.ac-detail-title'),
                tabs: [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].map(t => t.textContent.trim()),
                diff_pane: (() => { const pane = document.querySelector('.ac-pass-diff-pane');   // controls and note
                                    return pane ? [...pane.children].filter(c => !c.classList.contains('ac-diffview'))
                                                    .map(c => c.textContent.trim()).join(' | ').slice(0, 300) : null; })(),
                diff_shown: !!diff && diff.offsetParent !== null,
                diff_size: diff ? [diff.clientWidth, diff.clientHeight] : null};
    }""")


def gutter_number(page, scope: str, text: str) -> list[str]:
    """The line number(s) the gutters show beside the line containing `text`, one per editor side under `scope`.

    The line is scrolled into the window first and CodeMirror given its frames to measure it: until then the lines
    around it have estimated heights, and the gutter row level with it can be another line's (a suite run under load
    read 56 beside line 54 of an LLM-vs-rules diff)."""
    look_at(page, scope, text)
    return page.evaluate("""([scope, text]) => {
        const out = [];
        for (const editor of document.querySelectorAll(scope + ' .cm-editor')) {
            const line = [...editor.querySelectorAll('.cm-line')].find(l => l.textContent.includes(text));
            if (!line) continue;
            const top = line.getBoundingClientRect().top;
            const number = [...editor.querySelectorAll('.cm-lineNumbers .cm-gutterElement')]
                .find(g => Math.abs(g.getBoundingClientRect().top - top) < 3 && g.textContent.trim());
            out.push(number ? number.textContent.trim() : '');
        }
        return out;
    }""", [scope, text])


def misaligned_rows(page, scope: str) -> list:
    """The code lines under `scope` inside the browser window whose line-number row is not level with them, as
    (number, line top, row top, line height, row height); [] when every number stands beside its line.

    Only lines in the window are looked at: CodeMirror measures the lines it shows and estimates the others at 14 px
    until they are scrolled into view (an editor below the fold has its numbers 14 px apart until the user scrolls to
    it, and then they line up). So scroll the editor into view first (`look_at`), as a reader does."""
    return page.evaluate("""(scope) => {
        const bad = [];
        for (const editor of document.querySelectorAll(scope + ' .cm-editor')) {
            const view = editor.querySelector('.cm-scroller').getBoundingClientRect();
            const rows = [...editor.querySelectorAll('.cm-lineNumbers .cm-gutterElement')]
                .filter(g => g.textContent.trim()).map(g => g.getBoundingClientRect());
            for (const line of editor.querySelectorAll('.cm-content > .cm-line')) {
                const r = line.getBoundingClientRect();
                if (r.top < Math.max(view.top, 0) || r.bottom > Math.min(view.bottom, window.innerHeight)) continue;
                const row = rows.find(g => Math.abs(g.top - r.top) < 2);
                if (!row || Math.abs(row.height - r.height) > 1)
                    bad.push([line.textContent.slice(0, 40), r.top, row ? row.top : null, r.height, row ? row.height : null]);
            }
        }
        return bad;
    }""", scope)


def look_at(page, scope: str, text: str):
    "Scroll the line holding `text` (under `scope`) into the window, then let CodeMirror measure what it now shows."
    page.locator(f"{scope} .cm-line", has_text=text).first.scroll_into_view_if_needed()
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100))))")


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


DIFF = '.ac-diffview[data-name="pass-diff"]'


def test_diffs_are_read_only_cpp_code_with_file_lines_hand_edits_and_search(chromium, server, snapshots, artifacts):
    from playwright.sync_api import expect
    s, pipe = snapshots
    context, page = open_page(chromium, server, 1600)
    try:
        page.get_by_role("button", name="3 · compute").click()
        expect(page.locator(".ac-detail-title")).to_contain_text("3 · compute")
        diff = page.locator(DIFF)
        content = diff.locator(".cm-content").first
        expect(content).to_have_attribute("data-language", "cpp")          # C++ colours (CodeMirror's C++ mode)
        expect(content).to_have_attribute("aria-readonly", "true")
        expect(diff.locator(".ac-diff-head")).to_contain_text("02_init/softmax_kernel.cpp → 03_compute/softmax_kernel.cpp")
        assert diff.get_attribute("data-layout") == "unified"             # the pane is narrower than side by side needs
        box, pane = diff.bounding_box(), page.locator(".ac-centre").bounding_box()
        assert box["x"] + box["width"] <= pane["x"] + pane["width"] + 1  # the diff fits its pane

        # side by side, the whole file: each side numbered with its own file's lines
        page.locator(".ac-pass-diff-pane").get_by_text("whole file", exact=True).click()
        page.locator(".ac-pass-diff-pane").get_by_text("side by side", exact=True).click()
        expect(page.locator(f'{DIFF}[data-layout="side"] .cm-mergeView')).to_be_visible()
        end = 'extern "C" __global__'
        search(page, DIFF, end)
        init, compute = pipe["init"].project["softmax_kernel.cpp"], pipe["compute"].project["softmax_kernel.cpp"]
        expected = [str(line_of(init, end)), str(line_of(compute, end))]
        assert expected[0] != expected[1]
        expect_numbers = lambda: gutter_number(page, DIFF, end)
        page.wait_for_function("""([scope, text]) => [...document.querySelectorAll(scope + ' .cm-line')]
                                   .filter(l => l.textContent.includes(text)).length == 2""", arg=[DIFF, end])
        assert expect_numbers() == expected, (expect_numbers(), expected)
        page.screenshot(path=str(artifacts / "wb-diff-side-by-side.png"))

        # the whole file or only the changes
        expect(diff.locator(".cm-collapsedLines")).to_have_count(0)
        page.locator(".ac-pass-diff-pane").get_by_text("changes", exact=True).click()
        expect(diff.locator(".cm-collapsedLines").first).to_be_visible()

        # search: the match is highlighted and shown; the open search outlives a switch of layout (the views are rebuilt)
        search(page, DIFF, "Exp(workLocal, workLocal, tile)", close=False)
        page.locator(".ac-pass-diff-pane").get_by_text("unified", exact=True).click()
        expect(page.locator(f'{DIFF}[data-layout="unified"]')).to_have_count(1)
        field = diff.locator('.cm-search input[name="search"]')
        expect(field).to_have_value("Exp(workLocal, workLocal, tile)")
        field.press("Enter")
        expect(diff.locator(".cm-searchMatch").first).to_be_visible()
        assert gutter_number(page, DIFF, "Exp(workLocal, workLocal, tile)") == [
            str(line_of(compute, "Exp(workLocal, workLocal, tile)"))]
        page.keyboard.press("Escape")

        # a hand edit: its line purple, the pass's own changes still green
        page.get_by_role("tab", name="Edit snapshot").click()
        editor = '.ac-editor[data-name="snapshot"]'
        search(page, editor, "Exp(workLocal, workLocal, tile);")
        page.keyboard.insert_text("Exp(workLocal, workLocal, tile);  /* by hand */")
        act(page, "edit compute", page.get_by_role("button", name="Apply edit").click)
        page.get_by_role("tab", name="Diff").click()
        search(page, DIFF, "/* by hand */")
        hand = diff.locator(".ac-hand-line")
        expect(hand).to_have_count(1)
        expect(hand).to_contain_text("/* by hand */")
        passed = diff.locator(".cm-changedLine:not(.ac-hand-line)").first
        expect(passed).to_be_visible()
        colour = lambda loc: loc.evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour(hand) != colour(passed), (colour(hand), colour(passed))
        page.screenshot(path=str(artifacts / "wb-diff-hand-edit.png"))
    finally:
        context.close()


def test_navigation_dsl_to_ascendc_to_dsl_and_from_a_compiler_error(chromium, server, snapshots, artifacts):
    from playwright.sync_api import expect
    s, pipe = snapshots
    context, page = open_page(chromium, server, 1600)
    try:
        page.get_by_role("button", name="3 · compute").click()
        expect(page.locator(".ac-detail-title")).to_contain_text("3 · compute")
        dsl = '.ac-editor[data-name="dsl"]'
        statement = "exp(work, work, tile)"
        search(page, dsl, statement)
        page.locator(f"{dsl} .cm-line", has_text=statement).first.click()
        dsl_line = line_of(s.dsl, statement)
        compute = pipe["compute"].project["softmax_kernel.cpp"]
        cpp_line = next(n for n, l in enumerate(compute.splitlines(), 1) if f"softmax.py:{dsl_line}" in l and "Exp(" in l)
        where = page.locator(".ac-where-view")
        expect(where).to_contain_text(f"softmax.py:{dsl_line} became")
        expect(where.locator(".ac-where-row")).to_have_count(2)            # compute writes it, align keeps it
        expect(where).to_contain_text(f"3 · compute softmax_kernel.cpp:{cpp_line}")
        nav = page.locator(f"{DIFF} .ac-nav-line")
        expect(nav).to_have_count(1)
        expect(nav).to_contain_text("Exp(workLocal, workLocal, tile);")     # shown in the selected pass's diff

        # an AscendC line -> its DSL line
        target = "Muls(youtLocal, youtLocal, scale, n);"
        search(page, DIFF, target)
        page.locator(f"{DIFF} .cm-line", has_text=target).first.click()
        back = page.locator(f"{dsl} .ac-nav-line")
        expect(back).to_have_count(1)
        expect(back).to_contain_text("muls(yout, yout, scale, n)")
        expect(where).to_contain_text(f"← softmax.py:{line_of(s.dsl, 'muls(yout, yout, scale, n)')}")

        # break the snapshot: the compiler pane leads with the error; its link shows the AscendC line and the DSL line
        page.get_by_role("tab", name="Edit snapshot").click()
        search(page, '.ac-editor[data-name="snapshot"]', "Muls(youtLocal, youtLocal, scale, n)")
        page.keyboard.insert_text("Muls(youtLocal, youtLocal, scale)")
        act(page, "edit compute", page.get_by_role("button", name="Apply edit").click, "failed")   # it does not compile
        compiler = page.locator(".ac-compiler-view")
        first = compiler.locator(".ac-diagnostic").first
        expect(first).to_contain_text(re.compile(r"softmax_kernel\.cpp:\d+:\d+: error"))
        expect(compiler.locator(".ac-command")).to_be_hidden()                      # the g++ command folded away
        order = compiler.evaluate("""e => { const all = [...e.querySelectorAll('.ac-diagnostic, .ac-command-fold')];
                                            return all.map(x => x.classList.contains('ac-diagnostic') ? 'error' : 'command'); }""")
        assert order[0] == "error" and order[-1] == "command", order
        page.get_by_role("tab", name="Files").click()                 # somewhere else, so the jump has to bring the diff
        first.locator(".ac-goto").first.click()
        expect(page.get_by_role("tab", name="Diff")).to_have_attribute("aria-selected", "true")
        expect(nav).to_contain_text("Muls(youtLocal, youtLocal, scale);")
        expect(back).to_contain_text("muls(yout, yout, scale, n)")
        page.screenshot(path=str(artifacts / "wb-navigation-error.png"))
        # the page keeps its session (wb_state): take the broken edit back, as a user would, for the next test
        page.get_by_role("tab", name="Edit snapshot").click()
        act(page, "discard edit compute", page.get_by_role("button", name="Discard edit").click)
    finally:
        context.close()


def pane_boxes(page) -> dict:
    return {name: page.locator(f".ac-{name}").bounding_box() for name in ("workbench", "left", "centre", "right")}


def blank(image, box) -> bool:
    "Whether a screenshot region (x0, y0, x1, y1) is one flat background colour."
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    if x1 <= max(x0, 0) or y1 <= max(y0, 0) or x0 >= image.width or y0 >= image.height: return True   # nothing shown there
    region = image.crop((max(x0, 0), max(y0, 0), min(x1, image.width), min(y1, image.height))).convert("RGB")
    return region.width == 0 or region.height == 0 or len(region.getcolors(maxcolors=4) or [0] * 5) == 1


def check_layout(page, image, width: int, clip: dict | None = None):
    "The panes stand as the workbench's width says, and nothing spills into the gutters between them (pixels, within `clip`)."
    b = pane_boxes(page)
    w = b["workbench"]["width"]
    left, centre, right = b["left"], b["centre"], b["right"]
    top = lambda r: r["y"]
    bottom = lambda r: r["y"] + r["height"]
    if w >= WIDE_PX:
        assert abs(top(left) - top(centre)) < 2 and abs(top(centre) - top(right)) < 2, b     # three columns
        assert left["x"] < centre["x"] < right["x"]
        gutters = [(left["x"] + left["width"] + 1, top(left), centre["x"] - 1, max(map(bottom, (left, centre))))]
    elif w >= MEDIUM_PX:
        assert abs(top(left) - top(centre)) < 2 and left["x"] < centre["x"], b                # two columns, then
        assert top(right) >= max(bottom(left), bottom(centre)) - 1, b                          # compiler + timing below
        assert right["width"] > 0.9 * w
        gutters = [(left["x"] + left["width"] + 1, top(left), centre["x"] - 1, min(bottom(left), bottom(centre)))]
    else:
        assert top(left) < top(centre) < top(right), b                                         # stacked
        assert min(left["width"], centre["width"], right["width"]) > 0.9 * w
        gutters = [(left["x"], bottom(left) + 1, left["x"] + left["width"], top(centre) - 1)]
    for g in gutters:
        if clip is not None:                                         # only what the page shows of the workbench
            g = (g[0], max(g[1], clip["y"]), g[2], min(g[3], clip["y"] + clip["height"]))
        assert blank(image, g), (width, g)


def test_layout_reflows_with_no_cut_labels_screenshots_at_1600_1000_760(chromium, server, artifacts):
    "Screenshots of the layout at three widths, checked pixel by pixel."
    from PIL import Image
    context, page = open_page(chromium, server, 1600)
    try:
        layouts = {}
        for width in (1600, 1000, 760):
            page.set_viewport_size({"width": width, "height": 1000})
            page.wait_for_timeout(400)
            shot = page.screenshot(path=str(artifacts / f"wb-layout-{width}.png"), full_page=True)
            image = Image.open(io.BytesIO(shot))
            check_layout(page, image, width)
            b = pane_boxes(page)
            layouts[width] = (round(b["centre"]["x"] - b["left"]["x"]) > 0, round(b["right"]["y"] - b["left"]["y"]) > 0)
            assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")   # no sideways scroll
            cut = page.evaluate("""() => [...document.querySelectorAll(
                    '.ac-workbench .widget-button, .ac-workbench .widget-toggle-button, .ac-workbench .lm-TabBar-tab-label')]
                .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())""")
            assert cut == [], (width, cut)                                                      # no cut labels
            heights = {round(r.bounding_box()["height"]) for r in page.locator(".ac-pass-row").all()}
            assert heights == {30}, (width, heights)                                            # rows of one height
        assert layouts[1600] != layouts[1000] != layouts[760]                                 # three different layouts
    finally:
        context.close()


from test_workbench_browser import lab  # noqa: E402,F401  (this module's folder on the session's JupyterLab: a notebook that opens the workbench)


def test_in_a_jupyterlab_notebook_column_the_layout_follows_the_column_width(chromium, lab, artifacts):
    "In JupyterLab the workbench sits in a notebook column narrower than the window: it reflows by its own width."
    from PIL import Image
    from playwright.sync_api import expect
    context = chromium.new_context(viewport={"width": 1000, "height": 1100})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(lab.address("wb.ipynb", reset=True), timeout=LONG)
        expect(page.locator("#jp-main-statusbar").get_by_text("Idle")).to_be_visible(timeout=LONG)
        page.locator(".jp-Notebook").click()
        page.keyboard.press("Shift+Enter")
        expect(page.locator(".jp-OutputArea .ac-progress-message")).to_have_attribute("data-state", "done", timeout=LONG)
        seen = set()
        for width in (1000, 1900):
            page.set_viewport_size({"width": width, "height": 1100})
            page.wait_for_timeout(500)
            page.locator(".ac-workbench").scroll_into_view_if_needed()
            shot = page.screenshot(path=str(artifacts / f"wb-layout-lab-{width}.png"))
            w = page.locator(".ac-workbench").bounding_box()["width"]
            assert w < width - 40                                       # the column is narrower than the window
            check_layout(page, Image.open(io.BytesIO(shot)), width, page.locator(".jp-NotebookPanel-notebook").bounding_box())
            seen.add(3 if w >= WIDE_PX else 2 if w >= MEDIUM_PX else 1)
        assert len(seen) == 2, seen                                     # the column's width changed the layout
    finally:
        context.close()
