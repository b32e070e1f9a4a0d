"""Session.ask_faster judges every proposal like the session's first kernel: lowered with the session's passes,
verified on the CPU emulation against PyTorch, timed only when correct; a rejection goes back to the model.

The scenario is a real one: a session whose compute pass is done by the LLM (scripted on a local OpenAI-compatible
server). The model lowers the first kernel correctly; for the proposed variant, a DSL the interpreter accepts, it
writes a compute pass that forgets the last tile's tail, so blocks overwrite each other's output — only running the
lowered kernel can show that.
"""
import re

import pytest

from ascendcraft.config import load_settings
from ascendcraft.generate import examples_root, judge_dsl
from ascendcraft.llm import LLMClient, ReplyCache
from ascendcraft.llm_server import FakeLLMServer
from ascendcraft.pipeline import Pipeline
from ascendcraft.session import Session
from ascendcraft.taskset import get_task

TASK = get_task("leaky_relu")
V0 = (examples_root() / "activation" / "leaky_relu.py").read_text()
V1 = re.sub(r"^TILE = 8192 .*$", "TILE = 10240  # bigger tiles: fewer DMA and vector instructions", V0, flags=re.M)
TAIL = "int32_t n = ScalarMin(tile, end - off);"


def compute_answer(dsl: str, bug: bool = False) -> str:
    "What the model answers to the compute-pass request for `dsl`: the kernel file (with the missing-tail bug if asked)."
    pipe = Pipeline(dsl, "leaky_relu.py", task=TASK)
    pipe.run_all()
    name = pipe.lowering.names.kernel_file
    kernel = pipe["compute"].project[name]
    if bug:
        assert TAIL in kernel, "the lowering changed: plant the bug elsewhere"
        kernel = kernel.replace(TAIL, "int32_t n = tile;   // every tile is a whole one")
    return f"The compute pass:\n\n```cpp title={name}\n{kernel.rstrip()}\n```\n"


@pytest.fixture
def client_settings(tmp_path):
    # a fresh reply cache for the scripted answers; emulator builds stay in the usual cache
    return load_settings().replace(llm_model="scripted", llm_max_rounds=2), ReplyCache(tmp_path / "llm")


def test_a_proposal_that_fails_on_the_emulator_is_incorrect_and_its_verdict_goes_back(client_settings):
    settings, cache = client_settings
    assert V1 != V0 and judge_dsl(TASK, V1, "leaky_relu.py")[1] == []      # the interpreter accepts the variant
    script = [compute_answer(V0),                                                   # lowering v0 (the session)
              f"Bigger tiles.\n\n```python\n{V1.rstrip()}\n```\n",                 # tuning round 1: v1
              compute_answer(V1, bug=True),                                         # lowering v1: wrong kernel
              "I have no further idea."]                                            # tuning round 2
    with FakeLLMServer(script) as srv:
        client = LLMClient(settings.replace(llm_base_url=srv.base_url), cache=cache)
        session = Session(TASK, V0, settings=settings, llm=client, llm_pass_names=("compute",))
        history = session.ask_faster(rounds=2)
        requests = [r.messages for r in srv.chat_requests]
    assert len(requests) == 4, "v1 must be lowered with the session's (LLM) compute pass"
    assert "TILE = 10240" in requests[2][1]["content"]                              # the compute request for v1
    v0, v1, v2 = history.variants
    assert v0.correct and v0.evaluation.verification.passed and v0.evaluation.kernel_us > 0
    assert not v1.correct and v1.evaluation.failed_at == "emulator"
    assert v1.evaluation.verification.kind == "error" and "gm-out-of-bounds" in v1.evaluation.problems[0]
    assert v1.evaluation.kernel_us is None and v1.evaluation.speedup is None        # no speed-up reported
    assert not v2.correct and v2.evaluation.failed_at == "answer"
    assert history.best is v0
    table = history.table()
    assert "| 0 | v0 **best** | expert | yes |" in table and "| 1 | v1 | llm | no (emulator) |  |  |" in table
    # the closing row counts the correct variants both ways (≥ 1 and > 1) and the ties
    s, u = v0.evaluation.speedup, history.uncertainty()
    assert (f"| | **1 correct** | | | | ≥ 1.0: {int(s >= 1)} / > 1.0: {int(s > 1)} / level: {int(abs(s - 1) <= u)} | |"
            == table.splitlines()[-1])
    # round 2 asked from v0 again, and told the model why v1 was rejected, in the emulator's words
    second = requests[3][1]["content"]
    assert "The current kernel (`v0`)" in second
    assert "- v1: incorrect" in second and "rejected at the emulator step" in second and "gm-out-of-bounds" in second
    # round 1 showed v0's timing table (the breakdown the cost model gives)
    assert "| MTE2 |" in requests[1][1]["content"]


def test_a_correct_proposal_is_verified_on_the_emulator_before_its_speedup_counts(client_settings):
    settings, cache = client_settings
    with FakeLLMServer([f"Bigger tiles.\n\n```python\n{V1.rstrip()}\n```\n"]) as srv:
        session = Session(TASK, V0, settings=settings, llm=LLMClient(settings.replace(llm_base_url=srv.base_url), cache=cache))
        history = session.ask_faster(rounds=1)
    v0, v1 = history.variants
    for v in (v0, v1):
        assert v.correct and v.evaluation.verification.passed, v.evaluation.brief()
        assert v.evaluation.verification.task == "leaky_relu" and v.evaluation.verification.size == "small"
        assert v.evaluation.kernel_us > 0 and v.evaluation.speedup > 0 and "| MTE2 |" in v.evaluation.breakdown
    assert v1.parent == 0 and "TILE = 10240" in v1.dsl
