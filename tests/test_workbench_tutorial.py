"""The workbench tutorial (nbs/52_tutorial.ipynb) replays its LLM steps from the shipped recordings: zero requests.

The tutorial runs with an endpoint configured — a local FakeLLMServer that would answer — and replay-only
settings. Its LLM cells (ask for a fix, ask for a faster variant) assert on the answers' effects, so the
notebook only passes when the recorded replies in examples/llm_cache/ were found; the server must not have
been asked anything, not even for its model list.
"""
from pathlib import Path

import nbdev.test as nbt  # not `from nbdev.test import test_nb`: pytest would collect it
from nbdev.config import get_config

from ascendcraft.llm_server import Fail, FakeLLMServer
from ascendcraft.workbench import RECORDED_MODEL, RECORDINGS

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "nbs" / "52_tutorial.ipynb"


def test_tutorial_replays_the_recorded_llm_replies_without_any_request(monkeypatch):
    assert any(RECORDINGS.glob("??/*.json")), f"no recorded replies in {RECORDINGS}"
    with FakeLLMServer(lambda request: Fail(500, "the tutorial must not ask the endpoint"), models=None) as server:
        monkeypatch.setenv("ASCENDCRAFT_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("ASCENDCRAFT_LLM_MODEL", RECORDED_MODEL)
        monkeypatch.setenv("ASCENDCRAFT_LLM_REPLAY_ONLY", "true")
        cfg = get_config(path=ROOT)
        ok, seconds = nbt.test_nb(TUTORIAL, skip_flags=cfg.tst_flags.split(), basepath=cfg.config_path)
        requests = list(server.requests)
    assert ok, "the tutorial failed (its traceback is in the captured stderr)"
    assert requests == [], [f"{r.method} {r.path}" for r in requests]
    assert seconds < 120, f"the tutorial took {seconds:.0f} s"
