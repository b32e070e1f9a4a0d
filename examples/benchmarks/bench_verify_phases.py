"""Where one full-shape verification's time goes: CPU and wall per phase of `judge.emulator_verdict` (and the size checks).

It verifies one task's expert kernel at its full shapes the way a bench task process does, with timers wrapped around
each phase: drawing the input set, moving it into shared files, the fingerprints (inputs before and after the
candidate, both sets of outputs), the emulated kernel runs (two poisons each; the kernel process's own CPU from its
`done` record), comparing the two poison runs, the reference, its NaN/Inf check, the comparison, and the trace that
checks the executed work. Times are exclusive (a phase inside another is not counted twice).

A full-shape verification can hold GBs (`bench_full_shapes.py` lists each task's estimate): check `free -g` first and
run one at a time.

The reference's freed blocks keep their pages as in a bench task process (`bench.reference_block_cache`) unless
`--no-block-cache` is given: run both ways to see what it saves.

Usage:  python examples/benchmarks/bench_verify_phases.py TASK [--trials N] [--sizecheck] [--run-timeout S] [--no-block-cache]
"""
import argparse
import functools
import json
import os
import time
from collections import defaultdict
from pathlib import Path

import ascendcraft.bench as B
import ascendcraft.judge as J
import ascendcraft.taskset as T
import ascendcraft.verify as V
from ascendcraft.config import load_settings
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import registry

EXAMPLES = Path(__file__).resolve().parents[1]


class Phases:
    "Exclusive wall and CPU time per named phase (a phase entered inside another is subtracted from the outer one)."

    def __init__(self):
        self.totals = defaultdict(lambda: [0.0, 0.0, 0])     # wall, CPU of this process, calls
        self.stack = []
        self.kernel_cpu, self.kernel_runs = 0.0, 0

    @staticmethod
    def _now():
        t = os.times()
        return time.perf_counter(), t.user + t.system

    def _enter(self, name):
        self.stack.append(name)
        return self._now()

    def _leave(self, name, start):
        w, c = (b - a for a, b in zip(start, self._now()))
        self.stack.pop()
        row = self.totals[name]
        row[0] += w; row[1] += c; row[2] += 1
        for outer in self.stack:
            self.totals[outer][0] -= w; self.totals[outer][1] -= c

    def wrap(self, name, f):
        @functools.wraps(f)
        def timed(*a, **k):
            if self.stack and self.stack[-1] == name: return f(*a, **k)     # recursion (fingerprint of a list)
            start = self._enter(name)
            try: return f(*a, **k)
            finally: self._leave(name, start)
        return timed

    def wrap_generator(self, name, f):
        @functools.wraps(f)
        def timed(*a, **k):
            it = f(*a, **k)
            while True:
                start = self._enter(name)
                try: held = [next(it)]
                except StopIteration: return
                finally: self._leave(name, start)
                yield held.pop()        # not kept in a local while the caller uses it (the next draw recycles its files)
        return timed


def instrument(p: Phases):
    "Wrap the phases of a verification (module attributes, so every caller sees the timed versions)."
    V.fingerprint = p.wrap("fingerprint", V.fingerprint)
    V.compare_output = p.wrap("compare", V.compare_output)
    V._check_reference = p.wrap("reference NaN/Inf check", V._check_reference)
    V.run_trial = p.wrap("trial (rest)", V.run_trial)
    B.EmulatedKernel.share_inputs = p.wrap("share inputs", B.EmulatedKernel.share_inputs)
    B.EmulatedKernel._compare = p.wrap("poison comparison", B.EmulatedKernel._compare)
    J.trace_disagreement = p.wrap("trace check", J.trace_disagreement)
    T.Task.iter_input_sets = p.wrap_generator("draw", T.Task.iter_input_sets)
    timed_run = p.wrap("kernel runs", B.run_kernel)

    def run_kernel(*a, **k):
        r = timed_run(*a, **k)
        p.kernel_cpu += r.run.cpu_seconds or 0.0
        p.kernel_runs += 1
        return r
    B.run_kernel = run_kernel
    model = T.Task.model

    def timed_model(self, *a, **k):
        net = model(self, *a, **k)
        net.forward = p.wrap("reference", net.forward)
        return net
    T.Task.model = timed_model


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task")
    ap.add_argument("--trials", type=int, default=0, help="input sets per phase (default: the settings' trials, 5)")
    ap.add_argument("--sizecheck", action="store_true", help="also the size and magnitude checks")
    ap.add_argument("--run-timeout", type=float, default=0, help="run_timeout for this measurement (default: the settings')")
    ap.add_argument("--no-block-cache", action="store_true", help="PyTorch's own allocator for the reference's blocks")
    args = ap.parse_args()
    settings = load_settings()
    if args.trials: settings = settings.replace(trials=args.trials)
    if args.run_timeout: settings = settings.replace(run_timeout=args.run_timeout)
    task = registry(None, [args.task])[0]
    path = EXAMPLES / task.category / f"{task.id}.py"
    pipe = Pipeline(path.read_text(), path.name, task=task, settings=settings, sizes=("full",))
    pipe.run_all()
    p = Phases()
    instrument(p)
    w0, c0 = Phases._now()
    load0 = os.getloadavg()[0]
    record = {}
    with B.reference_block_cache(task, settings, "small" if args.no_block_cache else "full", record):
        verdict, kernel = J.emulator_verdict(task, pipe.steps[-1].build, pipe.program, settings, "full")
        if args.sizecheck and verdict.passed:
            J.size_checks(task, pipe.steps[-1].build, pipe.program, settings, "full", dsl=path.read_text(), filename=path.name)
    wall, cpu = (b - a for a, b in zip((w0, c0), Phases._now()))
    print(f"{task.id} at its full shapes: {verdict.kind}, {len(verdict.trials)} trial(s); wall {wall:.1f} s at load average "
          f"{load0:.1f} -> {os.getloadavg()[0]:.1f}; CPU {cpu:.1f} s in this process + {p.kernel_cpu:.1f} s in "
          f"{p.kernel_runs} kernel processes; block cache: {record.get('block_cache', 'off')}; draws: "
          f"{kernel.draws_text() or 'none placed'}\n")
    print("| phase | calls | wall s | CPU s (this process) |")
    print("|---|---:|---:|---:|")
    for name, (w, c, n) in sorted(p.totals.items(), key=lambda kv: -kv[1][1]):
        print(f"| {name} | {n} | {w:.1f} | {c:.1f} |")
    print(f"| kernel processes' own CPU | {p.kernel_runs} | — | {p.kernel_cpu:.1f} |")
    if not verdict.passed: print("\n" + (verdict.trials[-1].message if verdict.trials else verdict.summary)[:500])


if __name__ == "__main__":
    main()
