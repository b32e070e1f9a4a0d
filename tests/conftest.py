"""Shared pytest options and set-up for the AscendCraft test suite."""
import os
import shutil
import subprocess

import pytest


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/ from the current lowering instead of comparing against it")


def _install_gxx() -> str:
    "Install Debian's g++ when it is missing and we may (root with apt-get); return what went wrong, or ''."
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "g++ is missing and cannot be installed here (needs root and apt-get): install g++ 9 or newer"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "g++"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            return f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return ""


def pytest_sessionstart(session):
    "The CPU emulation compiles kernels with g++: make sure it is there before any test needs it."
    from ascendcraft.config import load_settings
    cxx = load_settings().cxx
    if shutil.which(cxx) is None and cxx in ("g++", "c++"):
        problem = _install_gxx()
        if problem: pytest.exit(problem, returncode=3)
