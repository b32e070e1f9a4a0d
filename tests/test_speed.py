"""Speed work (issue 17): caches and fast paths keep their results identical to the slow paths."""
import pickle

from ascendcraft.bench import eager_cost
from ascendcraft.config import load_settings
from ascendcraft.eager import eager_time
from ascendcraft.soc import load_soc
from ascendcraft.taskset import get_task


def test_eager_cost_is_cached_per_task_and_identical(tmp_path):
    "The second call reads the cached model; it equals a fresh eager_time at the full shapes."
    settings = load_settings().replace(cache_dir=str(tmp_path))
    soc, task = load_soc("Ascend910B2"), get_task("relu")
    first = eager_cost(task, soc, settings)
    files = list((tmp_path / "eager").rglob("*.pickle"))
    assert len(files) == 1
    fresh = eager_time(task.model("full", device="meta"), task.inputs("full", device="meta"), soc)
    again = eager_cost(task, soc, settings)
    assert again.total_us == first.total_us == fresh.total_us
    assert [o.name for o in again.ops] == [o.name for o in fresh.ops]
    # a corrupt cache entry is recomputed, not trusted
    files[0].write_bytes(b"not a pickle")
    assert eager_cost(task, soc, settings).total_us == fresh.total_us
    assert pickle.loads(files[0].read_bytes()).total_us == fresh.total_us


import numpy as np
import pytest
import torch

from ascendcraft import verify as V


def _cases():
    g = torch.Generator().manual_seed(0)
    ref = torch.randn(5, 13, generator=g)
    yield "pass", ref, ref + 1e-6
    yield "mismatch", ref, torch.where(torch.arange(65).reshape(5, 13) == 40, ref + 1, ref)
    yield "two-worst", ref, ref + torch.tensor([0.0, 0.5] * 32 + [0.5]).reshape(5, 13)
    yield "nan", ref, torch.where(torch.arange(65).reshape(5, 13) == 9, torch.tensor(float("nan")), ref)
    yield "constant", ref, torch.full_like(ref, 0.25)
    tiny = ref * 1e-6
    yield "blind-wrong", tiny, tiny * 3
    yield "blind-right", tiny, tiny.clone()
    yield "const-ref", torch.full((4, 9), 2.0), torch.full((4, 9), 2.0)
    inf = ref.clone(); inf[2, 3] = float("inf")
    yield "inf-equal", inf, inf.clone()
    other = inf.clone(); other[2, 3] = 1.0
    yield "inf-missed", inf, other
    yield "half", ref.half(), (ref + 1e-3).half()
    yield "bf16", ref.bfloat16(), (ref * 1.5).bfloat16()
    yield "scalar", torch.tensor(3.0), torch.tensor(3.5)
    nan_ref = ref.clone(); nan_ref[1, 1] = float("nan")
    yield "ref-nan", nan_ref, ref.clone()                   # a NaN in the reference only: its error is NaN
    yield "nans-in-chunks", ref, torch.where(torch.arange(65).reshape(5, 13) % 20 == 3, torch.tensor(float("nan")), ref)
    zeros = ref.clone(); zeros[:, ::3] = 0
    yield "ref-zeros", zeros, zeros + 1e-5                   # the relative error skips the zeros of the reference
    both = ref.clone(); both[0, 0], both[4, 12] = -float("inf"), float("inf")
    yield "infinities-equal", both, both.clone()
    yield "infinity-missed", both, torch.where(torch.isinf(both), torch.tensor(3e38), both)


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_chunked_comparison_matches_the_whole_tensor_one(monkeypatch, chunk):
    "Every verdict, error figure and message of the chunked comparison equals the float64 whole-tensor comparison."
    monkeypatch.setattr(V, "COMPARE_CHUNK", chunk)
    for name, ref, out in _cases():
        tol = V.Tolerance(1e-4, 1e-4)
        new = V.compare_output(name, ref, out, tol)
        check = V.OutputCheck(name, "pass", tuple(ref.shape), str(ref.dtype).removeprefix("torch."), tol.atol, tol.rtol)
        old = V._compare_float(check, ref.double(), out.double())
        assert (new.kind, new.message, new.blind, new.scale_passed, new.ref_constant) == \
               (old.kind, old.message, old.blind, old.scale_passed, old.ref_constant), name
        for a, b in ((new.max_abs_err, old.max_abs_err), (new.max_rel_err, old.max_rel_err)):
            assert (a is None and b is None) or a == pytest.approx(b, rel=1e-12, nan_ok=True), name
    kinds = {n: V.compare_output(n, r, o, V.Tolerance(1e-4, 1e-4)).kind for n, r, o in _cases()}
    assert kinds["mismatch"] == "mismatch" and kinds["nan"] == "nan" and kinds["constant"] == "constant-output"
    assert kinds["blind-wrong"] == "mismatch" and kinds["pass"] == kinds["blind-right"] == kinds["inf-equal"] == "pass"


