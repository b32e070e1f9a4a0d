"""How many tasks `bench --size auto` verifies at upstream's full shapes on this machine, and what those verifications
hold in memory.

Without --run it lists every task's full-shape verification as `bench.verification_memory` estimates it on meta tensors
(one input set, the reference's outputs and temporaries, the draw), the memory budget (`verify_memory_mb`, by default
this machine's memory less a quarter), the time budget (`verify_seconds`) and the size `bench --size auto` picks.

With --floor it measures this machine's memory bandwidth (NumPy, one core) and gives the floor of verifying at full
shapes every task that fits the memory budget but that `--size auto` keeps small: the bytes a trial must move at the
least (the draw writes the inputs; the reference reads them and writes its outputs; each of the two poison runs reads
the inputs and writes the outputs; each of the two comparisons reads the kernel's and the reference's outputs:
4 x inputs + 7 x outputs), times the trials (MultiKernelBench's and as many signed ones), over every core at once.
Nothing else (the emulation's own work, the checks, the size checks, the builds) is counted, so the real time is more.

With --run TASK (repeatable; `--run fits` = every task that fits the memory budget) it verifies each task's expert
kernel at its full shapes, one task at a time, the way a bench task process does (`judge.emulator_verdict`: every
MultiKernelBench and signed trial, two poison runs each; then `judge.size_checks`: the magnitude sets and threshold
shapes), in a child process, and samples every 50 ms the private memory (RssAnon) of that process and its children plus
what /dev/shm holds beyond its level at the start (GM and input files; shared pages are counted once). /dev/shm is the
whole machine's: run it on a quiet one. Check `free -g` first.

Usage:  .venv/bin/python examples/benchmarks/bench_full_shapes.py [--floor] [--run TASK|fits ...] [--trials N] [--no-sizecheck]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ascendcraft.bench import full_elements_per_s, memory_budget_mb, verification_memory, verification_size
from ascendcraft.config import load_settings
from ascendcraft.taskset import registry

EXAMPLES = Path(__file__).resolve().parents[1]
GIB = 2 ** 30

CHILD = r"""
import json, sys, time
from pathlib import Path
from ascendcraft.config import load_settings
from ascendcraft.judge import emulator_verdict, size_checks
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import registry
task_id, trials, sizecheck, examples = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", Path(sys.argv[4])
settings = load_settings()
if trials: settings = settings.replace(trials=trials)
task = registry(None, [task_id])[0]
path = examples / task.category / f"{task.id}.py"
pipe = Pipeline(path.read_text(), path.name, task=task, settings=settings)
pipe.run_all()
print("READY", flush=True)
t0 = time.perf_counter()
verdict, kernel = emulator_verdict(task, pipe.steps[-1].build, pipe.program, settings, "full")
verify_s = time.perf_counter() - t0
kind, report = verdict.kind, None
if verdict.passed and sizecheck:
    report, _ = size_checks(task, pipe.steps[-1].build, pipe.program, settings, "full", dsl=path.read_text(), filename=path.name)
    if report.failure: kind = report.failure["detail"]
print("RESULT " + json.dumps({"kind": kind, "trials": len(verdict.trials), "verify_s": verify_s,
                              "total_s": time.perf_counter() - t0}), flush=True)
