"""The workbench with LLM-mode passes, against a real chat-completions server on 127.0.0.1 (`FakeLLMServer`).

The tests drive the widget the way a user does — the rules | LLM switch on a pass's row, Run all, picking a
pass and the "LLM vs rules" tab — and check what the view shows against the session underneath and against
a rule-based lowering computed here, independently of the workbench. The scripted model lowers leaky_relu's
compute pass as an expert would: its first answer drops the element count of the vector call (it does not
compile), and the answer after the compiler's feedback is the rule-based output plus one comment.
"""
import html
import re

import pytest

from ascendcraft.config import load_settings
from ascendcraft.llm import LLMClient, ReplyCache
from ascendcraft.llm_server import FakeLLMServer
from ascendcraft.pipeline import Pipeline
from ascendcraft.session import Session
from ascendcraft.workbench import RuleBaseline, Workbench

TASK = "leaky_relu"
KERNEL = "leaky_relu_kernel.cpp"
GOOD_CALL = "LeakyRelu(youtLocal, xinLocal, slope, n);"
BAD_CALL = "LeakyRelu(youtLocal, xinLocal, slope);"          # no element count: no matching overload
NOTE = "  // one vector call per tile"                        # what the LLM writes that the rules do not


def text_of(markup: str) -> str:
    "The text a browser would show for `markup` (tags dropped, entities decoded)."
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def answer(code: str) -> str:
    "A model's answer: one titled code block with the kernel file."
    return f"Here is the compute pass.\n\n```cpp title={KERNEL}\n{code}```\n"


def changed_lines(diff: str) -> list:
    "The - and + lines of a unified diff (without the file headers)."
    return [l for l in diff.splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))]


@pytest.fixture(scope="module")
def rules():
    "The rule-based lowering of the expert leaky_relu kernel (snapshots only), made without the workbench."
    s = Session(TASK)
    pipe = Pipeline(s.dsl, s.filename, task=s.task, settings=s.settings, compile=False)
    pipe.run_all()
    assert [st.status for st in pipe.steps] == ["ok"] * 5
    return pipe


def llm_workbench(server, tmp_path, **kwargs) -> Workbench:
    "A workbench on leaky_relu whose session has an LLM client for `server` (replies cached under tmp_path)."
    settings = load_settings(llm_base_url=server.base_url, llm_model="scripted", llm_max_rounds=3)
    return Workbench(Session(TASK, settings=settings, llm=LLMClient(settings, cache=ReplyCache(tmp_path / "replies"))),
                     **kwargs)


def show_llm_tab(wb: Workbench, k: int) -> str:
    "Select step k, open its LLM vs rules tab, return the tab's HTML."
    wb.select(k)
    wb.detail_tabs.selected_index = list(wb.detail_tabs.titles).index("LLM vs rules")
    return wb.llm_view.value


def test_switches_are_off_without_an_llm_client_and_say_why():
    wb = Workbench(Session(TASK), background=False)
    assert len(wb.pass_list.modes) == 5 and wb.pass_list.modes[0].layout.visibility == "hidden"   # the front end is no pass
    for mode in wb.pass_list.modes[1:]:
        assert mode.disabled and mode.value == "rules"
        assert "no LLM client" in mode.tooltip and "llm_base_url" in mode.tooltip
        assert all("no LLM client" in tip for tip in mode.tooltips)
    assert "an LLM-mode pass needs an LLM client" in wb.mode_note.value
    assert wb.set_pass_mode("compute", "llm")             # a script may still ask: the session refuses, the view says why
    assert "llm-no-endpoint" in wb.runner.error.value and "compute pass by the LLM: failed" in wb.runner.message.value
    assert wb.session.llm_pass_names == () and wb.pass_list.modes[3].value == "rules"
    assert "ac-llm-pill" not in "".join(info.value for info in wb.pass_list.infos)


