"""A benchmark task process's fixed costs: its imports, then `run_task` (every stage, in this process), for each task
named on the command line, each in a fresh process.

    python examples/benchmarks/bench_task_process.py elu sgd rms_norm [--size small]

Prints the CPU time of the imports and of the task's stages (this process; the kernel and g++ processes are not
counted), whether `torch._dynamo` was imported (1.6-1.8 s of CPU when it is) and the stage wall times. Run it twice:
the first run fills the content-addressed caches (builds, eager cost, output specs) that a warm bench reads."""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, time
from pathlib import Path
t0 = time.process_time()
from ascendcraft.bench import plan, run_task
from ascendcraft.config import load_settings
from ascendcraft.taskset import registry
t1 = time.process_time()
task, size, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
spec, = plan(list(registry(tasks=[task])), Path(sys.argv[4]), out, size=size, timing=True, source="expert",
             settings=load_settings(), task_timeout=900)
r = run_task(spec)
print(json.dumps({"task": task, "status": r.status, "import_cpu_s": round(t1 - t0, 2),
                  "task_cpu_s": round(time.process_time() - t1, 2), "torch._dynamo": "torch._dynamo" in sys.modules,
                  "stage_seconds": {k: round(v, 2) for k, v in r.stage_seconds.items()}}))
"""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tasks", nargs="+")
    p.add_argument("--size", default="small")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-task-") as tmp:
        for task in args.tasks:
            done = subprocess.run([sys.executable, "-c", CHILD, task, args.size, str(Path(tmp) / task), str(ROOT / "examples")],
                                  capture_output=True, text=True, cwd=ROOT)
            if done.returncode != 0: sys.exit(done.stderr[-2000:])
            print(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
