"""A benchmark run killed halfway (SIGKILL of the harness process) resumes without redoing finished
tasks, and its final report equals the report of an uninterrupted run."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ascendcraft.bench import run_bench
from ascendcraft.config import load_settings
from ascendcraft.report import report

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["relu", "softsign", "sgd"]
# Wall times differ from run to run. The fingerprint hashes AscendCraft's own sources, which may change between
# the two runs when someone re-exports a module meanwhile; the resume above already relied on it matching.
# The seal is the harness's HMAC over the whole result, wall times included, so it differs with them.
VOLATILE = ("stage_seconds", "fingerprint", "versions", "seal")


def cli(out: Path, env: dict) -> subprocess.Popen:
    args = [sys.executable, "-m", "ascendcraft.cli", "bench", "--jobs", "1", "--no-timing", "--quiet", "--out", str(out),
            "--kernels", str(ROOT / "examples"), *[a for t in TASKS for a in ("--task", t)]]
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def comparable(out: Path) -> list[dict]:
    rep = report(out, write=False)
    return [{k: v for k, v in r.to_dict().items() if k not in VOLATILE} for r in rep.results], rep.metrics_table(), rep.task_table()


def task_processes(out: Path) -> list[str]:
    "Pids of task processes still working on `out` (their command line names a spec.json in it)."
    found = []
    for cmd in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(out) in cmd.read_bytes().decode(errors="replace"): found.append(cmd.parent.name)
        except OSError:
            pass
    return found


def test_killed_run_resumes_and_matches_an_uninterrupted_run(tmp_path):
    env = {**os.environ, "ASCENDCRAFT_TRIALS": "1"}
    killed, whole = tmp_path / "killed", tmp_path / "whole"

    proc = cli(killed, env)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(killed.glob("*/*/result.json")):
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)          # really kill the harness, mid-run
    proc.wait()
    finished = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in killed.glob("*/*/result.json")}
    assert 1 <= len(finished) < len(TASKS), sorted(str(p) for p in finished)
    time.sleep(1.0)
    assert not task_processes(killed), "a task process outlived the killed harness"
    assert len(list(killed.glob("*/*/result.json"))) == len(finished)   # nobody writes after the kill

    settings = load_settings().replace(trials=1)
    resumed = run_bench(TASKS, kernels=ROOT / "examples", out=killed, jobs=1, timing=False, settings=settings,
                        progress=False, size="auto")     # the CLI's default size
    assert len(resumed.results) == len(TASKS)
    assert all(r.status == "ok" for r in resumed.results), [(r.task, r.status, r.detail, r.message[:800]) for r in resumed.results]
    for path, (mtime, data) in finished.items():
        assert path.stat().st_mtime_ns == mtime and path.read_bytes() == data, f"{path} was redone"

    assert cli(whole, env).wait() == 0
    assert comparable(killed) == comparable(whole)
    assert json.loads((killed / "summary.json").read_text())["metrics"] == json.loads((whole / "summary.json").read_text())["metrics"]