# --- the verification size: one function decides, reports say what was chosen -----------------------------------
import subprocess
import sys

from ascendcraft.bench import (FULL_ELEMENTS_PER_S, FULL_RATE_MARGIN, FULL_RATES, SIZES, VERIFY_OVERHEAD_MB, full_elements_per_s,
                               full_shape_load, machine_memory_mb, memory_budget_mb, verification_memory, verification_size)
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.report import BenchReport, TaskResult


def test_auto_size_is_full_only_within_both_budgets():
    "sgd's full shapes (4 tensors of 4 M floats) pass generous budgets and fail a tight memory or time budget."
    task = get_task("sgd")
    nbytes, elements = full_shape_load(task)
    assert nbytes == 4 * elements and elements >= 4 * 4_000_000
    roomy = load_settings().replace(verify_memory_mb=(10 * nbytes >> 20) + VERIFY_OVERHEAD_MB, verify_seconds=1e6)
    assert verification_size(task, "auto", roomy) == "full"
    assert verification_size(task, "auto", roomy.replace(verify_memory_mb=1)) == "small"
    assert verification_size(task, "auto", roomy.replace(verify_seconds=0.01)) == "small"
    assert verification_size(task, "small", roomy) == "small"             # an explicit size is kept
    assert verification_size(get_task("relu"), "full", roomy.replace(verify_memory_mb=1)) == "full"
    # 0 = derived from this machine's memory (less a margin), against the verification's estimated peak
    assert machine_memory_mb() > 0
    relu = roomy.replace(verify_memory_mb=0)
    expected = "full" if memory_budget_mb(relu) * 2**20 >= verification_memory(get_task("relu"), relu).peak else "small"
    assert verification_size(get_task("relu"), "auto", relu) == expected
    assert SIZES == ("auto", "small", "full")


def test_the_time_rule_uses_each_kinds_measured_rate():
    """A task of a measured kind is estimated at its kind's rate less the margin, others at the assumed rate; the time
    budget then decides at that rate (layer_norm, 537 M elements a set, at the normalization rate). The loss kind's rate
    is its slower measured task's (hinge_loss), taken once its verification held no more than its estimate (round 19)."""
    norm, relu, triplet = get_task("layer_norm"), get_task("relu"), get_task("triplet_margin_loss")
    assert norm.category in FULL_RATES and FULL_RATES[norm.category][0] == "layer_norm"
    assert full_elements_per_s(norm) == FULL_RATES["normalization"][1] * FULL_RATE_MARGIN
    assert relu.category not in FULL_RATES and full_elements_per_s(relu) == FULL_ELEMENTS_PER_S
    assert FULL_RATES[triplet.category][0] == "hinge_loss" and full_elements_per_s(triplet) == FULL_RATES["loss"][1] * FULL_RATE_MARGIN
    roomy = load_settings().replace(verify_memory_mb=1 << 20, trials=5)
    seconds = verification_memory(norm, roomy).elements * 10 / full_elements_per_s(norm)
    assert verification_size(norm, "auto", roomy.replace(verify_seconds=seconds * 1.01)) == "full"
    assert verification_size(norm, "auto", roomy.replace(verify_seconds=seconds * 0.99)) == "small"


def _result(task, size):
    return TaskResult(task, "activation", "ok", compiled=True, correct=True, size=size)


