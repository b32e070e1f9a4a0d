"""Every expert kernel in examples/ through the real benchmark harness: the 52 tasks of the seven MultiKernelBench categories of the AscendCraft paper and the 2 mHC tasks.

The checks of the suite's parts: each `tests/test_bench_suite_<part>.py` sets `PART` (a key of
`tests/_bench_suite.py`'s `PARTS`, a few categories) and imports these, which then check that part's tasks; the parts
together are the whole registry, so that the two workers of `pytest -n 2 --dist loadfile` share the run.

Per part, one `run_bench` over its categories, two task processes at a time — what `ascendcraft bench --jobs 2` does, with
MultiKernelBench's protocol pinned whatever the environment sets: lower through the four passes compiling every
snapshot, the honesty scan, the protocol (seed 1024, 5 input sets, allclose atol = rtol = 1e-4, identical shapes and
dtypes) plus 5 signed input sets, every call run under two poison patterns, the blind-output guard, then the trace at
the full benchmark shapes with its exact output coverage, the cost model and the modelled eager baseline.

The run folder lives in the cache (`<cache_dir>/bench/ci-expert-small-<part>`), so an unchanged tree redoes nothing: the
harness reuses a task's result only when its fingerprint matches — the hash of AscendCraft's sources, the emulator
runtime, the DSL, the task file, the verification settings, both poison patterns and the SoC profile (the harness's
own resume, tested in test_bench_resume.py). Any change to any of those reruns the task. In a serial run of more than these
files, tests/conftest.py starts the parts' runs in the background when the tests are collected (tests/_bench_suite.py)
and moves these files' tests to the end: the fixture below then waits for its part and resumes its results, or runs
whatever the background run did not finish.

Issue 6 also asks memory-bound kernels to land within 1.3x of their bytes / bandwidth bound, or to be named with the
reason; the named ones are strict xfails below, and their reason is checked too.
"""
import json
import math
import time
from pathlib import Path

import pytest

from ascendcraft.bench import POISONS, is_done, plan
from ascendcraft.config import load_settings
from ascendcraft.taskset import DEFAULT_CATEGORIES, PAPER_COUNTS, registry

from _bench_suite import EXAMPLES, PARTS, PROTOCOL, out_folder, part_file, run_suite

# `test_bound_exceptions_are_fixed_overhead` is imported by name by the parts that hold a named exception
__all__ = ["suite", "pytest_generate_tests", "test_the_part_is_complete", "test_task_compiles_and_passes_every_check",
           "test_task_has_its_full_shape_timing", "test_per_task_table_is_written",
           "test_memory_bound_kernel_is_near_its_bandwidth_bound"]
STEPS = ["dsl", "host", "init", "compute", "align"]        # the DSL check, then the four lowering passes
SUITE = registry()
BOUND_FACTOR = 1.3                                          # issue 6: memory-bound kernels within 1.3x of bytes / bandwidth
# Memory-bound kernels above the factor, and why (issue 6: "or the closing note names those that do not and why").
# Since the warm L2 default (issue 16: MultiKernelBench times repeated calls on the same inputs), the optimizers'
# 20-67 MB footprints are served from L2: their bound is bytes / L2 bandwidth, 12-14 us, so the fixed launch and
# start-up (5-6 us) alone put them past the factor.
_FITS_L2 = ("its footprint fits in L2 under the warm default: bound by L2 bandwidth at 12-14 us, the 5-6 us launch and "
            "start-up alone exceed 1.3x")
BOUND_EXCEPTIONS: dict[str, str] = {f"optimizer/{t}": _FITS_L2 for t in ("adagrad", "lamb", "rmsprop", "sgd")}


def part_tasks(part: str) -> list:
    "The part's tasks, in the registry's order (what `registry(PARTS[part])`, the part's run, holds)."
    return [t for t in SUITE if t.category in PARTS[part]]


