"""How the suite runs on a worker per core (`pytest -n 2 --dist loadfile`, tests/conftest.py): each file whole on one
worker (its module fixtures built once), the longest files handed out first, in xdist's controller and in its workers
alike, and a serial run left exactly as collected."""
import importlib.util
import os
import types
from pathlib import Path

import pytest


def _suite_conftest():
    "tests/conftest.py itself: `import conftest` may find another conftest module (tests/browser/) under xdist."
    spec = importlib.util.spec_from_file_location("suite_conftest", Path(__file__).with_name("conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conftest = _suite_conftest()

pytest_plugins = ["pytester"]

SAMPLE = '''
import pytest

@pytest.fixture(scope="module")
def built():
    return object()

def test_uses_it(built): pass
def test_uses_it_too(built): pass
def test_alone(tmp_path): pass
'''


def _files(*paths):
    return [types.SimpleNamespace(fspath=f"/repo/tests/{p}", n=n) for n, p in enumerate(paths)]


LONG_AND_SHORT = ("test_aaa.py", "test_mhc.py", "test_aaa.py", "browser/test_layout.py", "test_bench_suite_loss_math.py",
                  "test_zeta.py", "test_mhc.py", "test_bench_suite_activation.py")


@pytest.mark.parametrize("where", ["controller", "worker"])
def test_under_xdist_the_longest_files_go_first_and_each_keeps_its_order(where):
    "xdist collects in its workers too, whose config has `workerinput` and `numprocesses` None: the order is made there."
    items = _files(*LONG_AND_SHORT)
    config = _config(numprocesses=2) if where == "controller" else _config(worker=True)
    conftest.pytest_collection_modifyitems(config, items)
    # the bench suite's parts in PARTS' order, then the browser tests, then test_mhc (both of its tests, in order), then
    # the rest as collected
    assert [i.n for i in items] == [7, 4, 3, 1, 6, 0, 2, 5]


def test_the_bench_suites_parts_are_the_first_files_in_the_hand_out_order():
    assert conftest.LONG_FIRST[:len(_bench_suite.PARTS)] == tuple(Path(_bench_suite.part_file(p)).stem for p in _bench_suite.PARTS)
    assert all(conftest.head_start_file(_bench_suite.part_file(p)) for p in _bench_suite.PARTS)
    assert not conftest.head_start_file("test_bench_suites.py") and not conftest.head_start_file("_bench_suite_checks.py")


def test_the_test_command_builds_a_module_fixture_once(pytester, monkeypatch):
    """A real run of this conftest under the README's test command (`-n 2 --dist loadfile`): a file's module fixture is
    built on one worker only, while the other worker takes the other files. (Under
    pytest 9, xdist 3.8's `--dist loadgroup` no longer sees the groups: it suffixes `item._nodeid`, which pytest 9's
    `nodeid` does not read, so every test would go wherever a worker is idle.)"""
    tests = Path(__file__).resolve().parent
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tests), str(tests.parent), os.environ.get("PYTHONPATH", "")]))
    pytester.makeconftest((tests / "conftest.py").read_text())
    log = pytester.path / "log.txt"
    sample = SAMPLE.replace("return object()", f"open({str(log)!r}, 'a').write('built\\n'); return object()")
    pytester.makepyfile(test_sample=sample + "def test_uses_it_three(built): pass\ndef test_uses_it_four(built): pass\n",
                        test_aaa="def test_first(): pass\n", test_mhc="def test_long(): pass\n")
    result = pytester.runpytest_subprocess("-n", "2", "--dist", "loadfile", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=7)
    lines = log.read_text().split()
    assert lines.count("built") == 1, lines


def test_a_serial_run_is_left_as_collected():
    items = _files(*LONG_AND_SHORT)
    conftest.pytest_collection_modifyitems(_config(no_head_start=True), items)
    assert [i.n for i in items] == list(range(len(LONG_AND_SHORT)))


# The head start of the benchmark suite's run (the test_bench_suite_*.py files) (tests/_bench_suite.py), started by conftest.py.
import os
import sys
import time

import _bench_suite
from ascendcraft.diagnostics import AscendCraftError, Diagnostic


def _items(*files):
    return [types.SimpleNamespace(fspath=f"/repo/tests/{f}") for f in files]


def _config(numprocesses=None, collectonly=False, no_head_start=False, worker=False):
    options = {"collectonly": collectonly, "no_head_start": no_head_start}
    config = types.SimpleNamespace(option=types.SimpleNamespace(numprocesses=numprocesses),
                                   getoption=lambda name, default=None: options.get(name, default))
    if worker: config.workerinput = {}
    return config