def test_an_llm_compute_pass_fixed_by_feedback_beside_the_rule_based_one(rules, tmp_path):
    ruled = rules["compute"].project[KERNEL]
    assert ruled.count(GOOD_CALL) == 1
    second = ruled.replace(GOOD_CALL, GOOD_CALL + NOTE)
    first = second.replace(GOOD_CALL, BAD_CALL)
    with FakeLLMServer([answer(first), answer(second)]) as server:
        wb = llm_workbench(server, tmp_path, background=False)
        s = wb.session
        assert not any(mode.disabled for mode in wb.pass_list.modes[1:])
        assert "switch a pass to <b>LLM</b>" in wb.mode_note.value

        wb.pass_list.modes[3].value = "llm"               # the compute row's switch
        assert s.llm_pass_names == ("compute",)
        assert [st.pass_.kind for st in s.steps[1:]] == ["rule", "rule", "llm", "rule"]
        assert [st.status for st in s.steps] == ["not run"] * 5            # a new run of the passes starts
        assert [("ac-llm-pill" in info.value) for info in wb.pass_list.infos] == [False, False, False, True, False]
        assert "the LLM does <b>compute</b>" in wb.mode_note.value
        assert [mode.value for mode in wb.pass_list.modes[1:]] == ["rules", "rules", "llm", "rules"]

        wb.buttons["run_all"].click()
        asked = list(server.chat_requests)
        assert [st.status for st in s.steps] == ["ok"] * 5
        assert len(asked) == 2
        feedback = asked[1].messages[-1]["content"]
        assert "no matching function" in feedback and BAD_CALL in feedback   # the compiler's error went back
        assert "LLM · 2 rounds" in wb.pass_list.infos[3].value
        assert wb.rule_baseline.runs == 0                 # nobody compared yet: the rules did not run

        # the conversation tab: the prompt, both replies as the LLM's, the feedback sent back, what it produced
        [talk] = wb.desk.conversations
        assert talk.action == "run all" and talk.produced == "the compute snapshot (LLM pass)" and len(talk.turns) == 2
        assert talk.turns[1].prompt == feedback
        shown = text_of(wb.conversation_view.value)
        assert shown.count("LLM reply") == 2 and "feedback sent back" in shown and feedback in shown
        assert "produced: the compute snapshot (LLM pass)" in shown

        # the pass detail: both rounds, the feedback sent back after the first, the diff from the rule-based pass
        view = show_llm_tab(wb, 3)
        shown = text_of(view)
        assert view.count('class="ac-llm-round"') == 2 and view.count('class="ac-llm-feedback"') == 1
        assert "accepted after 2 round(s)" in shown and feedback in shown
        rule_line = next(l for l in ruled.splitlines() if GOOD_CALL in l)
        diff = wb.rule_baseline.diff(3)
        assert changed_lines(diff) == ["-" + rule_line, "+" + rule_line.replace(GOOD_CALL, GOOD_CALL + NOTE)]
        assert "+1 −1 lines" in view
        code = wb.rules_diff.view                         # the diff itself is code: CodeMirror, C++, the files' own lines
        assert wb.rules_diff.layout.display is None and code.language == "cpp" and code.name == "rules-diff"
        assert code.labels == ["rules/03_compute/leaky_relu_kernel.cpp", "llm/03_compute/leaky_relu_kernel.cpp"]
        assert code.original == ruled and code.value == second
        assert wb.rule_baseline.runs == 1
        show_llm_tab(wb, 2); show_llm_tab(wb, 3)
        assert wb.rule_baseline.runs == 1                 # kept for this DSL text

        # the rule-based steps are the rules' own: same snapshots, no pill, nothing to compare
        for name in ("host", "init"):
            assert s.pipeline[name].project == rules[name].project
        assert s.pipeline["align"].project[KERNEL] == rules["align"].project[KERNEL].replace(GOOD_CALL, GOOD_CALL + NOTE)
        assert "the rules do the align pass" in show_llm_tab(wb, 4)
        assert wb.rules_diff.layout.display == "none"     # a rule-based pass: no code view left from the LLM's
        wb.select(3)
        assert "02_init/leaky_relu_kernel.cpp" in wb.diff_view.labels and NOTE.strip() in wb.diff_view.value

        # back to the rules: no request, the rules' compute snapshot, no pill
        wb.pass_list.modes[3].value = "rules"
        wb.buttons["run_all"].click()
        assert len(server.chat_requests) == 2
    assert s.llm_pass_names == () and [st.status for st in s.steps] == ["ok"] * 5
    assert s.pipeline["compute"].project == rules["compute"].project
    assert "ac-llm-pill" not in "".join(info.value for info in wb.pass_list.infos)
    assert "the rules do the compute pass" in show_llm_tab(wb, 3)


def test_an_llm_pass_that_never_compiles_shows_every_round(rules, tmp_path):
    broken = rules["compute"].project[KERNEL].replace(GOOD_CALL, BAD_CALL)
    with FakeLLMServer([answer(broken)] * 3) as server:
        wb = llm_workbench(server, tmp_path, background=False)
        wb.set_pass_mode("compute", "llm")
        wb.buttons["run_all"].click()
        assert len(server.chat_requests) == 3             # llm_max_rounds
    s = wb.session
    assert [st.status for st in s.steps] == ["ok", "ok", "ok", "compile error", "not run"]
    assert wb.selected == 3 and "LLM · 3 rounds" in wb.pass_list.infos[3].value
    line = next(i for i, l in enumerate(s.steps[3].project[KERNEL].splitlines(), 1) if BAD_CALL in l)
    assert f"leaky_relu_kernel.cpp:{line}:" in wb.compiler_view.value   # the error against its line
    view = show_llm_tab(wb, 3)
    assert view.count('class="ac-llm-round"') == 3 and view.count('class="ac-llm-feedback"') == 2
    assert "not accepted after 3 round(s)" in text_of(view) and "rejected: no rounds left" in text_of(view)
    assert changed_lines(wb.rule_baseline.diff(3)) == ["-" + next(l for l in rules["compute"].project[KERNEL].splitlines()
                                                                  if GOOD_CALL in l),
                                                       "+" + next(l for l in broken.splitlines() if BAD_CALL in l)]


