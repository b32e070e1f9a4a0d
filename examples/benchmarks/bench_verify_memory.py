"""Memory of one full-shape verification, against the size of one input set.

Verifies a task's expert kernel at its full shapes (the judge's path: `judge.emulator_verdict`, two poison runs per
trial) and reports this process's peak RSS growth plus the peak growth of /dev/shm (the emulator's GM files live
there), as a multiple of one input set's tensors (inputs + outputs). `bench --size auto` budgets a full-shape
verification by its estimated peak (`bench.verification_memory`); `bench_full_shapes.py` compares the two for every task.
/dev/shm is shared by the whole machine, so run this on a quiet one: other processes' files count too.

Usage:  .venv/bin/python examples/benchmarks/bench_verify_memory.py [TASK] [--trials N]
"""
import argparse
import resource
import shutil
import threading
import time
from pathlib import Path

from ascendcraft.bench import full_shape_load
from ascendcraft.config import load_settings
from ascendcraft.judge import emulator_verdict
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import registry

EXAMPLES = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task", nargs="?", default="max_pooling_1d")
    ap.add_argument("--trials", type=int, default=1, help="input sets of each phase (MultiKernelBench's and signed)")
    args = ap.parse_args()
    settings = load_settings().replace(trials=args.trials)
    task = registry(None, [args.task])[0]
    path = EXAMPLES / task.category / f"{task.id}.py"
    pipe = Pipeline(path.read_text(), path.name, task=task, settings=settings)
    pipe.run_all()
    base, peak, stop = shutil.disk_usage("/dev/shm").used, [0], threading.Event()

    def watch():
        while not stop.is_set():
            peak[0] = max(peak[0], shutil.disk_usage("/dev/shm").used - base)
            time.sleep(0.02)
    threading.Thread(target=watch, daemon=True).start()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    verdict, _ = emulator_verdict(task, pipe.steps[-1].build, pipe.program, settings, "full")
    seconds = time.perf_counter() - t0
    stop.set()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    nbytes, _ = full_shape_load(task)
    print(f"{task.id}: {verdict.kind}, {len(verdict.trials)} trial(s) in {seconds:.0f} s; one input set {nbytes / 2**20:.0f} MiB; "
          f"peak RSS growth {(after - before) / 2**20:.0f} MiB + /dev/shm {peak[0] / 2**20:.0f} MiB = "
          f"{(after - before + peak[0]) / nbytes:.2f}x one input set")


if __name__ == "__main__":
    main()
