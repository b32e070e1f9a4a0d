"""The emulator against NumPy, side by side in one run: an elementwise op, a reduction and a row-wise op.

For each kernel it reports the ratio emulator / NumPy of
  * run():        the whole call (input files written, while the kernel process starts, kernel process, every rule
                  check, outputs read back);
  * process:      the kernel process alone (what `Run.seconds` measures), its blocks on `emu_threads` threads, and
                  again one block at a time;
  * process CPU:  user + system CPU time of the kernel process (its own getrusage, `Run.cpu_seconds`) against
                  NumPy's CPU time (steadier than wall time on a machine other processes share);
  * run() CPU:    that plus this process's CPU during run() (writing the input files, reading the report, mapping
                  the outputs): what the whole call costs on a machine others share;
  * trace:        trace mode at the same size (no data, every instruction recorded), wall time of the whole call and
                  CPU time of its kernel process.
Runs are called as the benchmark and the judge call them: with the settings passed, the same build run again
(so the GM files of its last run are reused: setting gm_keep_mb).
It runs the NumPy op once more on arrays mapped from files where the GM files go (`emu.gm_root`: a tmpfs with 2 MiB
pages under setting gm_huge_pages = auto when there is one, else /dev/shm with 4 KiB pages; NumPy's own arrays get
2 MiB transparent huge pages): what memory speed means for an emulator whose GM is shared through files.
It also times the sandbox's start (bubblewrap and the seccomp launcher running a program that does nothing: the
fixed cost inside every kernel-process row), the runtime library's cold build (in a fresh cache: its wall time and its
compilers' CPU time) and a warm one (cache hit), and prints the load average, since ratios measured on a busy machine
are worse than on a quiet one. It ends with the wall-time ratios issue 17 sets goals for.
On a machine others share, compare the CPU-time rows: wall times there measure the other processes too.

It also runs the ReLU kernel on small tiles (64 floats) and reports instructions per second: the fixed cost of each
API call, which dominates kernels that issue many small instructions.

Usage:  .venv/bin/python examples/benchmarks/bench_speed.py [--elements N] [--repeats R] [--skip-cold-build]
                                                             [--small-elements N]
"""
import argparse
import os
import resource
import subprocess
import tempfile
import time

import numpy as np

from ascendcraft.config import load_settings
from ascendcraft import sandbox
from ascendcraft.emu import (GM, INCLUDE_DIR, RUNTIME_DIR, RUNTIME_FLAGS, Scalar, SharedInputs, build, gm_root, run,
                             runtime_library, runtime_sources, runtime_units, trace)

BLOCKS, TILE, ROW = 48, 8192, 64      # 48 blocks, 8192-float tiles, 64-float rows (one 256-byte repeat)
SMALL_TILE = 64                        # the per-instruction case: 64-float (256-byte) tiles

HEAD = r"""
#include "kernel_operator.h"
using namespace AscendC;
"""

# y = max(x, 0): the elementwise case (level-2 API, one Relu per tile).
RELU = HEAD + r"""
extern "C" __global__ __aicore__ void relu_tiled(GM_ADDR x, GM_ADDR y, uint64_t total, uint32_t tile)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint64_t perBlock = total / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + perBlock * GetBlockIdx(), perBlock);
    pipe.InitBuffer(inQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(outQueue, 2, tile * sizeof(float));
    for (uint64_t off = 0; off < perBlock; off += tile) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[off], tile);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Relu(yLocal, xLocal, tile);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[off], yLocal, tile);
        outQueue.FreeTensor(yLocal);
    }
}
"""

# y[r] = sum of row r of x viewed as (N / 64, 64): the reduction case (WholeReduceSum, one value per repeat).
ROW_SUM = HEAD + r"""
extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR y, uint64_t total, uint32_t tile)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    const uint32_t rows = tile / 64;
    uint64_t perBlock = total / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + perBlock / 64 * GetBlockIdx(), perBlock / 64);
    pipe.InitBuffer(inQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(outQueue, 2, rows * sizeof(float));
    for (uint64_t off = 0; off < perBlock; off += tile) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[off], tile);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> sums = outQueue.AllocTensor<float>();
        WholeReduceSum<float>(sums, xLocal, 64, rows, 1, 1, 8);
        outQueue.EnQue(sums);
        inQueue.FreeTensor(xLocal);
        sums = outQueue.DeQue<float>();
        DataCopy(yGm[off / 64], sums, rows);
        outQueue.FreeTensor(sums);
    }
}
"""

