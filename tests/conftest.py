"""Shared pytest options and set-up for the AscendCraft test suite."""
import shutil
from pathlib import Path

import pytest
from _apt import apt_install

HEAD_START_FILE = "test_bench_suite.py"     # its fixture's benchmark run gets a head start (tests/_bench_suite.py)
HEAD_START = pytest.StashKey()              # the background process of that run, in the session's config


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/ from the current lowering instead of comparing against it")
    parser.addoption("--no-head-start", action="store_true", default=False,
                     help="do not start test_bench_suite.py's benchmark run in the background when the tests are collected")


def pytest_sessionstart(session):
    "The CPU emulation compiles kernels with g++: make sure it is there before any test needs it."
    from ascendcraft.config import load_settings
    cxx = load_settings().cxx
    if shutil.which(cxx) is None and cxx in ("g++", "c++"):
        problem = apt_install("g++", "g++ (9 or newer)")
        if problem: pytest.exit(problem, returncode=3)
    # every g++ build and kernel run goes through bubblewrap (ascendcraft.sandbox); without it the sandbox falls
    # back to rlimits + seccomp and warns, and the namespace tests are skipped
    if shutil.which("bwrap") is None:
        problem = apt_install("bubblewrap", "bubblewrap (the sandbox of every build and kernel run)")
        if problem: print(f"\nWARNING: {problem}")


# Parallel runs (`pytest -n auto --dist loadgroup`; the README's test command is serial, which measured faster on 2 cores). A test that uses a module-, package-
# or session-scoped fixture of this suite (a benchmark run, a Ray cluster, a browser, a built kernel) runs on the same
# worker as every other test that uses it, so each such fixture is built once; every other test is free to go to
# whichever worker is idle. The longest groups are handed out first, so that they do not start last.
LONG_FIRST = ("test_bench_suite", "browser", "test_ray_cluster", "test_api_parity", "test_bench_category",
              "test_workbench_tutorial", "test_calibrate", "test_own_operator", "test_case_study", "test_mhc")


# Notebooks that open the workbench on the same operators save sessions in the same folder: one after the other.
TOGETHER = {"workbench-notebooks": ("51_workbench", "52_tutorial", "55_wb_state")}


def _shared_fixture_group(item) -> str | None:
    "The group of `item` when it uses a fixture of this suite wider than one test: its file's (the browser tests': one), else None."
    for group, names in TOGETHER.items():
        if getattr(item, "callspec", None) is not None and item.callspec.id in names: return group
    info = getattr(item, "_fixtureinfo", None)
    if info is None: return None
    shared = any(d.scope != "function" and d.baseid      # plugins' own (tmp_path_factory, ...) are cheap: not counted
                 for defs in info.name2fixturedefs.values() for d in defs)
    if not shared: return None
    path = Path(str(item.fspath))
    return "browser" if path.parent.name == "browser" else path.stem


def pytest_collection_modifyitems(config, items):
    if wants_head_start(config, items):       # its run (started in the background) gets the whole session to finish
        items.sort(key=lambda item: Path(str(item.fspath)).name == HEAD_START_FILE)          # stable: only it moves
    if not getattr(config.option, "numprocesses", None): return      # a serial run: collection order, no groups
    for item in items:
        group = _shared_fixture_group(item)
        if group is not None and not any(m.name == "xdist_group" for m in item.iter_markers()):
            item.add_marker(pytest.mark.xdist_group(group))
    def rank(item):
        marks = [m.args[0] for m in item.iter_markers("xdist_group") if m.args]
        name = marks[0] if marks else Path(str(item.fspath)).stem
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)
    items.sort(key=rank)                                             # stable: each file keeps its own order


def wants_head_start(config, items) -> bool:
    """Start test_bench_suite.py's benchmark run in the background (tests/_bench_suite.py) when this serial session runs
    other tests too: it then fills the core the serial tests leave idle, and the file's tests move to the end of the
    session. Not under xdist (the workers share the cores already), and not when that file is all there is to run
    (nothing to overlap). `--collect-only` shows that order but starts nothing."""
    if getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"): return False
    if config.getoption("no_head_start", False): return False
    names = {Path(str(item.fspath)).name for item in items}
    return HEAD_START_FILE in names and len(names) > 1


def pytest_collection_finish(session):
    if session.config.getoption("collectonly", False) or not wants_head_start(session.config, session.items): return
    from _bench_suite import start_head_start
    session.config.stash[HEAD_START] = start_head_start()


def pytest_sessionfinish(session):
    proc = session.config.stash.get(HEAD_START, None)
    if proc is None: return
    from _bench_suite import stop_head_start
    stop_head_start(proc)

