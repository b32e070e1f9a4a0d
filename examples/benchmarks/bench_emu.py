"""Benchmark of AscendCraft's CPU emulation of AscendC.

Reports, in one run:
  (a) build times: the runtime library and the precompiled kernel_operator.h (once per machine), a kernel
      build with a cold cache, and a cache hit;
  (b) the emulated throughput of an elementwise kernel (ReLU over float32, 48 blocks, 8192-element
      tiles, double-buffered) against NumPy doing the same operation on the same data;
  (c) the time to trace that kernel at full MultiKernelBench shape (4096 x 393216 float32 = 1.6e9
      elements, 6.4 GB per tensor, never allocated).

Usage:  .venv/bin/python examples/benchmarks/bench_emu.py [--elements N] [--repeats R]
"""
import argparse
import tempfile
import time

import numpy as np

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, precompiled_header, run, runtime_library, trace

RELU_TILED = r"""
#include "kernel_operator.h"
using namespace AscendC;

// y = max(x, 0): each block streams its slice through double-buffered VECIN / VECOUT queues.
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
BLOCKS, TILE = 48, 8192


def best(f, repeats):
    "Minimum wall time of `repeats` calls of f, and its last result."
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=BLOCKS * TILE * 16, help="elements of the throughput run")
    ap.add_argument("--repeats", type=int, default=5)
    opts = ap.parse_args()
    rows = []

    # (a) build times, in a cache of our own so "cold" really is cold
    with tempfile.TemporaryDirectory(prefix="bench-emu-cache-") as cache:
        fresh = load_settings().replace(cache_dir=cache)
        t0 = time.perf_counter()
        runtime_library(fresh)
        rows.append(("runtime library build (once per machine)", f"{time.perf_counter() - t0:.2f} s", ""))
        t0 = time.perf_counter()
        pch = precompiled_header(fresh)
        rows.append(("precompiled kernel_operator.h (once per machine and flags)", f"{time.perf_counter() - t0:.2f} s",
                     "made" if pch else "none for these flags"))
        cold = build({"relu_tiled.cpp": RELU_TILED}, settings=fresh)
        assert cold.ok and not cold.cached, cold.diagnostics
        rows.append(("kernel build, cold cache", f"{cold.seconds:.3f} s", " ".join(cold.command[:4]) + " ..."
                     + (" (precompiled header)" if cold.pch else "")))
        hit_s, hit = best(lambda: build({"relu_tiled.cpp": RELU_TILED}, settings=fresh), opts.repeats)
        assert hit.cached
        rows.append(("kernel build, cache hit", f"{hit_s * 1000:.1f} ms", ""))

    # (b) throughput against NumPy on the same data
    b = build({"relu_tiled.cpp": RELU_TILED})
    n = opts.elements // (BLOCKS * TILE) * BLOCKS * TILE
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    args = [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(n), Scalar(TILE)]
    run_s, r = best(lambda: run(b, args, block_dim=BLOCKS), opts.repeats)
    assert r.ok, r.diagnostics
    child_s = min(run(b, args, block_dim=BLOCKS).seconds for _ in range(opts.repeats))
    out = np.empty_like(x)
    numpy_s, _ = best(lambda: np.maximum(x, 0, out=out), opts.repeats)
    np.testing.assert_array_equal(r.outputs["y"], out)
    mb = x.nbytes / 1e6
    rows.append((f"ReLU {n:,} float32 ({mb:.0f} MB): emulator run()", f"{run_s:.3f} s",
                 f"{n / run_s / 1e6:.0f} M elem/s, {run_s / numpy_s:.0f}x NumPy (files in, checks, files out)"))
    rows.append(("  of which the kernel process", f"{child_s:.3f} s", f"{n / child_s / 1e6:.0f} M elem/s, {child_s / numpy_s:.0f}x NumPy"))
    rows.append(("  NumPy np.maximum(x, 0)", f"{numpy_s * 1000:.1f} ms", f"{n / numpy_s / 1e6:.0f} M elem/s"))
    small = [GM("x", x[:BLOCKS * TILE]), GM("y", np.empty(BLOCKS * TILE, np.float32), "out"), Scalar(BLOCKS * TILE), Scalar(TILE)]
    small_s, _ = best(lambda: run(b, small, block_dim=BLOCKS), opts.repeats)
    rows.append((f"small run ({BLOCKS * TILE:,} elements, 48 blocks)", f"{small_s * 1000:.1f} ms", "per-run overhead of a small kernel"))

    # (c) trace at full MultiKernelBench shape
    shape = (4096, 393216)
    targs = [GM("x", None, "in", shape=shape, dtype=np.float32), GM("y", None, "out", shape=shape, dtype=np.float32),
             Scalar(shape[0] * shape[1]), Scalar(TILE)]
    t0 = time.perf_counter()
    t = trace(b, targs, block_dim=BLOCKS, reuse=False)
    trace_s = time.perf_counter() - t0
    rows.append((f"trace {shape[0]}x{shape[1]} float32 (1.6e9 elements), 48 blocks", f"{trace_s:.2f} s",
                 f"{len(t):,} records ({t.records.nbytes / 1e6:.0f} MB), kernel process {t.meta['seconds']:.2f} s"))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'time':>10}  notes")
    print("-" * (width + 40))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>10}  {note}")


if __name__ == "__main__":
    main()
