"""The standalone workbench page in a real browser: Voila serves examples/workbench.ipynb through
`launch_workbench`, Chromium loads it, and the test edits the DSL and a snapshot the way a user does
(CodeMirror's search box, then typing), reruns, and checks what the page shows.

Screenshots land in test-artifacts/; `workbench-side-by-side.png` is the acceptance picture: the DSL, a pass
diff, the compiler's errors and the timing on one screen.
"""
import re

import pytest

from ascendcraft.workbench import launch_workbench
from _lab import lab_folder, notebook, open_notebook
from _servers import stopped_later

pytestmark = pytest.mark.browser
TASK = "softmax"                      # the page's default task
LONG = 240_000                        # ms: a cold cache compiles the emulator runtime and every snapshot


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    "Voila on a free port, serving the workbench page for TASK (every pass run on opening, the work saved in a temporary folder)."
    from ascendcraft.config import load_settings
    with stopped_later(launch_workbench(TASK, port=0, block=False, settings=load_settings(workbench_start="run"),
                                        workdir=tmp_path_factory.mktemp("page"))) as running:
        yield running.ready()


@pytest.fixture
def wb_page(chromium, server):
    "A fresh page (and so a fresh kernel) on the workbench, the initial run of all passes finished."
    from playwright.sync_api import expect
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append((m.text, m.location.get("url", ""))))
    page.goto(server.url, timeout=LONG)
    message = page.locator(".ac-progress-message")
    expect(message).to_have_attribute("data-action", "1", timeout=LONG)      # the page runs all passes at once
    expect(message).to_have_attribute("data-state", "done", timeout=LONG)
    yield page
    context.close()


def act(page, label: str, click, state: str = "done"):
    "Do `click` and wait until the workbench has finished the action it starts (and says `label: <state>`)."
    from playwright.sync_api import expect
    message = page.locator(".ac-progress-message")
    before = int(message.get_attribute("data-action"))
    click()
    expect(message).to_have_attribute("data-action", str(before + 1))
    expect(message).to_have_attribute("data-state", re.compile("done|failed|warning|cancelled"), timeout=LONG)
    expect(message).to_have_attribute("data-state", state)
    expect(message).to_contain_text(f"{label}: {state}")


def replace_in(page, editor: str, old: str, new: str):
    "Replace `old` by `new` in a CodeMirror editor: open its search box, find `old`, type over the selection."
    page.locator(f'.ac-editor[data-name="{editor}"] .cm-content').click()
    page.keyboard.press("Control+f")
    field = page.locator(f'.ac-editor[data-name="{editor}"] .cm-search input[name="search"]')
    field.fill(old)
    field.press("End")                # CodeMirror takes the query on keyup
    field.press("Enter")              # select the next match
    field.press("Escape")             # close the box; the match stays selected
    page.keyboard.insert_text(new)


def find_in_diff(page, text: str, attempts: int = 3):
    """Search the pass diff (its search button, then type and Enter): the first match is scrolled into view.

    The diff view builds its editor again when its content arrives or its width crosses the side-by-side threshold,
    and a search box opened just before that goes with the old editor (a suite run under load waited 60 s on the
    detached field). Like a user whose box vanished, open it again."""
    from playwright.sync_api import Error
    diff = page.locator('.ac-diffview[data-name="pass-diff"]')
    for attempt in range(attempts):
        diff.locator(".ac-diff-search").click()
        field = diff.locator('.cm-search input[name="search"]')
        try:
            field.fill(text, timeout=15_000)
            field.press("End", timeout=15_000)
            field.press("Enter", timeout=15_000)
            return
        except Error:
            if attempt == attempts - 1: raise