# y = x - rowmax(x) for x viewed as (N / 64, 64): the row-wise case (WholeReduceMax, Brcb, level-0 Sub with a
# broadcast operand: block stride 0).
ROW_CENTER = HEAD + r"""
extern "C" __global__ __aicore__ void row_center(GM_ADDR x, GM_ADDR y, uint64_t total, uint32_t tile)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> maxBuf, bcastBuf;
    GlobalTensor<float> xGm, yGm;
    const uint32_t rows = tile / 64;
    uint64_t perBlock = total / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + perBlock * GetBlockIdx(), perBlock);
    pipe.InitBuffer(inQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(outQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(maxBuf, rows * sizeof(float));
    pipe.InitBuffer(bcastBuf, rows * 8 * sizeof(float));
    LocalTensor<float> rowMax = maxBuf.Get<float>();
    LocalTensor<float> bcast = bcastBuf.Get<float>();
    for (uint64_t off = 0; off < perBlock; off += tile) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[off], tile);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        WholeReduceMax<float>(rowMax, xLocal, 64, rows, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
        Brcb(bcast, rowMax, rows / 8, {1, 8});
        Sub(yLocal, xLocal, bcast, 64, rows, {1, 1, 0, 8, 8, 1});
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[off], yLocal, tile);
        outQueue.FreeTensor(yLocal);
    }
}
"""


def best(f, repeats):
    "(min wall seconds, min CPU seconds of this process, last result) over `repeats` calls."
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        out = None                       # the last result is gone before the next call (its GM files can be reused)
        c0, t0 = time.process_time(), time.perf_counter()
        out = f()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus), out


