"""Input files written while the kernel process starts (issue 17): `run` starts the process first and writes the GM
input files meanwhile; the process maps GM and writes the poison, then waits for one byte on its stdin before anything
reads an input. The time it waited is not counted as the kernel's; a failed write kills the process."""
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ascendcraft import emu, sandbox
from ascendcraft.emu import GM, Scalar, build, run

ADD_ONE = (Path(__file__).parent / "emu_kernels" / "misc" / "add_one.cpp").read_text()
TILE, N = 64, 512


def _args(x, role="in"):
    return [GM("x", x, role), GM("y", None, "out", shape=(N,), dtype=np.float32), Scalar(TILE)]


def test_inputs_written_late_are_the_ones_the_kernel_reads(monkeypatch):
    """The input write is held back 0.4 s while the kernel process runs: the kernel still reads the new bytes, the file
    is written outside the run folder (the sandbox's reach) and its time leaves the wait out."""
    b = build({"k.cpp": ADD_ONE})
    assert b.ok, b.diagnostics
    real_write, real_prepare, seen, folders = emu._write_input, emu._prepare, [], []

    def prepare(build_, args, run_dir, **kw):
        folders.append(Path(run_dir))
        return real_prepare(build_, args, run_dir, **kw)

    def slow(path, array, threads=1, files=None):
        run_dir = folders[-1]
        seen.append(((run_dir / "spec.txt").read_text(), Path(path).parent != run_dir, (run_dir / Path(path).name).exists()))
        time.sleep(0.4)                        # the kernel process is running by now, waiting for its inputs
        real_write(path, array, threads, files)

    monkeypatch.setattr(emu, "_prepare", prepare)
    monkeypatch.setattr(emu, "_write_input", slow)
    x = np.arange(N, dtype=np.float32)
    t0 = time.perf_counter()
    r = run(b, _args(x), block_dim=N // TILE)
    wall = time.perf_counter() - t0
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
    [(spec, elsewhere, in_run_folder)] = seen
    assert "inputs stdin" in spec.splitlines() and elsewhere and not in_run_folder
    assert r.seconds < wall - 0.3, (r.seconds, wall)   # the 0.4 s spent waiting are not the kernel's


def test_a_failed_input_write_kills_the_process_and_raises(monkeypatch):
    b = build({"k.cpp": ADD_ONE})
    started = []
    real_start = sandbox.start

    def start(cmd, **kw):
        started.append(real_start(cmd, **kw))
        return started[-1]

    def broken(path, array, threads=1, files=None): raise OSError(28, "No space left on device")

    monkeypatch.setattr(sandbox, "start", start)
    monkeypatch.setattr(emu, "_write_input", broken)
    with pytest.raises(OSError, match="No space left"):
        run(b, _args(np.zeros(N, np.float32)), block_dim=1)
    assert len(started) == 1 and started[0].returncode is not None   # killed and reaped, not left waiting


def test_feeding_a_process_that_already_ended_is_quiet():
    "A kernel process that stopped before reading its stdin (a setup error): the parent's byte goes nowhere, no error."
    proc = subprocess.Popen([sys.executable, "-c", "pass"], stdin=subprocess.PIPE, start_new_session=True)
    proc.wait()
    written = []
    emu._feed_inputs(proc, lambda: written.append("inputs"))     # no BrokenPipeError
    assert written == ["inputs"] and proc.stdin.closed


def test_a_process_fed_nothing_reports_a_setup_error(tmp_path):
    "The kernel process told `inputs stdin` whose stdin ends without the byte stops with an emu-setup diagnostic."
    b = build({"k.cpp": ADD_ONE})
    x = np.arange(N, dtype=np.float32)
    deferred, stage = [], tmp_path / "stage"
    (run_dir := tmp_path / "run").mkdir()
    stage.mkdir()
    emu._prepare(b, _args(x), run_dir, mode="execute", block_dim=1, host_args=None, poison=0xA5, ub_bytes=196608,
                 cores=48, settings=emu.load_settings(), deferred=deferred, stage=stage)
    assert [(s.parent, d.parent, d.name) for s, d, _ in deferred] == [(stage, run_dir, "gm0.bin")]
    assert not (run_dir / "gm0.bin").exists()          # nothing written yet
    proc_child = emu._run_child(b.binary, run_dir, 60, False, emu.load_settings(), x.nbytes * 2)   # stdin: /dev/null
    setup = [r for r in proc_child.records if r.get("kind") == "emu-setup"]
    assert proc_child.returncode == 4 and setup and "input files were not handed over" in setup[0]["message"]
