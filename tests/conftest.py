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


# Parallel runs (`pytest -n 2 --dist loadfile`, the README's test command and .ci/run's; `-n auto` on more cores): a
# test file runs on one worker, so its module-scoped fixtures (a benchmark run, a Ray cluster, a JupyterLab server, a
# built kernel) are built once, and the notebooks of TOGETHER (one file) run one after the other. The longest files are
# handed out first, so that they do not start last; the order is made where the tests are collected, in each xdist
# worker (whose `numprocesses` is None; `workerinput` tells it is one). Under `--dist loadgroup` the tests that share
# a fixture wider than one test are also marked with their file's group (the browser tests: a group per file, their
# servers being module-scoped), but xdist 3.8 no longer sees those marks under pytest 9: it suffixes `item._nodeid`,
# which pytest 9's `nodeid` does not read.
LONG_FIRST = ("test_bench_suite", "browser", "test_ray_cluster", "test_api_parity", "test_bench_category",
              "test_workbench_tutorial", "test_calibrate", "test_own_operator", "test_case_study", "test_mhc")


# Notebooks that open the workbench on the same operators save sessions in the same folder: one after the other.
TOGETHER = {"workbench-notebooks": ("51_workbench", "52_tutorial", "55_wb_state")}


def _shared_fixture_group(item) -> str | None:
    "The group of `item` when it uses a fixture of this suite wider than one test: its file's, else None."
    for group, names in TOGETHER.items():
        if getattr(item, "callspec", None) is not None and item.callspec.id in names: return group
    info = getattr(item, "_fixtureinfo", None)
    if info is None: return None
    shared = any(d.scope != "function" and d.baseid      # plugins' own (tmp_path_factory, ...) are cheap: not counted
                 for defs in info.name2fixturedefs.values() for d in defs)
    if not shared: return None
    return Path(str(item.fspath)).stem


def distributed(config) -> bool:
    "Whether the tests run under xdist: in its controller (`-n N`) or in one of its workers, where the tests are collected."
    return bool(getattr(config.option, "numprocesses", None)) or hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)   # before xdist's own, which reads the groups to suffix the node ids with them
def pytest_collection_modifyitems(config, items):
    if wants_head_start(config, items):       # its run (started in the background) gets the whole session to finish
        items.sort(key=lambda item: Path(str(item.fspath)).name == HEAD_START_FILE)          # stable: only it moves
    if not distributed(config): return                               # a serial run: collection order, no groups
    for item in items:
        group = _shared_fixture_group(item)
        if group is not None and not any(m.name == "xdist_group" for m in item.iter_markers()):
            item.add_marker(pytest.mark.xdist_group(group))
    def rank(item):
        marks = [m.args[0] for m in item.iter_markers("xdist_group") if m.args]
        path = Path(str(item.fspath))
        name = "browser" if path.parent.name == "browser" else marks[0] if marks else path.stem
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)
    items.sort(key=rank)                                             # stable: each file keeps its own order


def wants_head_start(config, items) -> bool:
    """Start test_bench_suite.py's benchmark run in the background (tests/_bench_suite.py) when this serial session runs
    other tests too: it then fills the core the serial tests leave idle, and the file's tests move to the end of the
    session. Not under xdist (the workers share the cores already), and not when that file is all there is to run
    (nothing to overlap). `--collect-only` shows that order but starts nothing."""
    if distributed(config): return False
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