"""


def _anon(pid: int) -> int:
    "RssAnon of a process and all its descendants, in bytes."
    total, todo = 0, [pid]
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            children.setdefault(int(text[text.rindex(")") + 2:].split()[1]), []).append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("RssAnon:"): total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def measure(task_id: str, trials: int, sizecheck: bool) -> dict:
    "Verify one task at full shapes in a child process; its peak memory (after the build) and times."
    shm0 = shutil.disk_usage("/dev/shm").used
    proc = subprocess.Popen([sys.executable, "-c", CHILD, task_id, str(trials), "1" if sizecheck else "0", str(EXAMPLES)],
                            stdout=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    peak, base, out, started = 0, None, "", time.perf_counter()

    def read() -> str:
        try: return os.read(fd, 1 << 16).decode(errors="replace")
        except BlockingIOError: return ""
    usage = None
    while usage is None:
        pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)   # reaped here: its CPU time, children included
        if pid:
            usage, proc.returncode = rusage, os.waitstatus_to_exitcode(status)
            break
        out += read()
        now = _anon(proc.pid) + max(0, shutil.disk_usage("/dev/shm").used - shm0)
        if base is None and "READY" in out: base = now
        if base is not None: peak = max(peak, now)
        time.sleep(0.05)
    os.set_blocking(fd, True)
    out += proc.stdout.read().decode(errors="replace")
    result = next((json.loads(l[7:]) for l in out.splitlines() if l.startswith("RESULT ")), {"kind": f"exit {proc.returncode}"})
    return {**result, "peak": peak, "wall_s": time.perf_counter() - started, "cpu_s": usage.ru_utime + usage.ru_stime}


def stream_rates(gib: float = 1.0) -> dict:
    "Bytes per second one core moves here with NumPy: 'write' (fill), 'copy' (read + write, both counted), 'read' (sum)."
    import numpy as np
    n = int(gib * GIB) // 4
    a, b = np.ones(n, np.float32), np.empty(n, np.float32)
    rates = {}
    for name, moved, op in (("write", 4 * n, lambda: b.fill(1.0)), ("copy", 8 * n, lambda: np.copyto(b, a)),
                            ("read", 4 * n, lambda: a.sum())):
        op()                                               # pages faulted in once
        best = min(_timed(op) for _ in range(3))
        rates[name] = moved / best
    return rates


def _timed(op) -> float:
    t = time.perf_counter()
    op()
    return time.perf_counter() - t


def floor(rows: list, budget: float, settings) -> None:
    "Print the memory-traffic floor of verifying at full shapes the tasks that fit `budget` but are kept small."
    rates = stream_rates()
    rate = min(rates.values())           # the traffic mixes all three; the slowest is the conservative floor's rate
    trials, cores = 2 * settings.trials, os.cpu_count() or 1
    print(f"\none core moves {rates['write'] / GIB:.1f} GiB/s writing, {rates['copy'] / GIB:.1f} copying (read + write), "
          f"{rates['read'] / GIB:.1f} reading; the floor uses {rate / GIB:.1f} GiB/s per core, {cores} cores, "
          f"{trials} input sets a task\n")
    print("| task | input set GiB | outputs GiB | bytes a trial moves at least, GiB | floor, CPU s | the time rule's estimate, s |")
    print("|---|---:|---:|---:|---:|---:|")
    total = estimated = 0.0
    tasks = {t.id: t for t in registry(None, None)}
    for peak, tid, need, size, _ in sorted(rows, key=lambda r: r[0]):
        if need is None or size == "full" or peak > budget: continue
        moved = 4 * need.inputs + 7 * need.outputs
        seconds = moved * trials / rate
        rule = need.elements * trials / full_elements_per_s(tasks[tid])   # verification_size's estimate at today's rates
        total, estimated = total + seconds, estimated + rule
        print(f"| {tid} | {need.inputs / GIB:.2f} | {need.outputs / GIB:.2f} | {moved / GIB:.1f} | {seconds:.0f} | {rule:.0f} |")
    print(f"\nfloor of the tasks kept small that fit the memory budget: {total:.0f} CPU s, at least {total / cores:.0f} s "
          f"of wall on {cores} cores, beyond what `--size auto` verifies today; at today's measured rates "
          f"(bench.FULL_RATES) {estimated:.0f} CPU s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="append", default=[], help="verify TASK at full shapes ('fits': every task that fits)")
    ap.add_argument("--trials", type=int, default=0, help="input sets per phase (default: the settings' trials, 5)")
    ap.add_argument("--no-sizecheck", action="store_true", help="skip the magnitude and threshold checks")
    ap.add_argument("--floor", action="store_true", help="the memory-traffic floor of the tasks that fit but are kept small")
    args = ap.parse_args()
    settings = load_settings()
    budget = memory_budget_mb(settings) * 2 ** 20
    rows, fits = [], []
    for task in registry(None, None):
        try:
            need = verification_memory(task, settings)
        except Exception as e:          # a reference that cannot run on meta tensors: verified small
            rows.append((float("inf"), task.id, None, "small", repr(e)[:60]))
            continue
        size = verification_size(task, "auto", settings)
        rows.append((need.peak, task.id, need, size, ""))
        if need.peak <= budget: fits.append(task.id)
    print(f"memory budget {budget / GIB:.1f} GiB (verify_memory_mb={settings.verify_memory_mb}), time budget "
          f"{settings.verify_seconds:.0f} s (verify_seconds)\n")
    print("| task | estimated peak GiB | input set GiB | outputs GiB | reference peak GiB | draw peak GiB | fits memory | auto size |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for peak, tid, need, size, note in sorted(rows, key=lambda r: r[0]):
        if need is None:
            print(f"| {tid} | — | — | — | — | — | no ({note}) | {size} |")
            continue
        print(f"| {tid} | {peak / GIB:.2f} | {need.inputs / GIB:.2f} | {need.outputs / GIB:.2f} | {need.reference / GIB:.2f} "
              f"| {need.draw / GIB:.2f} | {'yes' if peak <= budget else 'no'} | {size} |")
    full = sum(r[3] == "full" for r in rows)
    print(f"\n{len(fits)} of {len(rows)} tasks fit the memory budget; {full} are verified at full shapes by `--size auto`")
    if args.floor: floor(rows, budget, settings)
    todo = [t for name in args.run for t in (fits if name == "fits" else [name])]
    if not todo: return
    print("\n| task | result | trials | estimated peak GiB | measured peak GiB | verify s | with size checks s | CPU s (build included) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    estimates = {r[1]: r[0] for r in rows}
    for tid in todo:                       # one at a time: a full-shape verification can take most of the machine
        m = measure(tid, args.trials, not args.no_sizecheck)
        print(f"| {tid} | {m.get('kind')} | {m.get('trials', '—')} | {estimates.get(tid, 0) / GIB:.2f} | {m['peak'] / GIB:.2f} "
              f"| {m.get('verify_s', 0):.0f} | {m.get('total_s', 0):.0f} | {m['cpu_s']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