def specs_of(tasks, settings, out: Path) -> list:
    "The harness's plan for the part's tasks (with every task's fingerprint)."
    return plan(list(tasks), EXAMPLES, out, size="small", timing=True, source="expert", settings=settings, task_timeout=900)


def bound_cases(keys):
    for key in keys:
        why = BOUND_EXCEPTIONS.get(key)
        yield pytest.param(key, marks=pytest.mark.xfail(strict=True, reason=why)) if why else key


def pytest_generate_tests(metafunc):
    "Each per-task test runs for every task of the importing file's part (its `PART`)."
    if "key" not in metafunc.fixturenames: return
    keys = [t.key for t in part_tasks(metafunc.module.PART)]
    name = metafunc.function.__name__
    if name == "test_memory_bound_kernel_is_near_its_bandwidth_bound": metafunc.parametrize("key", list(bound_cases(keys)))
    elif name == "test_bound_exceptions_are_fixed_overhead": metafunc.parametrize("key", sorted(set(BOUND_EXCEPTIONS) & set(keys)))
    else: metafunc.parametrize("key", keys)


@pytest.fixture(scope="module")
def suite(request):
    part = request.module.PART
    tasks = part_tasks(part)
    settings = load_settings().replace(**PROTOCOL)
    out = out_folder(settings, part)
    out.mkdir(parents=True, exist_ok=True)
    specs = {f"{s.category}/{s.task}": s for s in specs_of(tasks, settings, out)}   # the plan run_bench makes next
    todo = sum(1 for s in specs.values() if not is_done(s))
    t0 = time.perf_counter()
    rep = run_suite(part, settings)     # waits for the head start (tests/conftest.py) if it still runs, then resumes
    seconds = time.perf_counter() - t0
    print(f"\nbench suite, {part}: {len(rep.results)} tasks ({todo} not done when this fixture began) in {seconds:.1f} s ({out})")
    return rep, {r.key: r for r in rep.results}, specs, settings, out


def test_the_part_is_complete(suite, request):
    rep, results, *_ = suite
    part = request.module.PART
    keys = [t.key for t in part_tasks(part)]
    assert sorted(results) == sorted(keys)
    counts = {}
    for key in results: counts[key.split("/")[0]] = counts.get(key.split("/")[0], 0) + 1
    everything = {**PAPER_COUNTS, "mhc": 2}
    assert counts == {c: everything[c] for c in PARTS[part]}
    # the parts together are the whole suite: each category in exactly one part, and each part has its test file
    assert sorted(c for cats in PARTS.values() for c in cats) == sorted(DEFAULT_CATEGORIES) == sorted(everything)
    assert sorted(t.key for p in PARTS for t in part_tasks(p)) == sorted(t.key for t in SUITE)
    here = Path(request.module.__file__).parent
    assert all((here / part_file(p)).is_file() for p in PARTS) and Path(request.module.__file__).name == part_file(part)
    # a part holding a named bandwidth exception checks its reason too
    assert hasattr(request.module, "test_bound_exceptions_are_fixed_overhead") == bool(set(BOUND_EXCEPTIONS) & set(keys))
    for key in keys:
        category, task = key.split("/")
        assert (EXAMPLES / category / f"{task}.py").is_file(), f"no expert kernel for {key}"
    assert len(set(POISONS)) == 2                       # every call runs under two different poison patterns


