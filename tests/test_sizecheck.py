"""Value checks where a kernel could hide (ascendcraft.sizecheck): the condition finder on DSL and C++ snippets,
threshold shapes on both sides, and an honest expert kernel through the harness with its size report.
The hostile kernels (tests/cheats/size_threshold, clamp_output) run in tests/test_bench_cheats.py."""
import json
import shutil
from pathlib import Path

import pytest

from ascendcraft import sizecheck
from ascendcraft.bench import Progress, execute, plan
from ascendcraft.config import load_settings
from ascendcraft.honesty import _TOKEN
from ascendcraft.taskset import registry

ROOT = Path(__file__).resolve().parent


def toks(code: str):
    return [(m.group(0), "k.cpp", n) for n, line in enumerate(code.splitlines(), 1) for m in _TOKEN.finditer(line)]


def test_cpp_conditions_find_thresholds_and_skip_loops_and_templates():
    code = """if (n > 16777216) { return; }
if (N >= (1 << 24)) {}
if ((1 << 20) < total) {}
TQue<TPosition::VECIN, 1> q; Foo<32> f;
for (int32_t i = 0; i < n; i++) {}
if (tileNum == 64u) {}
if (N > 1610612736) return Refused(reason, "tiling field N", N, "exceeds", 1610612736, "why");
if (blockCount > 65535) return "the launch needs 1 to 65535 blocks";
if (N > 100000) return;"""
    got = [(c.quantity, c.op, c.value, c.where, c.guard) for c in sizecheck.cpp_conditions(toks(code))]
    assert got == [("n", ">", 16777216, "k.cpp:1", False), ("N", ">=", 1 << 24, "k.cpp:2", False),
                   ("total", ">", 1 << 20, "k.cpp:3", False), ("tileNum", "==", 64, "k.cpp:6", False),
                   ("N", ">", 1610612736, "k.cpp:7", True), ("blockCount", ">", 65535, "k.cpp:8", True),
                   ("N", ">", 100000, "k.cpp:9", False)]      # a silent early return is no refusal


def test_dsl_conditions_resolve_module_constants():
    src = "LIMIT = 1 << 24\nTILE = 8192\ndef k(N, n):\n    if N > LIMIT: pass\n    if n < 4: pass\n    if 2**20 <= N * 2: pass\n"
    got = [(c.quantity, c.value, c.where) for c in sizecheck.dsl_conditions(src, "k.py")]
    assert got == [("N", 1 << 24, "k.py:4"), ("N", 1 << 20, "k.py:6")]


def test_project_conditions_expand_macros():
    src = {"k.cpp": '#include <cstdint>\n#define BIG (1 << 24)\nint f(int32_t n) { if (n > BIG) return 0; return 1; }\n'}
    got = [(c.quantity, c.value) for c in sizecheck.project_conditions(src, load_settings())]
    assert got == [("n", 1 << 24)]


def test_threshold_shapes_straddle_and_budget():
    relu, = registry(tasks=["relu"])
    shapes, notes = sizecheck.threshold_shapes(relu, [200_000, 100_000_000, 10**12], budget=1 << 21)
    by = {(s.threshold, s.side): s for s in shapes}
    assert by[(200_000, "below")].quantity <= 200_000 < by[(200_000, "above")].quantity
    assert by[(200_000, "above")].quantity < 200_000 * 1.01 and not by[(200_000, "above")].checked
    big = by[(100_000_000, "above")]
    assert big.quantity > 100_000_000 and big.checked.startswith("not value-checked")
    assert any("10**12" in n or "1,000,000,000,000" in n for n in notes)


def test_magnitude_sets_scale_the_inputs():
    relu, = registry(tasks=["relu"])
    sets = sizecheck.magnitude_sets(relu, "small", 7)
    base = next(iter(relu.input_sets("small", 1, 7, signed=relu.has_signed)))
    assert [s for s, _ in sets] == [1e3, 1e-3]
    assert float(sets[0][1][0].abs().max()) == pytest.approx(1e3 * float(base[0].abs().max()))


def test_honest_relu_passes_with_size_report(tmp_path):
    folder = tmp_path / "kernels" / "activation"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "cheats" / "relu.py", folder / "relu.py")
    spec, = plan(list(registry(tasks=["relu"])), tmp_path / "kernels", tmp_path / "out", size="small", timing=False,
                 source="expert", settings=load_settings().replace(trials=1), task_timeout=300)
    result, = execute([spec], jobs=1, progress=Progress(1, enabled=False))
    assert result.status == "ok" and result.correct, result.message
    report = result.verdict["sizecheck"]
    assert [m["kind"] for m in report["magnitudes"]] == ["pass", "pass"]
    assert "magnitude sets: x1000 pass, x0.001 pass" in result.message
    assert report["conditions"] and all("refusal guard" in c for c in report["conditions"])   # the host's envelope
    assert not report["review"] and "size-unchecked" not in result.flags
    assert json.loads((Path(spec.folder) / "sizecheck.json").read_text())["failure"] is None


@pytest.mark.parametrize("task_id, growth", [("relu", 1e3), ("sigmoid", 1.0), ("matmul_with_small_k_dimension", 1e6)])
def test_output_growth_is_the_operators_whatever_the_size(task_id, growth):
    """The magnitude checks measure the growth at GROWTH_SIZE (the small shapes) also when they run at full shapes: the
    growth a linear, a saturating and a quadratic operator show is the same at a size 40 times the small one."""
    task, = registry(tasks=[task_id])
    small = sizecheck.output_growth(task, sizecheck.GROWTH_SIZE, 7, 1e3)
    larger = sizecheck.output_growth(task, {"scale": 1 / 16}, 7, 1e3)
    assert small == pytest.approx(growth, rel=0.05) and larger == pytest.approx(small, rel=0.05)


def test_magnitude_checks_at_full_size_measure_the_growth_at_the_small_size(monkeypatch):
    "run_checks at a size other than the small one runs its trials at that size and asks output_growth at GROWTH_SIZE."
    relu, = registry(tasks=["relu"])
    asked, trials = [], []
    monkeypatch.setattr(sizecheck, "output_growth", lambda task, size, seed, scale: asked.append(size) or scale)
    import ascendcraft.verify as verify

    def fake_trial(task, net, candidate, inputs, record, size, settings, poison, history, redraw=None):
        trials.append((size, tuple(inputs[0].shape)))
        return record, []
    monkeypatch.setattr(verify, "run_trial", fake_trial)
    report = sizecheck.run_checks(relu, lambda size: (lambda inputs: None), size={"scale": 1 / 16}, conditions=[],
                                  settings=load_settings(), poison=b"\xff")
    assert asked == [sizecheck.GROWTH_SIZE] * 2 and [m["scale"] for m in report.magnitudes] == [1e3, 1e-3]
    big = tuple(relu.input_specs({"scale": 1 / 16})[0].shape)
    assert trials == [({"scale": 1 / 16}, big)] * 2
