"""Shared pytest options and set-up for the AscendCraft test suite."""
import fnmatch
import os
import shutil
import sys
from pathlib import Path

# Compiled modules are cached (`__pycache__`, ignored by git) even where the environment says not to: the machines here
# set PYTHONDONTWRITEBYTECODE=1, and the suite starts about a hundred Python processes (xdist workers, Jupyter and
# Voila kernels, fork servers, Ray workers, CLI runs) that would each compile AscendCraft's modules from source again
# (0.35 CPU-s and 1 s of wall for the workbench's imports), and pytest would rewrite every test module's asserts in
# both workers. Set here, before any test module is imported; the processes the tests start inherit it.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest
from _apt import apt_install
from _sandbox_record import record_sandbox_runs

HEAD_START_FILES = "test_bench_suite_*.py"  # the benchmark suite's parts: their run gets a head start (tests/_bench_suite.py)
HEAD_START = pytest.StashKey()              # the background process of that run, in the session's config


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/ from the current lowering instead of comparing against it")
    parser.addoption("--no-head-start", action="store_true", default=False,
                     help="do not start the test_bench_suite_*.py files' benchmark run in the background when the tests are collected")


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
    # Under xdist, each worker runs torch on its share of the CPUs: with every worker on all of them, torch's threads
    # spin while they wait for a core (a 137 k-element kl_div under load: 35 ms of CPU on 2 threads, 1.6 ms on 1). The
    # processes a worker starts (the workbench's Voila and JupyterLab kernels, CLI runs, Ray's workers) read the same
    # share from OMP_NUM_THREADS when they import torch; a value the caller set is kept.
    if hasattr(session.config, "workerinput"):
        import torch
        share = max(1, len(os.sched_getaffinity(0)) // int(session.config.workerinput["workercount"]))
        os.environ.setdefault("OMP_NUM_THREADS", str(share))
        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]) if os.environ["OMP_NUM_THREADS"].isdigit() else share)


# Parallel runs (`pytest -n 2 --dist loadfile`, the README's test command and .ci/run's; `-n auto` on more cores): a
# test file runs whole on one worker, so its module-scoped fixtures (a benchmark run, a Ray cluster, a JupyterLab
# server, a built kernel) are built once, and the workbench notebooks, which save sessions in the same folder, run one
# after the other (they are all in test_notebooks.py). The longest files are handed out first, so that they do not
# start last; the order is made where the tests are collected, in each xdist worker (whose `numprocesses` is None;
# `workerinput` tells it is one). No xdist groups are made: `--dist loadgroup` does not see them under pytest 9 with
# xdist 3.8 (it suffixes `item._nodeid`, which pytest 9's `nodeid` does not read), and `loadfile` needs none.
LONG_FIRST = ("test_bench_suite_activation", "test_bench_suite_loss_math", "test_bench_suite_norm_optimizer",
              "test_bench_suite_pool_reduce_mhc", "browser", "test_ray_cluster", "test_api_parity", "test_bench_category",
              "test_workbench_tutorial", "test_calibrate", "test_own_operator", "test_case_study", "test_mhc",
              # the next largest in the seventeenth round's empty-cache run (--durations=0, summed per file), so that none
              # of them is handed out last
              "test_npu", "test_beyond_categories", "test_notebooks", "test_examples_interp", "test_opproject",
              "test_emu_api_extra", "test_bench_resume",
              # the thirty-third round's PyTorch-extension builds (g++ over torch's headers: minutes on an empty cache)
              "test_torch_npu_standin")


def distributed(config) -> bool:
    "Whether the tests run under xdist: in its controller (`-n N`) or in one of its workers, where the tests are collected."
    return bool(getattr(config.option, "numprocesses", None)) or hasattr(config, "workerinput")


def long_first_rank(item) -> int:
    "Where `item`'s file goes in the hand-out order: its place in LONG_FIRST (the browser tests as one), else after them."
    path = Path(str(item.fspath))
    name = "browser" if path.parent.name == "browser" else path.stem
    return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)


@pytest.hookimpl(tryfirst=True)   # before xdist's own scheduling reads the order
def pytest_collection_modifyitems(config, items):
    if wants_head_start(config, items):       # its run (started in the background) gets the whole session to finish
        items.sort(key=lambda item: head_start_file(Path(str(item.fspath)).name))          # stable: only they move
    if not distributed(config): return                               # a serial run: collection order
    items.sort(key=long_first_rank)                                           # stable: each file keeps its own order


def head_start_file(name: str) -> bool:
    return fnmatch.fnmatch(name, HEAD_START_FILES)


def wants_head_start(config, items) -> bool:
    """Start the benchmark suite's run (its parts, the test_bench_suite_*.py files) in the background
    (tests/_bench_suite.py) when this serial session runs other tests too: it then fills the core the serial tests
    leave idle, and those files' tests move to the end of the session. Not under xdist (the workers share the cores
    already), and not when those files are all there is to run (nothing to overlap). `--collect-only` shows that order
    but starts nothing."""
    if distributed(config): return False
    if config.getoption("no_head_start", False): return False
    names = {Path(str(item.fspath)).name for item in items}
    return any(map(head_start_file, names)) and not all(map(head_start_file, names))


def pytest_collection_finish(session):
    if session.config.getoption("collectonly", False) or not wants_head_start(session.config, session.items): return
    from _bench_suite import start_head_start
    session.config.stash[HEAD_START] = start_head_start()


def pytest_sessionfinish(session):
    proc = session.config.stash.get(HEAD_START, None)
    if proc is None: return
    from _bench_suite import stop_head_start
    stop_head_start(proc)



@pytest.fixture
def kernel_unit_compiles(monkeypatch) -> list:
    """The g++ runs that compile the kernel's translation unit, as they happen: `emu.AIC_SOURCE` for the cube half of a
    kernel built per core type, `emu.KERNEL_MAIN` for its vector half or for the kernel in one piece."""
    from ascendcraft.emu import AIC_SOURCE, KERNEL_MAIN
    return record_sandbox_runs(monkeypatch, lambda argv: None if "-c" not in argv else
                               AIC_SOURCE if AIC_SOURCE in argv else KERNEL_MAIN if KERNEL_MAIN in argv else None)