def test_the_bench_suite_gets_a_head_start_only_when_other_tests_run_too():
    serial = _config()
    assert conftest.wants_head_start(serial, _items("test_acl_host.py", "test_bench_suite_activation.py", "test_tasks.py"))
    assert conftest.wants_head_start(serial, _items("test_bench_suite_loss_math.py", "test_tasks.py"))
    assert not conftest.wants_head_start(serial, _items("test_bench_suite_activation.py", "test_bench_suite_activation.py",
                                                        "test_bench_suite_loss_math.py"))               # they alone
    assert not conftest.wants_head_start(serial, _items("test_acl_host.py", "test_tasks.py"))            # not collected
    both = _items("test_acl_host.py", "test_bench_suite_activation.py")
    assert not conftest.wants_head_start(_config(numprocesses=2), both)        # xdist: the workers fill the cores
    assert not conftest.wants_head_start(_config(worker=True), both)
    assert not conftest.wants_head_start(_config(no_head_start=True), both)


def test_with_a_head_start_the_bench_suite_runs_last_and_the_rest_keeps_its_order():
    items = _items("test_acl_host.py", "test_bench_suite_activation.py", "test_bench_suite_loss_math.py", "test_tasks.py",
                   "test_zeta.py")
    for n, item in enumerate(items): item.n = n
    conftest.pytest_collection_modifyitems(_config(), items)
    assert [i.n for i in items] == [0, 3, 4, 1, 2]
    items = _items("test_bench_suite_activation.py", "test_tasks.py")
    conftest.pytest_collection_modifyitems(_config(no_head_start=True), items)     # no head start: order kept
    assert [Path(str(i.fspath)).name for i in items] == ["test_bench_suite_activation.py", "test_tasks.py"]


def test_the_fixture_waits_for_the_head_starts_lock_then_resumes(monkeypatch, tmp_path):
    "While the background run holds the run folder, the fixture's run_bench is refused as run-busy: it waits and retries."
    calls = []

    def fake_run_bench(**kwargs):
        calls.append(kwargs)
        if len(calls) < 3:
            raise AscendCraftError(Diagnostic("run-busy", "another benchmark run is writing to it"), stage="bench")
        return "report"
    monkeypatch.setattr("ascendcraft.bench.run_bench", fake_run_bench)
    settings = _bench_suite.suite_settings().replace(cache_dir=str(tmp_path))
    assert _bench_suite.run_suite("loss_math", settings, wait=30, poll=0.01) == "report"
    assert len(calls) == 3 and all(c["out"] == tmp_path / "bench" / "ci-expert-small-loss_math" for c in calls)
    assert all(c["categories"] == ["loss", "math"] for c in calls)
    assert (calls[0]["size"], calls[0]["jobs"], calls[0]["settings"].seed) == ("small", 2, 1024)

    def other_error(**kwargs):
        raise AscendCraftError(Diagnostic("no-kernels", "kernels folder missing"), stage="bench")
    monkeypatch.setattr("ascendcraft.bench.run_bench", other_error)
    with pytest.raises(AscendCraftError):                 # any other error is raised at once
        _bench_suite.run_suite("loss_math", settings, wait=30, poll=0.01)
    calls.clear()
    monkeypatch.setattr("ascendcraft.bench.run_bench", fake_run_bench)
    with pytest.raises(AscendCraftError):                 # and a lock held past the wait is an error, not a hang
        _bench_suite.run_suite("loss_math", settings, wait=0, poll=0.01)


def test_the_head_start_runs_at_low_priority_and_is_killed_with_its_children(tmp_path):
    log = tmp_path / "head-start.log"
    child = "import os, subprocess, sys, time; print(os.nice(0), flush=True); " \
            "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); print(c.pid, flush=True); time.sleep(60)"
    proc = _bench_suite.start_head_start(tmp_path, argv=[sys.executable, "-c", child], log_path=log)
    deadline = time.monotonic() + 30
    while len(log.read_text().split()) < 2 and time.monotonic() < deadline: time.sleep(0.05)
    nice, grandchild = map(int, log.read_text().split())
    assert nice == os.nice(0) + _bench_suite.NICE or nice == 19
    assert os.getsid(proc.pid) == proc.pid                # a session of its own: the tests' signals do not reach it
    _bench_suite.stop_head_start(proc)
    assert proc.returncode == -9
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:                    # its child is killed with it (then reaped by init)
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        if open(f"/proc/{grandchild}/stat").read().split()[2] == "Z": break
        time.sleep(0.05)
    else:
        pytest.fail(f"the head start's child {grandchild} survived")


def test_collect_only_starts_no_head_start_and_the_session_end_stops_it(monkeypatch):
    started, stopped = [], []
    monkeypatch.setattr(_bench_suite, "start_head_start", lambda: started.append(1) or "proc")
    monkeypatch.setattr(_bench_suite, "stop_head_start", stopped.append)
    items = _items("test_acl_host.py", "test_bench_suite_pool_reduce_mhc.py")
    for collectonly in (True, False):
        config = _config(collectonly=collectonly)
        config.stash = pytest.Stash()
        session = types.SimpleNamespace(config=config, items=items)
        conftest.pytest_collection_finish(session)
        conftest.pytest_sessionfinish(session)
    assert started == [1] and stopped == ["proc"]
