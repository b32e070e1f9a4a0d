"""The workbench's LLM side in a real browser (issue 19, items 2, 5 and 8): Voila serves the page with an LLM endpoint
that is a real OpenAI-compatible server on 127.0.0.1 (`FakeLLMServer`, answering from a script), and the test does
what a user does:

- switches the compute pass to the LLM and runs every pass (its first answer does not compile, the compiler's error
  goes back, the second answer is kept);
- reads the LLM vs rules diff, which is code (CodeMirror, C++, each side numbered with its file's own lines);
- reads the conversation tab (the prompt, each reply labelled as the LLM's, the feedback sent back, what it produced);
- asks for a faster variant while the model is slow and cancels: the round stops at once;
- asks again, and reads the variant-compare diff, also code (Python), and the tuning turn with the variant it produced.

The page's model name is new for each run, so no reply recorded by an earlier run is replayed; the replies this
run writes to the reply cache are removed afterwards.
"""
import contextlib
import functools
import re
import time
import uuid

import pytest

from ascendcraft.config import load_settings
from ascendcraft.llm_server import FakeLLMServer, Reply
from ascendcraft.pipeline import Pipeline
from ascendcraft.session import Session
from ascendcraft.workbench import launch_workbench
from _servers import stopped_later

from test_wb_views_browser import gutter_number, line_of, look_at, misaligned_rows  # noqa: E402  (the diff views' helpers)
from test_workbench_state_browser import act as state_act  # noqa: E402

pytestmark = pytest.mark.browser
TASK = "leaky_relu"
KERNEL = "leaky_relu_kernel.cpp"
GOOD_CALL = "LeakyRelu(youtLocal, xinLocal, slope, n);"
BAD_CALL = "LeakyRelu(youtLocal, xinLocal, slope);"          # no element count: does not compile
NOTE = "  // one vector call per tile"                        # what the LLM writes that the rules do not
LONG = 300_000


def fenced(language: str, code: str, title: str = "") -> str:
    return f"Here it is.\n\n```{language}{' title=' + title if title else ''}\n{code}```\n"


def compute_by_rules(task: str = TASK) -> tuple[Session, str]:
    "The task's session and its compute pass's kernel file as the rules write it."
    s = Session(task)
    rules = Pipeline(s.dsl, s.filename, task=s.task, compile=False)
    rules.run_all()
    return s, rules["compute"].project[KERNEL]


@contextlib.contextmanager
def scripted_page(tmp_path_factory, script: list, folder: str):
    """The workbench page for TASK, opening fresh, its LLM a FakeLLMServer answering `script`; yields (page server,
    LLM server). The model name is new for each run, so no earlier run's reply is replayed; this run's replies are
    removed from the reply cache afterwards. The page's server stops in the background (`stopped_later`): the LLM
    server goes first, which a stopping page no longer asks."""
    model = f"scripted-{uuid.uuid4().hex[:10]}"
    settings = load_settings(workbench_start="fresh", llm_model=model)
    try:
        with FakeLLMServer(script, models=None) as llm:
            settings = settings.replace(llm_base_url=llm.base_url)
            with stopped_later(launch_workbench(TASK, port=0, block=False, settings=settings,
                                                workdir=tmp_path_factory.mktemp(folder))) as page_server:
                yield page_server.ready(), llm
    finally:
        for entry in (settings.cache_path / "llm").rglob("*.json"):        # this run's replies: keyed by its model name
            try:
                if model in entry.read_text(errors="replace"): entry.unlink()
            except OSError: pass


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    "The script: the compute pass (a broken answer, then a good one), a tuning answer that is slow, then a fast one."
    s, ruled = compute_by_rules()
    second = ruled.replace(GOOD_CALL, GOOD_CALL + NOTE)
    faster = s.dsl.replace("TILE = 8192", "TILE = 4096")
    assert faster != s.dsl
    script = [Reply(fenced("cpp", second.replace(GOOD_CALL, BAD_CALL), KERNEL)), Reply(fenced("cpp", second, KERNEL)),
              Reply(fenced("python", faster), delay=120.0),       # cancelled while the model "thinks"
              Reply(fenced("python", faster))]
    with scripted_page(tmp_path_factory, script, "llm-page") as (page, llm):
        yield page, llm, ruled, second, faster


# the status line waits of the state test, with this test's longer limit (LLM rounds)
act = functools.partial(state_act, timeout=LONG)


