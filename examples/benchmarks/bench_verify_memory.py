"""Memory of one full-shape verification, against the size of one input set.

Verifies a task's expert kernel at its full shapes (the judge's path: `judge.emulator_verdict`, two poison runs per
trial, with the reference's block cache as a bench task process has it: `bench.reference_block_cache`, unless
`--no-block-cache`) and reports this process's peak RSS growth plus the peak growth of /dev/shm (the emulator's GM
files live there), as a multiple of one input set's tensors (inputs + outputs); and the peak of the two sampled
together (this process's anonymous memory, which the block cache is part of, plus the GM files) against the
task's estimate (`bench.verification_memory`, without its fixed overhead). `bench --size auto` budgets a full-shape
verification by its estimated peak (`bench.verification_memory`); `bench_full_shapes.py` compares the two for every task.
/dev/shm is shared by the whole machine, so run this on a quiet one: other processes' files count too.

Usage:  .venv/bin/python examples/benchmarks/bench_verify_memory.py [TASK] [--trials N] [--no-block-cache]
"""
import argparse
import resource
import shutil
import threading
import time
from pathlib import Path

from ascendcraft import emu
from ascendcraft.bench import VERIFY_OVERHEAD_MB, full_shape_load, reference_block_cache, verification_memory
from ascendcraft.config import load_settings
from ascendcraft.judge import emulator_verdict
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import registry

EXAMPLES = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task", nargs="?", default="max_pooling_1d")
    ap.add_argument("--trials", type=int, default=1, help="input sets of each phase (MultiKernelBench's and signed)")
    ap.add_argument("--no-block-cache", action="store_true", help="PyTorch's own allocator for the reference's blocks")
    args = ap.parse_args()
    settings = load_settings().replace(trials=args.trials)
    task = registry(None, [args.task])[0]
    path = EXAMPLES / task.category / f"{task.id}.py"
    pipe = Pipeline(path.read_text(), path.name, task=task, settings=settings)
    pipe.run_all()
    roots = sorted({"/dev/shm", emu.gm_root(settings) or "/dev/shm"})   # the GM files' 2 MiB-page tmpfs is its own mount
    used = lambda: sum(shutil.disk_usage(r).used for r in roots)
    base, peak, stop = used(), [0, 0], threading.Event()
    anon0 = anon_bytes()

    def watch():
        while not stop.is_set():
            shm = used() - base
            peak[0] = max(peak[0], shm)
            peak[1] = max(peak[1], shm + anon_bytes() - anon0)
            time.sleep(0.02)
    threading.Thread(target=watch, daemon=True).start()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    record = {}
    with reference_block_cache(task, settings, "small" if args.no_block_cache else "full", record):
        verdict, _ = emulator_verdict(task, pipe.steps[-1].build, pipe.program, settings, "full")
    seconds = time.perf_counter() - t0
    stop.set()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    nbytes, _ = full_shape_load(task)
    print(f"{task.id}: {verdict.kind}, {len(verdict.trials)} trial(s) in {seconds:.0f} s; one input set {nbytes / 2**20:.0f} MiB; "
          f"peak RSS growth {(after - before) / 2**20:.0f} MiB + GM files {peak[0] / 2**20:.0f} MiB = "
          f"{(after - before + peak[0]) / nbytes:.2f}x one input set")
    estimate = verification_memory(task, settings).peak - (VERIFY_OVERHEAD_MB << 20)
    print(f"sampled together: this process's anonymous memory + the GM files at most {peak[1] / 2**20:.0f} MiB, against the "
          f"estimate's tensors {estimate / 2**20:.0f} MiB; block cache: {record.get('block_cache', 'off')}")


def anon_bytes() -> int:
    "This process's anonymous resident memory (RssAnon): its heap and the block cache, not its file mappings."
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"): return int(line.split()[1]) * 1024
    return 0


if __name__ == "__main__":
    main()
