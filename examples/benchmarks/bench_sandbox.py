"""Overhead of the sandbox (ascendcraft.sandbox) on emulator runs, builds and benchmark tasks.

Every g++ build and every emulated kernel run starts bubblewrap (namespaces, binds) and, for kernels, the seccomp
launcher. This script measures what that costs by running the same work twice: through the sandbox, and with
`sandbox.wrap` replaced by the plain command line AscendCraft used before the sandbox (for measurement only).

Reports, in one run:
  (a) one emulated run of a small kernel (median of R runs, the build cached): sandboxed vs plain;
  (b) one g++ build of a kernel (cache off, median of 3): sandboxed vs plain;
  (c) benchmark tasks end to end (lower, honesty scan, verify, trace, cost), run in this process one after the
      other with a warm build cache, each task sandboxed then plain: the totals and the ratio.
The sandboxed and plain measurements alternate, so a busy machine slows both alike.

Usage:  .venv/bin/python examples/benchmarks/bench_sandbox.py [--repeats R] [--tasks relu,softmax,...]
"""
import argparse
import contextlib
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from ascendcraft import sandbox
from ascendcraft.bench import plan, run_task
from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, dies_with_this_process, run
from ascendcraft.taskset import registry

ROOT = Path(__file__).resolve().parents[2]
KERNEL = (ROOT / "tests" / "hostile" / "output_symlink.cpp").read_text().replace(
    '    unlink("gm1.bin");\n    symlink("/etc/hostname", "gm1.bin");\n    unlink("report.jsonl");\n'
    '    symlink("/etc/hostname", "report.jsonl");\n', "")


def _plain_wrap(argv, *, scratch, limits, settings, readable=(), programs=None, kernel=False, cwd=None, env=None,
                proc=False):
    "The command line without any sandbox: for measuring the sandbox's cost only."
    programs = {k: str(v) for k, v in (programs or {}).items()}
    argv = [str(a) for a in argv]
    if argv and argv[0] in programs: argv[0] = programs[argv[0]]
    # as AscendCraft started g++ and kernels before the sandbox: the user's environment, a preexec_fn for the
    # parent-death signal, a new session
    return sandbox.Command(argv, {**os.environ, **(env or {})}, dies_with_this_process(), str(Path(cwd or scratch)), False)


@contextlib.contextmanager
def plain():
    saved = sandbox.wrap
    sandbox.wrap = _plain_wrap
    try: yield
    finally: sandbox.wrap = saved


def interleaved(fn, repeats: int) -> tuple[float, float]:
    "Median seconds of fn() sandboxed and plain, the two alternating (the machine's load hits both alike)."
    boxed, bare = [], []
    for _ in range(repeats):
        t0 = time.perf_counter(); fn(); boxed.append(time.perf_counter() - t0)
        with plain():
            t0 = time.perf_counter(); fn(); bare.append(time.perf_counter() - t0)
    return statistics.median(boxed), statistics.median(bare)


def one_run(repeats: int) -> tuple[float, float]:
    b = build({"copy.cpp": KERNEL})
    x = np.arange(4096, dtype=np.float32)
    args = [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(4096)]
    go = lambda: run(b, args, block_dim=1)
    go()
    return interleaved(go, repeats)


def one_build() -> tuple[float, float]:
    return interleaved(lambda: build({"copy.cpp": KERNEL + f"\n// {time.time_ns()}\n"}), 3)   # a new cache key each time


def tasks(names: list[str]) -> tuple[float, float]:
    "Seconds for the tasks end to end, sandboxed and plain, task by task alternating (warm build cache)."
    settings = load_settings()
    with tempfile.TemporaryDirectory() as d:
        def specs(tag):
            return plan(list(registry(tasks=names)), ROOT / "examples", Path(d) / tag, size="small", timing=True,
                        source="expert", settings=settings, task_timeout=900)
        def timed(spec):
            t0 = time.perf_counter()
            r = run_task(spec)
            assert r.status == "ok", (spec.task, r.status, r.message)
            return time.perf_counter() - t0
        for s in specs("warm"): timed(s)             # builds and the native scheduler cached
        boxed = bare = 0.0
        for a, b in zip(specs("sandboxed"), specs("plain")):
            boxed += timed(a)
            with plain(): bare += timed(b)
    return boxed, bare


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--tasks", default="relu,softmax,sgd,layer_norm,sum_reduction_over_a_dimension,gelu,tanh,mse_loss")
    a = p.parse_args()
    print(sandbox.probe().summary(True))
    boxed, bare = one_run(a.repeats)
    print(f"one emulated run (median of {a.repeats}): sandboxed {boxed * 1e3:.1f} ms, plain {bare * 1e3:.1f} ms, "
          f"+{(boxed - bare) * 1e3:.1f} ms ({boxed / bare:.2f}x)")
    boxed, bare = one_build()
    print(f"one g++ kernel build (median of 3): sandboxed {boxed:.2f} s, plain {bare:.2f} s ({boxed / bare:.2f}x)")
    names = a.tasks.split(",")
    boxed, bare = tasks(names)
    print(f"{len(names)} benchmark tasks end to end (warm cache, serial): sandboxed {boxed:.1f} s, plain {bare:.1f} s "
          f"({boxed / bare:.2f}x)")


if __name__ == "__main__":
    main()
