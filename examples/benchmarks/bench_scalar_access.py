"""Micro-benchmark: the emulator's cost of one scalar GetValue / SetValue.

Kernels that walk a tensor element by element on the scalar unit (GetValue / SetValue in a loop, the
style of many hand-written and LLM-written AscendC kernels) spend nearly all their emulated time in
these two calls, each of which runs the emulator's rule checks (bounds, the race check between the
pipes, uninitialised-UB tracking, GM buffer lookup and the overlap check between blocks). This
times a loop of N calls of each kind in the kernel process and reports nanoseconds per call:
(time at N - time at 0) / N, the best of `--repeats` runs, so process start-up and the launch's
fixed costs cancel.

    LocalTensor  GetValue   x = t.GetValue(i)       (UB, initialised by Duplicate)
    LocalTensor  SetValue   t.SetValue(i, v)
    GlobalTensor GetValue   x.GetValue(i) * w.GetValue(i)   (two inputs in turn, as a convolution's loop reads them)
    GlobalTensor SetValue   y.SetValue(i, v)        (the output buffer)
    GlobalTensor GetValue out   y.GetValue(i)       (the output buffer, after writing it)
    GlobalTensor GetValue GEMM  a GEMM written with GetValue: two dot products at once, x row against two w rows
                                 (three reads per step, as LLM-written GEMMs walk GM; `calls` reads in all)
    LocalTensor GetValue dot    a dot product of two UB tensors read with GetValue (a convolution that gathers its
                                 patch into UB and multiplies it there; two reads per step, `calls` reads in all)
    GlobalTensor SetValue rows  writes of two output rows of y in turn, an element of each (a convolution that computes
                                 two output rows at once; `calls` writes in all)
    LocalTensor SetValue tap    a 64-float UB vector filled with SetValue, then scaled and added to an accumulator
                                 with Muls / Add, over and over (a transposed convolution's tap: each tap gathers its
                                 weights into UB and the V pipe reads them; `calls` writes in all, the vector calls
                                 included in the time)
    LocalTensor SetValue taps4  a 64-float UB vector that DataCopy set, accumulated into with GetValue / SetValue from
                                 four lines in turn (a transposed convolution's four taps, each its own loop), then
                                 read by Muls (EvoKernel's ConvTranspose2dMishAddHardtanhScaling; `calls` writes in all)
    GlobalTensor GEMM out       a GEMM written as EvoKernel's scalar GEMMs are (GemmMultiplyLeakyRelu): per output, a
                                 128-step dot product of an x row and a w row read with GetValue, the sum in a local
                                 float, then one SetValue of the output (`calls` reads in all)
    Vector calls 64             small vector instructions on 64 floats, no scalar access: Add, then Maxs, Mins, Muls,
                                 Maxs, Mins, Muls, Adds in place, over and over (a transposed convolution's epilogue,
                                 EvoKernel's ConvTranspose2dBiasAddClampScalingClampDivide; `calls` vector calls in all,
                                 the cost is the emulator's fixed cost of one call)

Each kind runs with the race check on (the default, auto-sync on) and, for the UB kinds but the taps (which need
their S_V and V_S waits) and for the vector calls, with auto-sync off (the race check as written), in one block and in
8 blocks run in parallel.

Usage:  .venv/bin/python examples/benchmarks/bench_scalar_access.py [--calls N] [--repeats R] [--kinds 0,2,...]

Before / after a runtime change: run this file with PYTHONPATH at each tree (a frozen copy of the older commit, e.g.
`git archive <commit> | tar -x -C /tmp/old`); the kernel is built against that tree's runtime. Use --calls 20000000 or
more for the fast kinds: their whole loop is then tens of milliseconds, well above the run's start-up noise.
`--cxxflags` builds and runs the kernel with other compiler flags than settings.ini's (`-O2` against the default
`-O1`, say); the build's wall seconds are printed (0 when the cache held it).
"""
import argparse

import numpy as np

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run

