"""How fast are the cost model and the eager model at full MultiKernelBench shapes?

Run:  .venv/bin/python examples/benchmarks/bench_cost.py [--skip-python] [--examples cumsum max_pooling_2d softmax ...]

Prints two tables: (1) scheduling a synthetic full-shape trace (relu over 4096x393216 float32, tile
8192, 48 blocks: 2.16 M records) with the native and the Python scheduler, including the one-time
build of the native scheduler; (2) the modelled eager time of a few full-shape references and the
wall time it takes to model them. All times in the "modelled" columns are model outputs, not
measurements on an NPU. With --examples, (3): the expert DSL examples lowered, traced at full
MultiKernelBench shape and costed — wall and CPU seconds per step (CPU seconds are what to compare
on a shared machine), with and without the L2 model.
"""
import resource
from pathlib import Path
import argparse
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from ascendcraft.config import load_settings
from ascendcraft.cost import kernel_time, tiled_trace
from ascendcraft.eager import TensorSpec, eager_time
from ascendcraft.soc import load_soc
from ascendcraft.trace import Kind, Pipe


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def distinct_blocks(trace):
    "Make every block's records differ a little, so no block can reuse another's schedule."
    r = trace.records
    first = np.searchsorted(r["core"], np.arange(trace.block_dim))
    copies = np.flatnonzero((r["kind"] == Kind.INSTR) & (r["pipe"] == Pipe.MTE2))
    for b in range(trace.block_dim):
        r["bytes"][copies[np.searchsorted(copies, first[b])]] += 32 * b
    return trace


def bench_kernel(skip_python: bool):
    soc = load_soc()
    trace, t_build = timed(lambda: tiled_trace(4096 * 393216, tile=8192, bufs=2, blocks=48))
    rows = [("build synthetic trace", f"{len(trace):,}", t_build, "")]
    with tempfile.TemporaryDirectory() as cache:            # cold: compile the native scheduler first
        cold = load_settings(cache_dir=cache)
        cost, t = timed(lambda: kernel_time(trace, soc, settings=cold, engine="native"))
        rows.append(("native, cold (includes g++ build)", f"{len(trace):,}", t, f"{cost.total_us:,.1f}"))
    cost, t = timed(lambda: kernel_time(trace, soc, engine="native"))
    rows.append(("native, identical blocks", f"{len(trace):,}", t, f"{cost.total_us:,.1f}"))
    if not skip_python:
        cost, t = timed(lambda: kernel_time(trace, soc, engine="python"))
        rows.append(("python, identical blocks", f"{len(trace):,}", t, f"{cost.total_us:,.1f}"))
    distinct = distinct_blocks(tiled_trace(4096 * 393216, tile=8192, bufs=2, blocks=48))
    cost, t = timed(lambda: kernel_time(distinct, soc, engine="native"))
    rows.append(("native, 48 distinct blocks", f"{len(distinct):,}", t, f"{cost.total_us:,.1f}"))
    if not skip_python:
        cost, t = timed(lambda: kernel_time(distinct, soc, engine="python"))
        rows.append(("python, 48 distinct blocks", f"{len(distinct):,}", t, f"{cost.total_us:,.1f}"))
    print(f"\nKernel cost model — relu 4096x393216 f32, tile 8192, 48 blocks ({cost.label}, {cost.verdict})")
    print("| step | records | wall s | modelled µs |\n|---|---:|---:|---:|")
    for name, n, t, us in rows:
        print(f"| {name} | {n} | {t:.2f} | {us} |")


def adam(p, g, m, v):
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g * g
    return p - 1e-3 * (m / 0.1) / (torch.sqrt(v / 0.001) + 1e-8)


REFERENCES = {
    "relu (4096x393216)": (torch.relu, [TensorSpec((4096, 393216))]),
    "softmax dim=1 (4096x393216)": (lambda x: torch.softmax(x, dim=1), [TensorSpec((4096, 393216))]),
    "layer_norm (64,64,256,256)": (nn.LayerNorm((64, 256, 256)), [TensorSpec((64, 64, 256, 256))]),
    "batch_norm train (64,64,512,512)": (nn.BatchNorm2d(64), [TensorSpec((64, 64, 512, 512))]),
    "cross_entropy (32768x4096)": (F.cross_entropy, [TensorSpec((32768, 4096)), TensorSpec((32768,), torch.int64)]),
    "max_pool2d k4 s1 p1 (32,64,512,512)": (nn.MaxPool2d(4, 1, 1), [TensorSpec((32, 64, 512, 512))]),
    "sum dim=1 (128,4096,4096)": (lambda x: x.sum(1, keepdim=True), [TensorSpec((128, 4096, 4096))]),
    "adam step (512x2048)": (adam, [TensorSpec((512, 2048))] * 4),
}


def bench_eager():
    soc = load_soc()
    eager_time(torch.relu, [TensorSpec((8,))], soc)          # one-time load of torch's meta kernels
    print(f"\nEager model — full-shape references (modelled on {soc.name})")
    print("| reference | aten ops | GB moved | modelled µs | wall ms |\n|---|---:|---:|---:|---:|")
    for name, (model, inputs) in REFERENCES.items():
        cost, t = timed(lambda: eager_time(model, inputs, soc))
        print(f"| {name} | {len(cost.ops)} | {cost.bytes / 1e9:.2f} | {cost.total_us:,.1f} | {t * 1e3:.1f} |")


def cpu_seconds():
    "CPU seconds of this process and of its finished children (the emulator)."
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def bench_examples(names):
    from ascendcraft import cost
    from ascendcraft.bind import shape_bindings
    from ascendcraft.launch import trace_kernel
    from ascendcraft.pipeline import Pipeline
    from ascendcraft.taskset import get_task
    root = Path(__file__).resolve().parents[1]
    soc = load_soc()
    print(f"\nFull-shape examples: trace + cost ({soc.name})")
    print("| example | records | trace wall s | trace CPU s (emulator + load) | cost wall s | cost CPU s | modelled µs | "
          "no-L2 µs | L2 hits |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        path = next(p for p in root.glob(f"*/{name}.py") if p.parent.name != "benchmarks")
        task = get_task(name)
        pipe = Pipeline(path.read_text(), path.name, task=task)
        pipe.run_all()
        full = shape_bindings(pipe.program, task, ("full",))[0]
        (s0, c0), w0 = cpu_seconds(), time.perf_counter()
        tr = trace_kernel(pipe["align"].build, pipe.program, full)
        (s1, c1), w1 = cpu_seconds(), time.perf_counter()
        kc = cost.kernel_time(tr, soc)
        (s2, _), w2 = cpu_seconds(), time.perf_counter()
        plain = cost.kernel_time(tr, soc, l2=False)
        print(f"| {name} | {len(tr):,} | {w1 - w0:.2f} | {c1 - c0 + s1 - s0:.2f} | {w2 - w1:.2f} | {s2 - s1:.2f} | "
              f"{kc.total_us:,.1f} | {plain.total_us:,.1f} | {kc.l2_hit_bytes / max(kc.gm_bytes, 1):.0%} |", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-python", action="store_true", help="do not time the (slow) Python reference scheduler")
    ap.add_argument("--examples", nargs="*", default=None, help="also trace + cost these examples at full shape")
    args = ap.parse_args()
    bench_kernel(args.skip_python)
    bench_eager()
    if args.examples is not None: bench_examples(args.examples or ["cumsum", "max_pooling_2d", "softmax"])