def test_llm_pass_conversation_cancel_and_compare_as_a_user_sees_them(chromium, scripted, artifacts):
    from playwright.sync_api import expect
    server, llm, ruled, second, faster = scripted
    expect.set_options(timeout=30_000)
    context = chromium.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(server.url, timeout=LONG)
        expect(page.locator(".ac-pass-list .ac-status")).to_have_count(5, timeout=LONG)
        expect(page.locator(".ac-progress-message")).to_have_attribute("data-state", "idle", timeout=LONG)
        expect(page.locator(".ac-llm-off")).to_have_count(0)              # an endpoint: nothing says the LLM is off
        expect(page.get_by_role("button", name="Ask LLM: faster")).to_be_enabled()

        # the compute pass by the LLM: two rounds, the compiler's error fed back
        row = page.locator(".ac-pass-row").nth(3)
        act(page, "compute pass by the LLM", lambda: row.get_by_role("button", name="LLM", exact=True).click())
        act(page, "run all", page.get_by_role("button", name=re.compile("Run all")).click)
        assert [page.locator(".ac-pass-list .ac-status").nth(k).get_attribute("data-status") for k in range(5)] == ["ok"] * 5
        expect(row).to_contain_text("LLM · 2 rounds")
        assert len(llm.chat_requests) == 2

        # LLM vs rules: the diff is read-only C++ in CodeMirror, each side with its file's own line numbers, in its pane
        page.get_by_role("button", name="3 · compute").click()
        page.get_by_role("tab", name="LLM vs rules").click()
        rules_diff = '.ac-diffview[data-name="rules-diff"]'
        content = page.locator(f"{rules_diff} .cm-content").first
        expect(content).to_have_attribute("data-language", "cpp")
        expect(content).to_have_attribute("aria-readonly", "true")
        expect(page.locator(f"{rules_diff} .ac-diff-head")).to_contain_text(
            f"rules/03_compute/{KERNEL} → llm/03_compute/{KERNEL}")
        expect(page.locator(f"{rules_diff} .cm-line", has_text=NOTE.strip()).first).to_be_visible()
        assert gutter_number(page, rules_diff, NOTE.strip()) == [str(line_of(second, NOTE.strip()))]
        box, pane = page.locator(rules_diff).bounding_box(), page.locator(".ac-centre").bounding_box()
        assert box["x"] + box["width"] <= pane["x"] + pane["width"] + 1          # it fits its pane
        page.locator(".ac-rules-diff").get_by_text("side by side", exact=True).click()
        expect(page.locator(f'{rules_diff}[data-layout="side"] .cm-mergeView')).to_be_visible()
        assert gutter_number(page, rules_diff, GOOD_CALL) == [str(line_of(ruled, GOOD_CALL)), str(line_of(second, GOOD_CALL))]
        page.screenshot(path=str(artifacts / "wb-llm-vs-rules.png"))

        # the conversation: the prompt, both replies as the LLM's, the feedback sent back, what it produced
        page.get_by_role("tab", name="LLM conversation").click()
        talk = page.locator(".ac-conversation").first
        expect(talk).to_contain_text("run all")
        expect(talk).to_contain_text("produced: the compute snapshot (LLM pass)")
        expect(talk.locator(".ac-turn")).to_have_count(2)
        expect(talk.locator(".ac-turn-reply")).to_have_count(2)
        expect(talk.get_by_text("LLM reply")).to_have_count(2)
        expect(talk.locator(".ac-turn-reply").nth(0)).to_contain_text(BAD_CALL)
        expect(talk.locator(".ac-turn-reply").nth(1)).to_contain_text(NOTE.strip())
        feedback = talk.locator(".ac-turn").nth(1).locator(".ac-turn-prompt")
        expect(feedback).to_contain_text("feedback sent back")
        expect(feedback).to_contain_text("no matching function")          # the compiler's error went back
        expect(feedback).to_contain_text(BAD_CALL)
        talk.locator(".ac-turn").nth(0).locator(".ac-turn-prompt summary").click()   # unfold the first prompt
        expect(talk.locator(".ac-turn").nth(0).locator(".ac-turn-prompt pre")).to_contain_text("leaky_relu")
        page.screenshot(path=str(artifacts / "wb-llm-conversation.png"))

        # back to the rules for compute (else every tuning variant's compute pass would ask the model again)
        act(page, "compute pass by the rules", lambda: row.get_by_role("button", name="rules", exact=True).click())
        act(page, "run all", page.get_by_role("button", name=re.compile("Run all")).click)

        # ask for a faster variant while the model is slow, then cancel: the round stops at once
        ask = page.get_by_role("button", name="Ask LLM: faster")
        message = page.locator(".ac-progress-message")
        before = int(message.get_attribute("data-action"))
        ask.click()
        expect(message).to_have_attribute("data-action", str(before + 1))
        deadline = time.monotonic() + LONG / 1000                   # the first variant is verified and timed first
        while len(llm.chat_requests) < 3 and time.monotonic() < deadline: time.sleep(0.2)
        assert len(llm.chat_requests) == 3, message.text_content()
        expect(message).to_have_attribute("data-state", "running")
        page.locator(".ac-cancel").click()
        clicked = time.monotonic()
        expect(message).to_have_attribute("data-state", "cancelled", timeout=15_000)
        assert time.monotonic() - clicked < 15
        expect(message).to_contain_text("ask the LLM for a faster variant: cancelled")
        page.get_by_role("tab", name="LLM conversation").click()
        expect(page.locator(".ac-conversation").first).to_contain_text("produced nothing")

        # again, answered at once: a variant, its DSL diff as Python code, and the turn labelled with the variant
        act(page, "ask the LLM for a faster variant", ask.click)
        assert len(llm.chat_requests) == 4
        expect(page.get_by_role("tab", name="Variants & compare")).to_have_attribute("aria-selected", "true")
        variant_diff = '.ac-diffview[data-name="variant-diff"]'
        content = page.locator(f"{variant_diff} .cm-content").first
        expect(content).to_have_attribute("data-language", "python")
        expect(content).to_have_attribute("aria-readonly", "true")
        expect(page.locator(f"{variant_diff} .cm-line", has_text="TILE = 4096").first).to_be_visible()
        # scrolled to (it opens below the fold), each changed line has its own file's number beside it
        look_at(page, variant_diff, "TILE = 4096")
        assert misaligned_rows(page, variant_diff) == []
        assert gutter_number(page, variant_diff, "TILE = 4096")[-1] == str(line_of(faster, "TILE = 4096"))
        expect(page.locator(".ac-compare")).to_contain_text("v1")
        page.get_by_role("tab", name="LLM conversation").click()
        newest = page.locator(".ac-conversation").first
        expect(newest).to_contain_text("ask the LLM for a faster variant")
        expect(newest).to_contain_text("produced: variant v1")
        expect(newest.get_by_text("LLM reply")).to_have_count(1)
        page.screenshot(path=str(artifacts / "wb-llm-faster.png"))
    finally:
        context.close()
