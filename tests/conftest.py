"""Shared pytest options and set-up for the AscendCraft test suite."""
import shutil

import pytest
from _apt import apt_install


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/ from the current lowering instead of comparing against it")


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