SCALAR_LOOP = r"""
#include "kernel_operator.h"
using namespace AscendC;

// mode 0: UB GetValue, 1: UB SetValue, 2: GM GetValue of two inputs in turn (x, w: a convolution's loop), 3: GM
// SetValue, 4: GM GetValue of the output, 5: a GEMM's two dot products (x against two rows of w), 6: a dot product of
// two halves of t (UB), 7: GM SetValue of two rows of y in turn (y[0, 1024) and y[2048, 3072)), 8: 64 UB SetValue, then
// Muls of them and Add into t[0, 64), in turn (a transposed convolution's taps), 9: DataCopy to 64 floats, four loops of
// 64 UB read-add-writes of them at four lines, Muls reading them, 10: a GEMM's outputs, each a 128-step dot product of
// GM reads and one GM write, 11: `calls` vector instructions on 64 floats (Add, Maxs, Mins, Muls, ...), no scalar
// access; `calls` calls over a 4096-element window.
extern "C" __global__ __aicore__ void scalar_loop(GM_ADDR x, GM_ADDR w, GM_ADDR y, uint32_t mode, uint32_t calls)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 4096);
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<float> xGm, wGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + 4096 * GetBlockIdx(), 4096);
    wGm.SetGlobalBuffer((__gm__ float *)w, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y + 4096 * GetBlockIdx(), 4096);
    float acc = 0.0f;
    if (mode == 0) for (uint32_t i = 0; i < calls; ++i) acc += t.GetValue(i & 4095);
    if (mode == 1) for (uint32_t i = 0; i < calls; ++i) t.SetValue(i & 4095, static_cast<float>(i));
    if (mode == 2) for (uint32_t i = 0; i < calls; i += 2) acc += xGm.GetValue(i & 4095) * wGm.GetValue(i & 4095);
    if (mode == 3) for (uint32_t i = 0; i < calls; ++i) yGm.SetValue(i & 4095, static_cast<float>(i));
    if (mode == 7)   // before anything else writes y: two rows with a gap between them, as a convolution's output rows
        for (uint32_t i = 0; i + 2 <= calls; i += 2) {
            const uint32_t k = (i / 2) & 1023;
            yGm.SetValue(k, static_cast<float>(i));
            yGm.SetValue(2048 + k, static_cast<float>(i + 1));
        }
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < 4096; ++i) yGm.SetValue(i, acc);
    if (mode == 4) for (uint32_t i = 0; i < calls; ++i) acc += yGm.GetValue(i & 4095);
    if (mode == 4) yGm.SetValue(0, acc);
    if (mode == 5) {
        float acc1 = 0.0f;
        for (uint32_t i = 0; i + 3 <= calls; i += 3) {
            const uint32_t k = (i / 3) & 2047;
            const float xv = xGm.GetValue(k);
            acc += xv * wGm.GetValue(k);
            acc1 += xv * wGm.GetValue(2048 + k);
        }
        yGm.SetValue(0, acc + acc1);
    }
    if (mode == 8) {
        LocalTensor<float> wvec = t[2048];
        for (uint32_t i = 0; i + 64 <= calls; i += 64) {
            for (uint32_t co = 0; co < 64; ++co) wvec.SetValue(co, static_cast<float>(co + (i & 7)));
            Muls(wvec, wvec, 0.5f, 64);
            Add(t, t, wvec, 64);
        }
        PipeBarrier<PIPE_ALL>();
        yGm.SetValue(0, t.GetValue(0));
    }
    if (mode == 9) {
        LocalTensor<float> v = t[2048];
        for (uint32_t i = 0; i + 256 <= calls; i += 256) {
            DataCopy(v, t, 64);
            for (uint32_t co = 0; co < 64; ++co) v.SetValue(co, v.GetValue(co) + 0.5f);
            for (uint32_t co = 0; co < 64; ++co) v.SetValue(co, v.GetValue(co) + 0.25f);
            for (uint32_t co = 0; co < 64; ++co) v.SetValue(co, v.GetValue(co) + 0.125f);
            for (uint32_t co = 0; co < 64; ++co) v.SetValue(co, v.GetValue(co) + 0.0625f);
            Muls(t[1024], v, 2.0f, 64);
        }
        PipeBarrier<PIPE_ALL>();
        yGm.SetValue(0, t.GetValue(1024));
    }
    if (mode == 10) {   // after the loop above wrote y: GemmMultiplyLeakyRelu's inner loop, K = 128, 32 rows of w
        for (uint32_t i = 0; i + 256 <= calls; i += 256) {
            const uint32_t n = i / 256;
            const uint32_t xBase = (n & 15) * 128, wBase = 2048 + (n & 15) * 128;
            float sum = 0.0f;
            for (uint32_t k = 0; k < 128; ++k) {
                const float xv = xGm.GetValue(xBase + k);
                const float wv = wGm.GetValue(wBase + k);
                sum += xv * wv;
            }
            yGm.SetValue(n & 4095, sum);
        }
    }
    if (mode == 11) {   // a transposed convolution's epilogue: eight small vector instructions on one 64-float vector
        LocalTensor<float> v = t[2048], b = t[1024];
        for (uint32_t i = 0; i + 8 <= calls; i += 8) {
            Add(v, v, b, 64);
            Maxs(v, v, 0.0f, 64);
            Mins(v, v, 1.0f, 64);
            Muls(v, v, 2.0f, 64);
            Maxs(v, v, 0.0f, 64);
            Mins(v, v, 1.0f, 64);
            Muls(v, v, 0.5f, 64);
            Adds(v, v, -0.25f, 64);
        }
        PipeBarrier<PIPE_ALL>();
        yGm.SetValue(0, t.GetValue(2048));
    }
    if (mode == 6) {
        for (uint32_t i = 0; i + 2 <= calls; i += 2) {
            const uint32_t k = (i / 2) & 2047;
            acc += t.GetValue(k) * t.GetValue(2048 + k);
        }
        yGm.SetValue(0, acc);
    }
}
"""
KINDS = ["LocalTensor GetValue", "LocalTensor SetValue", "GlobalTensor GetValue", "GlobalTensor SetValue",
         "GlobalTensor GetValue out", "GlobalTensor GetValue GEMM", "LocalTensor GetValue dot", "GlobalTensor SetValue rows",
         "LocalTensor SetValue tap", "LocalTensor SetValue taps4", "GlobalTensor GEMM out", "Vector calls 64"]