def check_timeline(page, artifacts, shot: str):
    """The interactive timeline (plotly.js, offline): a row per pipe and core, readable text, a hover that names the
    instruction, its AscendC line, bytes and stall, and a box drag that zooms in."""
    from playwright.sync_api import expect
    plot = page.locator('.ac-plot[data-name="timeline"]')
    graph = plot.locator(".js-plotly-plot")
    expect(graph).to_be_visible(timeout=60_000)
    plot.scroll_into_view_if_needed()
    expect(plot.locator(".barlayer .point path").first).to_be_attached(timeout=60_000)   # drawn once its figure arrives
    rows = set(plot.locator(".ytick text").all_text_contents())
    assert {"block 0 · MTE2", "block 0 · V", "block 1 · MTE2", "block 1 · V"} <= rows, rows   # per pipe, per core
    sizes = plot.locator(".ytick text, .xtick text").evaluate_all("ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize))")
    assert min(sizes) >= 11, sizes                                   # not 6 px text
    box, pane = plot.bounding_box(), page.locator(".ac-right").bounding_box()
    assert box["x"] >= pane["x"] - 1 and box["x"] + box["width"] <= pane["x"] + pane["width"] + 1   # it fits its pane
    # hover a bar as a user does: on the widest bar's lane, moving right from it until a label shows. The bar is
    # scrolled into the window first (a mouse outside it hovers nothing). At 1600 px the timeline stands in the third
    # column, 455 px wide for thousands of instructions: every bar is at most 2 px wide there, and plotly can show no
    # label for the point a 2 px bar's centre is drawn at, so the mouse moves on, a pixel or two at a time.
    x, y = plot.evaluate("""el => { const bars = [...el.querySelectorAll('.barlayer .point path')]
            .filter(p => p.getBoundingClientRect().width > 0);
        const bar = bars.reduce((a, b) => (b.getBoundingClientRect().width > a.getBoundingClientRect().width ? b : a));
        bar.scrollIntoView({block: 'center', inline: 'nearest'});
        const r = bar.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; }""")
    assert 0 <= y < page.viewport_size["height"], y                 # the bar is in the window, where the mouse can go
    assert plot.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y])   # nothing covers it
    labels = plot.locator(".hoverlayer .hovertext")
    page.mouse.move(x - 3, y)
    for step in range(60):
        page.mouse.move(x + 1.5 * step, y)
        page.wait_for_timeout(80)
        if labels.count(): break
    hover = plot.locator(".hoverlayer .hovertext")
    expect(hover).to_be_visible()
    expect(hover).to_contain_text("AscendC line")
    expect(hover).to_contain_text("bytes")
    expect(hover).to_contain_text(re.compile(r"no stall|stall [\d.]+ µs"))
    page.screenshot(path=str(artifacts / shot))
    # zoom: drag a box over the middle third of the time axis
    span = lambda: graph.evaluate("g => g._fullLayout.xaxis.range[1] - g._fullLayout.xaxis.range[0]")
    before = span()
    drag = plot.locator(".nsewdrag").first.bounding_box()
    page.mouse.move(drag["x"] + drag["width"] * 0.35, drag["y"] + drag["height"] * 0.5)
    page.mouse.down()
    page.mouse.move(drag["x"] + drag["width"] * 0.55, drag["y"] + drag["height"] * 0.5, steps=8)
    page.mouse.up()
    page.wait_for_function("([g, b]) => { const r = g._fullLayout.xaxis.range; return r[1] - r[0] < 0.5 * b; }",
                           arg=[graph.element_handle(), before])
    assert span() < 0.5 * before


def status_of(page, k: int) -> str:
    return page.locator(".ac-pass-list .ac-status").nth(k).get_attribute("data-status")