CASES = [  # name, kernel source, output elements per input element, NumPy version (writing into `out`)
    ("elementwise: relu", RELU, 1, lambda x, out: np.maximum(x, 0, out=out)),
    ("reduction: sum of 64-float rows", ROW_SUM, 1 / ROW, lambda x, out: np.sum(x.reshape(-1, ROW), axis=1, out=out)),
    ("row-wise: x - rowmax(x)", ROW_CENTER, 1,
     lambda x, out: np.subtract(x.reshape(-1, ROW), x.reshape(-1, ROW).max(axis=1, keepdims=True), out=out.reshape(-1, ROW))),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=BLOCKS * TILE * 43, help="input floats (default 16.9 M)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-cold-build", action="store_true", help="do not time a runtime build in a fresh cache")
    ap.add_argument("--small-elements", type=int, default=BLOCKS * SMALL_TILE * 1000,
                    help="input floats of the small-tile case (default 3.1 M: 48,000 tiles)")
    opts = ap.parse_args()
    load = os.getloadavg()[0]
    rows, goals = [], []

    if not opts.skip_cold_build:
        with tempfile.TemporaryDirectory(prefix="bench-speed-cache-") as cache:
            fresh = load_settings().replace(cache_dir=cache)
            load_build = os.getloadavg()[0]
            t0 = time.perf_counter()
            runtime_library(fresh, progress=lambda message: None)
            cold = time.perf_counter() - t0
            t0 = time.perf_counter()
            runtime_library(fresh)
            warm = time.perf_counter() - t0
        # the compilers' CPU time: the same units compiled again one after another outside the sandbox (whose
        # processes' CPU time does not reach this process), with the flags of runtime_library
        gxx_cpu, per_unit = 0.0, []
        with tempfile.TemporaryDirectory(prefix="bench-speed-units-") as tmp:
            for name, files, cold_unit in runtime_units(runtime_sources()):
                unit = os.path.join(tmp, f"{name}.cpp")
                with open(unit, "w") as f: f.write("".join(f'#include "{s}"\n' for s in files))
                flags = [("-O1" if g == "-O3" and cold_unit else g) for g in RUNTIME_FLAGS]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([load_settings().cxx, *flags, "-I", str(INCLUDE_DIR), "-c", unit, "-o", unit + ".o"], check=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                per_unit.append((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime))
                gxx_cpu += per_unit[-1]
        units = len(runtime_units(runtime_sources()))
        rows.append(("runtime library, cold build", f"{cold:.1f} s",
                     f"wall at load {load_build:.1f}, {units} g++ runs (translation units) in parallel on {os.cpu_count()} cores"))
        rows.append(("  the compilers' CPU time", f"{gxx_cpu:.1f} s",
                     f"user + system of the {units} units compiled again one after another ({' / '.join(f'{c:.1f}' for c in per_unit)} s): "
                     f"at least max(sum / {os.cpu_count()} cores, largest unit) = "
                     f"{max(gxx_cpu / max(1, os.cpu_count()), max(per_unit)):.1f} s of wall on idle cores"))
        rows.append(("runtime library, warm (cache hit)", f"{warm * 1000:.1f} ms", f"{cold / max(warm, 1e-9):,.0f}x faster than cold"))

    settings = load_settings()
    one_thread = settings.replace(emu_threads=1)
    # the fixed cost of every kernel run: bubblewrap + the seccomp launcher starting a program that does nothing
    with tempfile.TemporaryDirectory(prefix="bench-speed-start-") as scratch:
        start_s, _, done = best(lambda: sandbox.run(["true"], scratch=scratch, limits=sandbox.Limits(30), settings=settings,
                                                   programs={"true": "/usr/bin/true"}, kernel=True), max(5, opts.repeats))
        assert done.returncode == 0, done.stderr
    rows.append(("sandbox start (bubblewrap + seccomp launcher, a no-op program)", f"{start_s * 1000:.1f} ms",
                 "wall, best of the repeats: part of every kernel process row below"))
    n = opts.elements // (BLOCKS * TILE) * BLOCKS * TILE
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    for name, source, ratio, numpy_op in CASES:
        b = build({"kernel.cpp": source})
        assert b.ok, b.diagnostics
        m = int(n * ratio)
        args = [GM("x", x), GM("y", None, "out", shape=(m,), dtype=np.float32), Scalar(n), Scalar(TILE)]
        run_s, run_parent_cpu, r = best(lambda: run(b, args, block_dim=BLOCKS, settings=settings), opts.repeats)
        assert r.ok, r.diagnostics
        # as verify runs a kernel: the input set held once in shared files (SharedInputs), linked into each run; the
        # input drawn straight into its file (the same draw as x), not drawn elsewhere and copied
        shared = SharedInputs(settings)
        xs_shared = shared.empty((n,), np.float32)
        np.random.default_rng(0).standard_normal(dtype=np.float32, out=xs_shared)
        sargs = [GM("x", xs_shared), *args[1:]]
        shared_s, shared_parent_cpu, rs = best(lambda: run(b, sargs, block_dim=BLOCKS, settings=settings, inputs=shared),
                                               opts.repeats)
        assert rs.ok and shared.linked >= opts.repeats and np.array_equal(rs.outputs["y"], r.outputs["y"])
        assert np.array_equal(xs_shared, x)
        shared_child_cpu = rs.cpu_seconds
        del rs, xs_shared, sargs
        shared.close()
        child_s = run_cpu = serial_s = float("inf")
        for _ in range(opts.repeats):      # one result alive at a time (besides r), as in a loop over runs
            k = run(b, args, block_dim=BLOCKS, settings=settings)
            child_s, run_cpu = min(child_s, k.seconds), min(run_cpu, k.cpu_seconds)
            del k
            k = run(b, args, block_dim=BLOCKS, settings=one_thread)
            serial_s = min(serial_s, k.seconds)
            assert np.array_equal(k.outputs["y"], r.outputs["y"])
            del k
        out = np.empty(m, np.float32)
        np_s, np_cpu, _ = best(lambda: numpy_op(x, out), opts.repeats)
        # the same NumPy op on memory like the kernel's GM: file pages where the GM files go (gm_root), where NumPy's
        # own arrays get 2 MiB pages (it asks for transparent huge pages); the floor of an emulator sharing GM through files
        with tempfile.TemporaryDirectory(prefix="bench-speed-shm-", dir=gm_root(settings)) as shm:
            xs, ys = (np.memmap(os.path.join(shm, f"{k}.bin"), np.float32, "w+", shape=(size,))
                      for k, size in (("x", n), ("y", m)))
            xs[:] = x
            shm_s, shm_cpu, _ = best(lambda: numpy_op(xs, ys), opts.repeats)
            del xs, ys
        np.testing.assert_allclose(r.outputs["y"], out, rtol=1e-5, atol=1e-5)
        targs = [GM("x", None, "in", shape=(n,), dtype=np.float32), GM("y", None, "out", shape=(m,), dtype=np.float32),
                 Scalar(n), Scalar(TILE)]
        trace_s, _, t = best(lambda: trace(b, targs, block_dim=BLOCKS, settings=settings, reuse=False), opts.repeats)
        trace_cpu = min(trace(b, targs, block_dim=BLOCKS, settings=settings, reuse=False).meta["cpu_seconds"] for _ in range(opts.repeats))
        rows.append((f"{name} ({n / 1e6:.1f} M floats)", f"{np_s * 1000:.1f} ms",
                     f"NumPy wall time (the 1.0x), load {os.getloadavg()[0]:.1f} after this case"))
        rows.append(("  NumPy on GM-file pages (the GM files' kind of memory)", f"{shm_s / np_s:.1f}x",
                     f"{shm_s * 1000:.0f} ms wall, CPU {shm_cpu / max(np_cpu, 1e-9):.1f}x NumPy's: files in {gm_root(settings)} "
                     f"(setting gm_huge_pages = {settings.gm_huge_pages})"))
        rows.append(("  emulator run()", f"{run_s / np_s:.1f}x", f"{run_s * 1000:.0f} ms: files in (while the kernel process starts), kernel process, checks, files out"))
        rows.append(("  emulator run(), input in a shared file (SharedInputs, as verify)", f"{shared_s / np_s:.1f}x",
                     f"{shared_s * 1000:.0f} ms: the input file linked, not written; CPU "
                     f"{(shared_parent_cpu + shared_child_cpu) / max(np_cpu, 1e-9):.1f}x NumPy's "
                     f"({shared_parent_cpu * 1000:.0f} + {shared_child_cpu * 1000:.0f} ms)"))
        rows.append(("  kernel process", f"{child_s / np_s:.1f}x",
                     f"{child_s * 1000:.0f} ms, every rule check on, blocks on {r.threads} thread(s) (emu_threads)"))
        rows.append(("  kernel process, one block at a time", f"{serial_s / np_s:.1f}x", f"{serial_s * 1000:.0f} ms (emu_threads = 1)"))
        rows.append(("  kernel process CPU / NumPy CPU", f"{run_cpu / max(np_cpu, 1e-9):.1f}x",
                     f"{run_cpu * 1000:.0f} ms vs {np_cpu * 1000:.0f} ms of CPU"))
        rows.append(("  run() CPU (this process + kernel process) / NumPy CPU", f"{(run_parent_cpu + run_cpu) / max(np_cpu, 1e-9):.1f}x",
                     f"{run_parent_cpu * 1000:.0f} + {run_cpu * 1000:.0f} ms: input files written, outputs mapped, checks"))
        rows.append(("  trace mode", f"{trace_s / np_s:.1f}x", f"{trace_s * 1000:.0f} ms, {len(t):,} records"))
        rows.append(("  trace kernel process CPU / NumPy CPU", f"{trace_cpu / max(np_cpu, 1e-9):.1f}x",
                     f"{trace_cpu * 1000:.0f} ms vs {np_cpu * 1000:.0f} ms of CPU"))
        within = lambda t, k: f"{t / np_s:.1f}x ({'within' if t <= k * np_s else 'not within'} {k}x)"
        goals.append(f"{name}: execute run() {within(run_s, 3)}, run() with shared inputs {within(shared_s, 3)}, "
                     f"kernel process {within(child_s, 3)}; "
                     f"trace {within(trace_s, 1.5)}")

    # per-instruction cost: the same ReLU kernel on small tiles (SMALL_TILE floats: one 256-byte repeat per
    # instruction), as the row-wise and many real tasks issue them; every instruction pays the fixed costs of an API
    # call (its checks, the race check's bookkeeping, the queue protocol) on little data
    small_n = opts.small_elements // (BLOCKS * SMALL_TILE) * BLOCKS * SMALL_TILE
    xs_small = np.random.default_rng(1).standard_normal(small_n).astype(np.float32)
    b = build({"kernel.cpp": RELU})
    sargs = [GM("x", xs_small), GM("y", None, "out", shape=(small_n,), dtype=np.float32), Scalar(small_n), Scalar(SMALL_TILE)]
    small_cpu = small_wall = float("inf")
    for _ in range(opts.repeats):
        k = run(b, sargs, block_dim=BLOCKS, settings=one_thread)
        assert k.ok, k.diagnostics
        np.testing.assert_array_equal(k.outputs["y"], np.maximum(xs_small, 0))
        small_cpu, small_wall, work = min(small_cpu, k.cpu_seconds), min(small_wall, k.seconds), k.work
        del k
    instructions = sum(n for n, _ in work.values())
    rows.append((f"small tiles: ReLU on {SMALL_TILE}-float tiles ({small_n / 1e6:.1f} M floats), one block at a time",
                 f"{instructions / small_cpu / 1e6:.1f} M/s",
                 f"instructions per second of kernel-process CPU: {instructions:,} instructions "
                 f"({' / '.join(f'{p} {n:,}' for p, (n, _) in sorted(work.items()))}) in {small_cpu * 1000:.0f} ms of CPU, "
                 f"{small_cpu / instructions * 1e9:.0f} ns each with the queue calls around them; "
                 f"{small_wall * 1000:.0f} ms wall"))

    width = max(len(r[0]) for r in rows)
    print(f"load average at start {load:.1f}, at end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(ratios are worse on a busy machine)")
    print(f"{'measure':<{width}}  {'value':>12}  notes")
    print("-" * (width + 60))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>12}  {note}")
    print("\nissue 17's goals, wall time against NumPy's in this run (execute within 3x, trace within 1.5x):")
    for line in goals:
        print(f"  {line}")


if __name__ == "__main__":
    main()
