"""`ascendcraft tune` end to end: the command line, a scripted OpenAI-compatible server on 127.0.0.1, the session's
tuning rounds (every variant checked, lowered, verified on the CPU emulation and timed), the printed history, the
best variant, the exit status and the `--out` export."""
import re
from pathlib import Path

import pytest

from _cache import share_builds
from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.generate import examples_root
from ascendcraft.llm_server import FakeLLMServer

EXPERT = (examples_root() / "activation" / "leaky_relu.py").read_text()
BIGGER_TILES = re.sub(r"^TILE = 8192 .*$", "TILE = 10240  # fewer, larger tiles", EXPERT, flags=re.M)
WRONG_SLOPE = EXPERT.replace("negative_slope: float = 0.01", "negative_slope: float = 0.1")
# the speed-up column says "level" for a tie within the model's stated uncertainty (issue 16)
ROW = re.compile(r"^\| (\d+) \| (v\d+)( \*\*best\*\*)? \| (\w+) \| (yes|no[^|]*) \| ([\d,.]*) \| ([\d.]*x?)(?: level)? \| ([^|]*) \|$", re.M)


def fenced(note: str, code: str) -> str:
    return f"{note}\n\n```python\n{code.rstrip()}\n```\n"


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    "A cache folder of the test's own (no earlier LLM replies), sharing the emulator's build cache of this machine."
    cache = share_builds(tmp_path / "cache")       # content-addressed builds (and the key of their seals): safe to share
    monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(cache))
    return cache


def test_tune_prints_the_history_and_the_best_variant_and_exports_the_session(fresh_cache, tmp_path, capsys):
    assert BIGGER_TILES != EXPERT and WRONG_SLOPE != EXPERT
    out = tmp_path / "run"
    script = [fenced("Bigger tiles: fewer DMA and vector instructions.", BIGGER_TILES),
              fenced("A steeper slope.", WRONG_SLOPE)]
    with FakeLLMServer(script) as srv:
        status = main(["tune", "leaky_relu", "--base-url", srv.base_url, "--model", "scripted", "--rounds", "2",
                       "--out", str(out)])
        asked = len(srv.chat_requests)
        second = srv.chat_requests[1].messages[1]["content"]
    printed = capsys.readouterr().out
    assert status == 0 and asked == 2
    rows = {int(m[0]): m for m in ROW.findall(printed)}
    assert sorted(rows) == [0, 1, 2], printed
    assert [(rows[i][1], rows[i][3], rows[i][4]) for i in (0, 1, 2)] == [
        ("v0", "expert", "yes"), ("v1", "llm", "yes"), ("v2", "llm", "no (dsl)")]
    assert rows[2][5:7] == ("", "")                           # a wrong variant gets no time and no speed-up
    # the best line names the row marked best, with its speed-up, and no correct row is faster
    line = re.search(r"^best: (v\d+) — ([\d.]+x) \(modelled on Ascend910B2\)$", printed, re.M)
    assert line, printed
    best = line[1]
    assert [rows[i][1] for i in rows if rows[i][2]] == [best]
    by_name = {rows[i][1]: rows[i] for i in rows}
    times = {name: float(row[5].replace(",", "")) for name, row in by_name.items() if row[4] == "yes"}
    assert by_name[best][6] == line[2] and times[best] == min(times.values())
    # round 2 started from the best variant so far and showed the history
    assert f"The current kernel (`{best}`)" in second and "- v1: correct" in second
    # --out: the session, every variant's DSL and the history table as printed
    assert f"session written to {out}" in printed
    variants = out / "variants"
    assert (variants / "00_v0.py").read_text() == EXPERT
    assert (variants / "01_v1.py").read_text().strip() == BIGGER_TILES.strip()
    assert (variants / "02_v2.py").read_text().strip() == WRONG_SLOPE.strip()
    assert (variants / "history.md").read_text().strip() in printed
    assert '"passed": true' in (out / "verdict.json").read_text()       # v0's emulator verdict
    assert (out / "timing.md").read_text().startswith("kernel ") and (out / "timeline.svg").read_text().startswith("<svg")
    assert sorted(p.name for p in (out / "pipeline").iterdir())


def test_tune_fails_with_status_1_when_no_variant_is_correct(fresh_cache, tmp_path, capsys):
    broken = tmp_path / "leaky_relu.py"
    broken.write_text(EXPERT.replace("leaky_relu(yout, xin, slope, n)", "leaky_relu(yout, xin, n)"))
    with FakeLLMServer(["must not be asked"]) as srv:
        status = main(["tune", "leaky_relu", "--dsl", str(broken), "--base-url", srv.base_url, "--model", "scripted",
                       "--rounds", "1"])
        asked = len(srv.chat_requests)
    printed = capsys.readouterr().out
    assert (status, asked) == (1, 0)                           # nothing to tune from: the model is never asked
    assert re.search(r"^\| 0 \| v0 \| expert \| no \(dsl\) \|", printed, re.M), printed
    assert "\nbest:" not in printed