def test_a_report_of_an_auto_run_names_each_tasks_size():
    "An auto run mixes sizes (and says how many were full); runs at one size still refuse a mix."
    rep = BenchReport([_result("relu", "small"), _result("sgd", "full"), _result("adam", "full")], run={"size": "auto"})
    assert rep.size == "auto"
    text = rep.markdown()
    assert "full shapes for 2 of 3 task(s)" in text
    assert "| sgd | activation | expert | full | ok |" in text and "| relu | activation | expert | small | ok |" in text
    assert [row["verified_at"] for row in rep.timing_rows()] == ["small", "full", "full"]
    assert "verified_at" in rep.timing_csv().splitlines()[0]
    with pytest.raises(AscendCraftError, match="mix sizes"):
        BenchReport([_result("relu", "small"), _result("sgd", "full")], run={"size": "small"})


def test_runtime_build_reports_each_file_as_it_finishes(tmp_path):
    "The runtime build's wait yields compilers in the order they finish and kills the rest at the deadline."
    from ascendcraft.emu import _expected_runtime_seconds, _in_finish_order
    slow, fast = (subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({t})"]) for t in (1.0, 0.1))
    order = [name for name, _ in _in_finish_order(["slow", "fast"], [slow, fast], timeout=30)]
    assert order == ["fast", "slow"]
    hang = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with pytest.raises(subprocess.TimeoutExpired):
        list(_in_finish_order(["hang"], [hang], timeout=0.3))
    assert hang.wait(timeout=10) != 0                                        # killed, not left running
    assert _expected_runtime_seconds(tmp_path) > 0                            # no record yet: the CPU estimate
    (tmp_path / "runtime-build-seconds.txt").write_text("12.5\n")
    assert _expected_runtime_seconds(tmp_path) == 12.5


def test_runtime_units_hold_every_source_once_with_the_cold_ones_apart(tmp_path):
    "The runtime build compiles each source in exactly one unit: hot files split by size, the cold ones alone at -O1."
    from ascendcraft.emu import RUNTIME_COLD_SOURCES, RUNTIME_HOT_UNITS, runtime_sources, runtime_units
    real = runtime_sources()
    units = runtime_units(real)
    assert sorted(s for _, files, _ in units for s in files) == real             # each file once, none left out
    assert len(units) == RUNTIME_HOT_UNITS + 1 and len({name for name, _, _ in units}) == len(units)
    assert [cold for *_, cold in units] == [False] * RUNTIME_HOT_UNITS + [True]
    assert {s.name for s in units[-1][1]} == set(RUNTIME_COLD_SOURCES)
    # a file added later goes to the lighter hot unit (largest first, each to the lighter one)
    sizes = {"a.cpp": 900, "b.cpp": 500, "c.cpp": 300, "new.cpp": 50, RUNTIME_COLD_SOURCES[0]: 400}
    for name, n in sizes.items(): (tmp_path / name).write_bytes(b"x" * n)
    units = runtime_units(sorted(tmp_path.glob("*.cpp")))
    assert [[s.name for s in files] for _, files, _ in units] == [["a.cpp"], ["b.cpp", "c.cpp", "new.cpp"],
                                                                  [RUNTIME_COLD_SOURCES[0]]]


def test_a_run_reports_the_kernel_process_cpu_time():
    "Run.cpu_seconds is the kernel process's own user + system time (what bench_speed.py compares on a busy machine)."
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "examples" / "benchmarks"))
    from bench_speed import RELU
    from ascendcraft.emu import GM, Scalar, build, run
    b = build({"kernel.cpp": RELU})
    x = np.arange(-4096, 4096, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", None, "out", shape=x.shape, dtype=np.float32), Scalar(x.size), Scalar(1024)], block_dim=8)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], np.maximum(x, 0))
    assert isinstance(r.cpu_seconds, float) and 0 < r.cpu_seconds <= r.seconds * 2 + 0.05


@pytest.mark.parametrize("chunk", [1, 4, 1 << 20])
def test_chunked_integer_comparison_counts_every_difference(monkeypatch, chunk):
    "Exact comparisons of integer and bool outputs count the same differences and the same worst error in chunks."
    monkeypatch.setattr(V, "COMPARE_CHUNK", chunk)
    ref = torch.arange(-50, 50, dtype=torch.int64).reshape(10, 10)
    out = ref.clone(); out[3, 4] += 7; out[9, 9] -= 100
    check = V.compare_output("i", ref, out, V.Tolerance(1e-4, 1e-4))
    assert (check.kind, check.max_abs_err) == ("mismatch", 100.0)
    assert check.message == "2 of 100 elements differ (exact comparison)"
    big = torch.tensor([2 ** 60, 5, -(2 ** 62)])               # values float64 cannot tell apart still differ
    check = V.compare_output("i", big, big + torch.tensor([1, 0, 1]), V.Tolerance(0, 0))
    assert (check.kind, check.message) == ("mismatch", "2 of 3 elements differ (exact comparison)")
    flags = torch.tensor([True, False] * 5)
    assert V.compare_output("b", flags, flags.clone(), V.Tolerance(0, 0)).passed
    assert V.compare_output("b", flags, ~flags, V.Tolerance(0, 0)).message == "10 of 10 elements differ (exact comparison)"


@pytest.mark.parametrize("pidfd", [True, False])
def test_sandbox_wait_returns_when_the_process_ends_and_kills_it_at_the_wall(monkeypatch, pidfd):
    import subprocess
    from ascendcraft import sandbox
    if not pidfd: monkeypatch.delattr(sandbox.os, "pidfd_open", raising=False)   # Popen's own polling
    quick = subprocess.Popen(["/bin/sh", "-c", "exit 7"], start_new_session=True)
    assert sandbox.wait(quick, 30) is False and quick.returncode == 7
    slow = subprocess.Popen(["/bin/sleep", "30"], start_new_session=True)
    assert sandbox.wait(slow, 0.2) is True and slow.returncode is not None and slow.returncode < 0


def test_the_eager_cache_key_holds_the_code_the_model_runs_not_every_module():
    "A commit elsewhere in AscendCraft keeps the eager cache warm; the eager model's own modules (and their imports) key it."
    from ascendcraft.bench import code_hash, imported_modules
    used = imported_modules("eager", "taskset")
    assert {"eager", "taskset", "soc", "config", "diagnostics", "shapes"} <= used
    assert not {"bench", "cli", "emu", "cost", "verify", "workbench"} & used
    assert code_hash("eager", "taskset") != code_hash() and code_hash("eager") != code_hash("eager", "taskset")
    assert code_hash("eager", "taskset") == code_hash("taskset", "eager")


def test_a_full_shape_task_traces_its_full_shapes_once(tmp_path, monkeypatch):
    "The trace that checks a full-shape verification's executed work is the timing stage's trace (unless too large to keep)."
    from pathlib import Path
    from ascendcraft import bench, launch
    from ascendcraft.bench import plan, run_task
    from ascendcraft.taskset import registry
    calls = []
    def counted(original):
        def trace_kernel(*a, **k):
            calls.append(1)
            return original(*a, **k)
        return trace_kernel
    monkeypatch.setattr(launch, "trace_kernel", counted(launch.trace_kernel))    # the judge's (imported when it runs)
    monkeypatch.setattr(bench, "trace_kernel", counted(bench.trace_kernel))      # the timing stage's
    kernels = Path(__file__).resolve().parents[1] / "examples"
    [spec] = plan(list(registry(tasks=["sgd"])), kernels, tmp_path / "out", size="full", timing=True, source="expert",
                  settings=load_settings().replace(trials=1), task_timeout=600)
    result = run_task(spec)
    assert result.correct and result.timing and result.size == "full", result.message
    assert len(calls) == 1


def test_only_traces_within_the_size_limit_are_kept(monkeypatch):
    "A trace larger than KEPT_TRACE_BYTES is not held through the size checks: the timing stage traces again."
    from types import SimpleNamespace
    from ascendcraft import bench
    monkeypatch.setattr(bench, "KEPT_TRACE_BYTES", 1000)
    kept = bench.KeptTraces()
    kept["full"] = SimpleNamespace(records=np.zeros(1000, np.uint8))
    kept["small"] = SimpleNamespace(records=np.zeros(10, np.uint8), stored=np.zeros(1001, np.uint8))   # the stored form counts
    assert list(kept) == ["full"]
