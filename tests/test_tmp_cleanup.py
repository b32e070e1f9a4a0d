"""The suite cleans up after itself in /tmp: pytest's temporary folders under this project's settings (pyproject.toml's
`tmp_path_retention_policy = "failed"`), checked on small pytest sessions of their own, serial and under xdist as the
README's test command runs them. Each session gets its own temporary root (PYTEST_DEBUG_TEMPROOT), so other pytest
runs on the machine do not disturb the count."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = '''
def test_passes(tmp_path):
    (tmp_path / "kept-only-on-failure").write_text("x")

def test_fails(tmp_path):
    (tmp_path / "read-me").write_text("the failure's files")
    assert FAIL == 0
'''


def inner_session(tmp_path: Path, fail: bool, *args: str) -> tuple[subprocess.CompletedProcess, Path]:
    "Run a pytest session of two tests (one failing when `fail`) with this project's settings; (its run, its temp root)."
    project, temproot = tmp_path / "project", tmp_path / "temproot"
    project.mkdir()
    temproot.mkdir()
    (project / "test_inner.py").write_text(f"FAIL = {int(fail)}\n" + TESTS)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(ROOT / "pyproject.toml"),
                          "--rootdir", str(project), *args, str(project / "test_inner.py")],
                         cwd=project, env=dict(os.environ, PYTEST_DEBUG_TEMPROOT=str(temproot)),
                         capture_output=True, text=True, timeout=300)
    return run, temproot


def left_files(temproot: Path) -> list[str]:
    "The files the session left in its temporary root, by name."
    return sorted(p.name for p in temproot.rglob("*") if p.is_file())


@pytest.mark.parametrize("args", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_green_session_leaves_no_temporary_folder(tmp_path, args):
    run, temproot = inner_session(tmp_path, False, *args)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout
    assert left_files(temproot) == [], sorted(map(str, temproot.rglob("*")))
    assert not list(temproot.glob("pytest-of-*/pytest-[0-9]*")), sorted(map(str, temproot.rglob("*")))


@pytest.mark.parametrize("args", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_failing_session_keeps_the_failures_folder_only(tmp_path, args):
    run, temproot = inner_session(tmp_path, True, *args)
    assert run.returncode == 1 and "1 failed, 1 passed" in run.stdout, run.stdout + run.stderr
    assert left_files(temproot) == ["read-me"]                         # the passing test's file is gone


def test_a_scan_killed_midway_leaves_its_folder_to_the_next_sweep(tmp_path):
    """The honesty scan's `g++ -E` runs in a scratch folder held by its process (emu.ScratchFolder): when a task past its
    timeout is killed mid-scan, the next scratch folder made on the machine removes it (a temporary folder stayed in
    /tmp for good: the ascendcraft-scan-* folders)."""
    from ascendcraft.emu import ScratchFolder, _scratch_root
    if _scratch_root() is None: pytest.skip("no writable /dev/shm: scratch folders are temporary folders here")
    child = ("import os, sys\n"
             "import ascendcraft.honesty as honesty, ascendcraft.sandbox as sandbox\n"
             "def killed(argv, scratch, **kwargs):\n"
             "    print(scratch, flush=True)\n"
             "    os._exit(9)\n"
             "sandbox.run = killed\n"
             "honesty.preprocess({'k.cpp': 'int x;\\n'})\n")
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300)
    assert run.returncode == 9, run.stdout + run.stderr
    folder = Path(run.stdout.strip())
    assert folder.name.startswith("ascendcraft-scan-") and (folder / "src" / "k.cpp").is_file()   # left by the kill
    probe = ScratchFolder("probe")
    try: assert not folder.exists() and not folder.with_name(folder.name + ".held").exists()
    finally: probe.close()