def test_edit_the_dsl_rerun_see_the_new_diff_status_errors_and_timing(wb_page, artifacts):
    page = wb_page
    from playwright.sync_api import expect
    assert [status_of(page, k) for k in range(5)] == ["ok"] * 5
    expect(page.locator('.ac-editor[data-name="dsl"] .cm-content')).to_contain_text("softmax_kernel")
    page.screenshot(path=str(artifacts / "workbench-loaded.png"))

    act(page, "time", page.get_by_role("button", name="Time").click)
    timing = page.locator(".ac-timing-view")
    expect(timing).to_contain_text("modelled on Ascend910B2")
    expect(timing).to_contain_text("bottleneck:")
    check_timeline(page, artifacts, "workbench-timeline-voila.png")
    timing.locator(".ac-static-timeline summary").click()            # the static picture (as exported) is kept
    expect(timing.locator(".ac-static-timeline svg")).to_be_visible()

    # break the DSL: the front end fails at the edited line, marked in the editor and in the compiler pane
    replace_in(page, "dsl", "exp(yout, yout, n)", "exp(yout, yout)")
    expect(page.locator(".ac-dsl-state")).to_contain_text("edited")
    act(page, "run all", page.get_by_role("button", name="Run all").click, "failed")
    assert status_of(page, 0) == "failed" and status_of(page, 4) == "stale"
    expect(page.locator('.ac-editor[data-name="dsl"] .ac-error-line')).to_have_count(1)
    expect(page.locator('.ac-editor[data-name="dsl"] .ac-error-line')).to_contain_text("exp(yout, yout)")
    expect(page.locator(".ac-compiler-view")).to_contain_text(re.compile(r"softmax\.py:\d+:\d+: error\[arg-count\]"))
    page.screenshot(path=str(artifacts / "workbench-dsl-error.png"))

    # a different, valid DSL: every step green again and the compute pass's diff shows the new call
    replace_in(page, "dsl", "exp(yout, yout)", "abs(yout, yout, n)")
    act(page, "run all", page.get_by_role("button", name="Run all").click)
    assert [status_of(page, k) for k in range(5)] == ["ok"] * 5
    expect(page.locator('.ac-editor[data-name="dsl"] .ac-error-line')).to_have_count(0)
    page.get_by_role("button", name="3 · compute").click()
    expect(page.locator(".ac-detail-title")).to_contain_text("3 · compute")
    find_in_diff(page, "Abs(youtLocal, youtLocal, n);")          # the diff is code: search it as a user would
    expect(page.locator(".ac-diff-view .cm-line", has_text="Abs(youtLocal, youtLocal, n);").first).to_be_visible()
    page.locator(".ac-pass-diff-pane").get_by_text("side by side", exact=True).click()
    expect(page.locator('.ac-diffview[data-name="pass-diff"][data-layout="side"] .cm-mergeView')).to_be_visible()
    page.locator(".ac-pass-diff-pane").get_by_text("unified", exact=True).click()
    expect(page.locator('.ac-diffview[data-name="pass-diff"][data-layout="unified"]')).to_be_visible()

    # edit the compute snapshot: a compile error at its line, the later pass stale, the timing kept (stale)
    page.get_by_role("tab", name="Edit snapshot").click()
    replace_in(page, "snapshot", "Muls(youtLocal, youtLocal, scale, n)", "Muls(youtLocal, youtLocal, scale)")
    act(page, "edit compute", page.get_by_role("button", name="Apply edit").click, "failed")   # red, never "done"
    assert status_of(page, 3) == "compile error" and status_of(page, 4) == "stale"
    compiler = page.locator(".ac-compiler-view")
    expect(compiler).to_contain_text(re.compile(r"softmax_kernel\.cpp:\d+:\d+: error\[compile-error\]"))
    expect(compiler).to_contain_text("g++")                           # the exact command
    expect(compiler.locator(".ac-diagnostic")).to_contain_text("Muls(youtLocal, youtLocal, scale);")
    expect(page.locator('.ac-editor[data-name="snapshot"] .ac-error-line')).to_contain_text("Muls(youtLocal, youtLocal, scale);")
    expect(timing).to_contain_text("stale")
    page.get_by_role("tab", name="Diff").click()
    expect(page.locator(".ac-diff-view")).to_contain_text("03_compute/softmax_kernel.cpp")
    page.screenshot(path=str(artifacts / "workbench-side-by-side.png"))
    for pane in (".ac-dsl-state", ".ac-diff-view", ".ac-compiler-view", ".ac-timing-view"):   # one screen
        box = page.locator(pane).bounding_box()
        assert box and box["y"] < 1080 and box["x"] + 40 < 1920, (pane, box)

    unexpected = [(text, url) for text, url in page.console_errors if "cdn.jsdelivr.net" not in url]
    assert unexpected == [], unexpected               # only Font Awesome from the (offline) CDN may fail