def test_switches_are_off_while_an_action_runs_and_a_refused_switch_springs_back(tmp_path):
    with FakeLLMServer([]) as server:                     # every pass stays rule-based: nothing is asked
        wb = llm_workbench(server, tmp_path, background=True)
        seen = []
        report = wb.session.progress

        def spy(message, fraction):
            report(message, fraction)
            if not seen:                                  # while the run is going, flip the compute switch
                wb.pass_list.modes[3].value = "llm"
            seen.append(([m.disabled for m in wb.pass_list.modes[1:]], wb.pass_list.modes[3].tooltip,
                         wb.pass_list.modes[3].value, wb.session.llm_pass_names))
        wb.session.progress = spy
        wb.buttons["run_all"].click()
        assert wb.wait(120)
        assert server.chat_requests == []
    assert seen and all(disabled == [True] * 4 and "action is running" in tip for disabled, tip, _, _ in seen)
    assert all(value == "rules" and names == () for *_, value, names in seen)   # refused, and shown as refused
    assert not any(m.disabled for m in wb.pass_list.modes[1:])


def test_the_rule_baseline_follows_the_dsl_the_snapshots_came_from():
    s = Session(TASK)
    baseline = RuleBaseline(s)
    s.pipeline.run_step(0)                                # the front end only: the session's DSL is lowered from now on
    first = baseline.pipeline()
    assert first.dsl == s.dsl and baseline.pipeline() is first and baseline.runs == 1
    old, new = s.dsl, s.dsl.replace("TILE = 8192", "TILE = 4096")
    assert new != old
    s.set_dsl(new)
    assert baseline.pipeline() is first                   # the snapshots still come from the old DSL
    s.pipeline.run_step(0)
    second = baseline.pipeline()
    assert second is not first and second.dsl == new and baseline.runs == 2
    assert baseline.pipeline(old) is first and baseline.runs == 2
    assert second["host"].project != first["host"].project      # the tile size is in the host's tiling
    assert second["compute"].build is None                       # snapshots only: nothing compiled


def test_an_llm_pass_without_an_endpoint_fails_at_its_step_and_says_why(tmp_path):
    settings = load_settings(llm_base_url="", llm_model="scripted")     # a client, but nothing to ask and nothing recorded
    wb = Workbench(Session(TASK, settings=settings, llm=LLMClient(settings, cache=ReplyCache(tmp_path))), background=False)
    assert wb.set_pass_mode("init", "llm")
    wb.buttons["run_all"].click()
    assert [st.status for st in wb.session.steps] == ["ok", "ok", "failed", "not run", "not run"]
    assert wb.selected == 2 and "llm-no-endpoint" in wb.compiler_view.value    # the failing pass, and why
    assert "no snapshot: the pass failed" in show_llm_tab(wb, 2) and wb.rule_baseline.runs == 0


def test_cancel_stops_ask_faster_while_the_llm_is_still_answering(tmp_path):
    "Cancel during 'Ask LLM: faster': the waiting request is dropped at once (not retried), the action says cancelled."
    import time
    from ascendcraft.generate import Evaluation, Variant
    from ascendcraft.llm_server import Reply
    slow = Reply(f"Faster:\n\n```python\n{Session(TASK).dsl}```\n", delay=60.0)    # the model takes a minute
    with FakeLLMServer([slow, slow]) as server:
        wb = llm_workbench(server, tmp_path, background=True)
        # the variant to speed up, with a stand-in evaluation (verifying and timing it is not what is tested here)
        start = Evaluation(True, kernel_us=10.0, eager_us=12.0, speedup=1.2, verdict="memory-bound",
                           label="modelled on Ascend910B2", breakdown="MTE2 8 µs")
        wb.session.history.add(Variant("v0", wb.session.dsl, "expert", start))
        assert wb.ask_faster()
        deadline = time.monotonic() + 120
        while not server.chat_requests and time.monotonic() < deadline and wb.runner.busy: time.sleep(0.05)
        assert len(server.chat_requests) == 1 and wb.runner.busy, wb.runner.message.value
        time.sleep(0.3)
        asked = time.monotonic()
        assert wb.runner.cancel()
        assert wb.wait(10), "the action did not stop within 10 s of Cancel"
        took = time.monotonic() - asked
        assert took < 3, took
        assert wb.runner.last_outcome.state == "cancelled"
        assert "ask the LLM for a faster variant: cancelled" in wb.runner.message.value
        assert len(server.chat_requests) == 1             # nothing retried after the cancel
        assert [v.name for v in wb.session.history.variants] == ["v0"]    # no variant from the dropped round
        assert wb.session.llm.calls[-1].error == "Cancelled"
        assert not wb.buttons["ask_faster"].disabled       # the workbench is usable again
