"""Fast_p with ties: the strict count (> p) beside the paper's ≥ p, a 'level' column for speed-ups within the
timing's uncertainty of 1, and that uncertainty on every speed-up (report.py)."""
import json

import pytest

from ascendcraft.report import BenchReport, TaskResult, is_level, metrics_of, timing_uncertainty
from ascendcraft.soc import load_soc


def result(task: str, speedup: float | None, correct: bool = True, kind: str = "modelled") -> TaskResult:
    timing = None if speedup is None else {"kind": kind, "soc": "Ascend910B2", "speedup": speedup, "call_us": 10.0,
                                           "eager_us": 10.0 * speedup, "kernel_us": 5.0}
    return TaskResult(task=task, category="activation", status="ok" if correct else "incorrect", compiled=True,
                      correct=correct, timing=timing)


RESULTS = [result("a", 1.0), result("b", 1.0), result("c", 1.1), result("d", 0.9), result("e", 2.5),
           result("f", 0.5), result("g", 3.0, correct=False), result("h", None)]


def test_strict_and_level_counts():
    m = metrics_of("all", RESULTS, ps=(0.8, 1.0), ge=True, uncertainty=0.2)
    assert m.fast == {0.8: 5, 1.0: 4}                  # a, b (ties at exactly 1.00), c, e; d also >= 0.8
    assert m.strict == {0.8: 5, 1.0: 2}                # only c and e are strictly faster than eager
    assert m.level == 4                                # a, b, c, d are within ±20% of 1; g is incorrect
    assert metrics_of("all", RESULTS, ps=(1.0,), uncertainty=0.0).level == 2
    assert not is_level(RESULTS[6], 10.0)              # an incorrect kernel is never a tie


def test_tables_show_both_conventions_the_level_band_and_the_uncertainty(tmp_path):
    rep = BenchReport(RESULTS, ps=(0.8, 1.0), uncertainty=0.2)
    table = rep.metrics_table()
    assert "Fast_1.0 (≥ / > 1.0)" in table and "level (±20%)" in table
    assert "| 50.0% (4) / 2 |" in table                # ≥ 1.0: 4 of 8; > 1.0: 2
    assert "| 50.0% (4) |" in table                    # level
    assert "1.00× ±20% level" in rep.task_table() and "2.50× ±20% |" in rep.task_table()
    rows = {r["task"]: r for r in rep.timing_rows()}
    assert rows["e"]["speedup_low"] == pytest.approx(2.5 / 1.2) and rows["e"]["speedup_high"] == pytest.approx(3.0)
    assert rows["a"]["level"] is True and rows["e"]["level"] is False and rows["h"]["level"] is None
    assert "±20%" in rep.timing_table() and "ties" in rep.convention
    rep.write(tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    overall = next(m for m in summary["metrics"] if m["group"] == "all")
    assert overall["fast_strict"]["1.0"]["count"] == 2 and overall["level"]["count"] == 4
    assert summary["fast_p"]["level_uncertainty"] == 0.2
    assert "speedup_low" in (tmp_path / "tasks.csv").read_text().splitlines()[0]


def test_the_uncertainty_comes_from_the_calibrated_profile():
    # modelled timings carry the profile's calibrated uncertainty; measured ones none of it
    assert BenchReport(RESULTS).uncertainty == load_soc("Ascend910B2").speedup_uncertainty > 0
    assert timing_uncertainty("measured", "Ascend910B2") == 0.0
    measured = [result(t.task, t.speedup, t.correct, "measured") for t in RESULTS]
    assert BenchReport(measured).uncertainty == 0.0


def test_the_timing_label_names_the_l2_state_the_calls_started_with():
    warm = [result("a", 2.0), result("b", 3.0)]
    for r in warm: r.timing["l2_state"] = "warm"
    assert "L2 at the start of each call: warm (repeated calls with no flush" in BenchReport(warm).timing_label
    warm[1].timing["l2_state"] = "cold"
    assert "L2 at the start of each call: cold, warm)" in BenchReport(warm).timing_label
    assert "L2" not in BenchReport([result("a", 2.0)]).timing_label       # results from before the state was recorded