def test_task_compiles_and_passes_every_check(suite, key):
    rep, results, specs, settings, out = suite
    r, spec, task = results[key], specs[key], SUITE.get(key)
    folder = Path(spec.folder)
    assert r.status == "ok", f"{key}: {r.status} ({r.detail}): {r.message} — log {folder / r.log}"
    assert r.compiled is True and r.correct is True and (r.source, r.size) == ("expert", "small")
    assert r.fingerprint == spec.fingerprint            # produced by this code, kernel, task, settings and poisons
    steps = json.loads((folder / "pipeline" / "pipeline.json").read_text())["steps"]
    assert [(s["name"], s["status"]) for s in steps] == [(name, "ok") for name in STEPS]
    assert (folder / "honesty.txt").read_text() == "no findings\n"

    verdict = json.loads((folder / "verdict.json").read_text())
    n = task.trial_count(PROTOCOL["trials"])
    assert verdict["passed"] and verdict["mkb_passed"] and verdict["kind"] in ("pass", "weak")
    settings_used = dict(verdict["settings"])
    shapes = settings_used.pop("shapes")
    assert settings_used == {**PROTOCOL, "trials": n, "signed": task.has_signed, "poison": f"{POISONS[0]:02x}",
                             "protocol": "ours", "dropped": 0}
    assert shapes["inputs"], shapes                     # the verdict names the shapes it verified at
    phases = [t["check"] for t in verdict["trials"]]
    assert phases == ["mkb"] * n + ["signed"] * (n if task.has_signed else 0)
    assert [t["trial"] for t in verdict["trials"]] == list(range(n)) * (2 if task.has_signed else 1)
    for trial in verdict["trials"]:
        assert trial["kind"] == "pass" and trial["outputs"], trial
        for o in trial["outputs"]:
            assert o["kind"] == "pass", (trial["check"], trial["trial"], o)
            if o["blind"]: assert o["scale_passed"] is not False   # an all-zero or constant output would not pass
    assert ("weak-test" in r.flags) == bool(verdict["weak"])


def test_task_has_its_full_shape_timing(suite, key):
    rep, results, specs, settings, out = suite
    r, task, folder = results[key], SUITE.get(key), Path(specs[key].folder)
    t = r.timing
    assert t is not None, f"{key}: no timing record"
    assert t["kind"] == "modelled" and t["soc"] == settings.soc and t["label"] == f"modelled on {settings.soc}"
    assert t["kernel_us"] > 0 and t["eager_us"] > 0 and t["bound_us"] > 0 and t["call_us"] >= t["kernel_us"]
    assert math.isclose(t["speedup"], t["eager_us"] / t["call_us"], rel_tol=1e-9)
    assert t["verdict"] in ("memory-bound", "vector-bound", "scalar-bound", "overhead-bound")
    full = [s.nbytes for s in task.output_specs("full")]
    assert [o["bytes"] for o in t["outputs"]] == full                     # traced at the full benchmark shapes …
    assert all(o["covered"] == o["bytes"] for o in t["outputs"])          # … writing every byte of every output
    assert json.loads((folder / "timing.json").read_text()) == t
    assert f"({t['label']})" in (folder / "timing.md").read_text().splitlines()[0]
    assert (folder / "timeline.svg").read_text().startswith("<svg")
    assert ("implausible-speedup" in r.flags) == (t["speedup"] > settings.plausible_speedup)


def test_per_task_table_is_written(suite, request):
    rep, results, specs, settings, out = suite
    table = (out / "tasks.md").read_text()
    assert "modelled on the" in table
    for key, r in results.items():
        assert f"| {r.task} | {r.category} | {r.status} |" in table
    assert len((out / "tasks.csv").read_text().splitlines()) == len(part_tasks(request.module.PART)) + 1


def test_memory_bound_kernel_is_near_its_bandwidth_bound(suite, key):
    t = suite[1][key].timing
    if t is None: pytest.skip(f"{key} has no timing record (test_task_has_its_full_shape_timing fails for it)")
    if t["verdict"] != "memory-bound": pytest.skip(f"{key} is {t['verdict']}")
    ratio = t["kernel_us"] / t["bound_us"]
    assert ratio <= BOUND_FACTOR, f"{key}: {t['kernel_us']:,.1f} µs is {ratio:.3f}x its bandwidth bound {t['bound_us']:,.1f} µs"


def test_bound_exceptions_are_fixed_overhead(suite, key):
    "The named exceptions miss the factor only by the fixed launch and start-up costs, as their reason says."
    t = suite[1][key].timing
    assert t["verdict"] == "memory-bound"
    assert (t["kernel_us"] - t["overhead_us"]) / t["bound_us"] <= BOUND_FACTOR