LAB_NOTEBOOK = notebook("from ascendcraft.workbench import open_workbench",
                        "wb = open_workbench('leaky_relu', run=True)", "wb")


@pytest.fixture(scope="module")
def lab(jupyterlab, request):
    "A folder of the session's JupyterLab (this module's own) with one notebook that opens the workbench."
    yield from lab_folder(jupyterlab, request, {"wb.ipynb": LAB_NOTEBOOK})


def test_the_workbench_works_inside_jupyterlab(chromium, lab, artifacts):
    from playwright.sync_api import expect
    context = chromium.new_context(viewport={"width": 1920, "height": 1200})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_notebook(page, lab, "wb.ipynb")                      # and run its cell
        message = page.locator(".jp-OutputArea .ac-progress-message")
        expect(message).to_have_attribute("data-state", "done", timeout=LONG)
        assert page.locator(".ac-pass-list .ac-status").count() == 5
        expect(page.locator('.ac-pass-list .ac-status[data-status="ok"]')).to_have_count(5)
        expect(page.locator('.ac-editor[data-name="dsl"] .cm-content')).to_contain_text("leaky_relu_kernel")
        page.get_by_role("button", name="2 · init").click()      # a round trip through the kernel
        expect(page.locator(".ac-detail-title")).to_contain_text("2 · init")
        expect(page.locator(".ac-diff-view")).to_contain_text("01_host/leaky_relu_kernel.cpp")
        page.screenshot(path=str(artifacts / "workbench-jupyterlab.png"))

        # the keyboard in JupyterLab: F10 steps, Ctrl+F10 runs to the selected pass, F8 runs all, Ctrl+Enter applies
        # the snapshot edit — and JupyterLab's own meaning of those keys (Ctrl+Enter: run the cell) does not fire
        prompt = page.locator(".jp-Cell .jp-InputPrompt").first.text_content()
        statuses = lambda: [page.locator(".ac-pass-list .ac-status").nth(k).get_attribute("data-status") for k in range(5)]
        act(page, "reset", page.get_by_role("button", name="Reset").click)
        assert statuses() == ["not run"] * 5
        page.locator(".ac-pass-list").click(position={"x": 400, "y": 5})     # somewhere in the workbench, no control
        act(page, "step", lambda: page.keyboard.press("F10"))
        assert statuses() == ["ok"] + ["not run"] * 4
        page.get_by_role("button", name="3 · compute").click()
        expect(page.locator(".ac-detail-title")).to_contain_text("3 · compute")
        act(page, "run to compute", lambda: page.keyboard.press("Control+F10"))
        assert statuses() == ["ok"] * 4 + ["not run"]
        act(page, "run all", lambda: page.keyboard.press("F8"))
        assert statuses() == ["ok"] * 5
        page.get_by_role("button", name="3 · compute").click()
        page.get_by_role("tab", name="Edit snapshot").click()
        replace_in(page, "snapshot", "LeakyRelu(youtLocal, xinLocal, slope, n);", "LeakyRelu(youtLocal, xinLocal, slope, n);  // mine")
        act(page, "edit compute", lambda: page.keyboard.press("Control+Enter"))
        expect(page.locator(".ac-pass-list .ac-edited")).to_have_count(1)
        assert page.locator(".jp-Cell .jp-InputPrompt").first.text_content() == prompt    # the cell did not run again
        assert page.locator(".ac-workbench").count() == 1

        # the interactive timeline works in JupyterLab too
        act(page, "time", page.get_by_role("button", name="Time").click)
        check_timeline(page, artifacts, "workbench-timeline-lab.png")
    finally:
        context.close()
