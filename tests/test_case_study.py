"""The mHC case study notebook runs end to end from its recorded LLM replies, with an endpoint
configured and reachable, and makes zero requests to it (replay only)."""
import os
from pathlib import Path

from nbdev.test import test_nb as run_notebook   # renamed: pytest must not collect it

from _cache import share_builds
from ascendcraft.llm_server import FakeLLMServer

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "mhc_case_study.ipynb"


def test_case_study_replays_without_network(monkeypatch, tmp_path):
    with FakeLLMServer(["this endpoint must never be asked"], models=("scripted-expert",)) as srv:
        monkeypatch.setenv("ASCENDCRAFT_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(share_builds(tmp_path / "cache")))   # no replies but the recording
        monkeypatch.chdir(NOTEBOOK.parent)
        ok, _ = run_notebook(NOTEBOOK, skip_flags=[], force_flags=[])
        assert ok, "the case study failed (a stale recording shows as llm-cache-miss: rerun `python examples/mhc_case_study.py --record`)"
        assert srv.requests == []