def kernel_seconds(b, mode, calls, blocks, repeats, auto_sync, settings):
    "Least kernel-process CPU time (user + system) of `repeats` runs: the blocks may run in parallel."
    x = np.ones(4096 * blocks, np.float32)
    args = [GM("x", x), GM("w", np.ones(4096, np.float32)), GM("y", None, "out", shape=(4096 * blocks,), dtype=np.float32), Scalar(mode, "uint32"), Scalar(calls, "uint32")]
    best = None
    for _ in range(repeats):
        r = run(b, args, block_dim=blocks, auto_sync=auto_sync, settings=settings)
        assert r.ok, r.diagnostics
        best = r.cpu_seconds if best is None else min(best, r.cpu_seconds)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=4_000_000, help="calls per block")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--kinds", default=",".join(map(str, range(len(KINDS)))), help="the kinds to time, by number (0..11, as listed)")
    ap.add_argument("--cxxflags", help="the kernel's compiler flags instead of settings.ini's cxxflags")
    opts = ap.parse_args()
    settings = load_settings()
    if opts.cxxflags: settings = settings.replace(cxxflags=opts.cxxflags)
    b = build({"scalar_loop.cpp": SCALAR_LOOP}, settings=settings)
    assert b.ok, b.diagnostics
    print(f"kernel build ({settings.cxxflags}): {b.seconds:.2f} s wall")
    print(f"{'kind':<24} {'blocks':>6} {'auto_sync':>9} {'ns/call':>8}")
    for mode, kind in enumerate(KINDS):
        if str(mode) not in opts.kinds.split(","): continue
        for blocks in (1, 8):
            for auto_sync in ((True, False) if mode in (0, 1, 6, 11) else (True,)):
                base = kernel_seconds(b, mode, 0, blocks, opts.repeats, auto_sync, settings)
                full = kernel_seconds(b, mode, opts.calls, blocks, opts.repeats, auto_sync, settings)
                ns = (full - base) / (opts.calls * blocks) * 1e9
                print(f"{kind:<24} {blocks:>6} {str(auto_sync):>9} {ns:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
