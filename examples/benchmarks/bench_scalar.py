"""Scalar-loop kernels (the EvoKernel style) on the emulator against NumPy: execute and trace mode, side by side.

Many LLM-written AscendC kernels compute on the scalar unit: GlobalTensor / LocalTensor GetValue and SetValue per
element, millions of times. This times three such kernels, each written as those kernels are:

  gemm          y = relu(x @ w^T + b), one GM GetValue per operand and one GM SetValue per output (EvoKernel's
                GemmAddReluCustom: rows split across blocks, two output columns per step, k unrolled by 4)
  eltwise gm    y = relu(x * 2 + 1) elementwise, xGm.GetValue(i) / yGm.SetValue(i, v)
  eltwise ub    the same through UB: DataCopy a tile in, LocalTensor GetValue / SetValue per element, DataCopy it out
                (queues, as the kernels that stage tiles do)

and reports, for each, NumPy's wall time and the emulator's ratio to it: the kernel process's CPU seconds in execute
mode (`Run.cpu_seconds`, every rule checked) and in trace mode (`meta["cpu_seconds"]`), and the ns per scalar access
(kernel CPU / accesses). The load average is printed with the figures: on a shared machine compare CPU rows.

Usage:  .venv/bin/python examples/benchmarks/bench_scalar.py [--m M --k K --n N] [--elements E] [--blocks B]
                                                              [--repeats R] [--no-trace]
"""
import argparse
import os
import time

import numpy as np

from ascendcraft.emu import GM, Scalar, build, run, trace

HEAD = r"""
#include "kernel_operator.h"
using namespace AscendC;
"""

# EvoKernel's GemmAddReluCustom, as a plain kernel (its tiling's fields as arguments).
GEMM = HEAD + r"""
extern "C" __global__ __aicore__ void gemm_scalar(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, uint32_t M, uint32_t K,
                                                  uint32_t N, uint32_t rowsPerBlock)
{
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    wGm.SetGlobalBuffer((__gm__ float *)w);
    bGm.SetGlobalBuffer((__gm__ float *)bias);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    const uint32_t rowStart = GetBlockIdx() * rowsPerBlock;
    if (rowStart >= M) return;
    const uint32_t rowEnd = rowStart + rowsPerBlock < M ? rowStart + rowsPerBlock : M;
    for (uint32_t m = rowStart; m < rowEnd; ++m) {
        const uint64_t xBase = (uint64_t)m * K, outBase = (uint64_t)m * N;
        for (uint32_t n = 0; n + 1 < N + 1; n += 2) {
            const bool two = n + 1 < N;
            const uint64_t w0 = (uint64_t)n * K, w1 = (uint64_t)(two ? n + 1 : n) * K;
            float acc0 = bGm.GetValue(n), acc1 = bGm.GetValue(two ? n + 1 : n);
            uint32_t k = 0;
            for (; k + 3 < K; k += 4) {
                const float x0 = xGm.GetValue(xBase + k), x1 = xGm.GetValue(xBase + k + 1);
                const float x2 = xGm.GetValue(xBase + k + 2), x3 = xGm.GetValue(xBase + k + 3);
                acc0 += x0 * wGm.GetValue(w0 + k) + x1 * wGm.GetValue(w0 + k + 1) + x2 * wGm.GetValue(w0 + k + 2) +
                        x3 * wGm.GetValue(w0 + k + 3);
                acc1 += x0 * wGm.GetValue(w1 + k) + x1 * wGm.GetValue(w1 + k + 1) + x2 * wGm.GetValue(w1 + k + 2) +
                        x3 * wGm.GetValue(w1 + k + 3);
            }
            for (; k < K; ++k) {
                const float xv = xGm.GetValue(xBase + k);
                acc0 += xv * wGm.GetValue(w0 + k);
                acc1 += xv * wGm.GetValue(w1 + k);
            }
            yGm.SetValue(outBase + n, acc0 < 0.0f ? 0.0f : acc0);
            if (two) yGm.SetValue(outBase + n + 1, acc1 < 0.0f ? 0.0f : acc1);
        }
    }
}
"""

# y = relu(x * 2 + 1), element by element: straight on GM (mode 0), or through UB tiles (mode 1).
ELTWISE = HEAD + r"""
constexpr uint32_t TILE = 4096;
extern "C" __global__ __aicore__ void eltwise_scalar(GM_ADDR x, GM_ADDR y, uint32_t perBlock, uint32_t mode)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)perBlock * GetBlockIdx(), perBlock);
    if (mode == 0) {
        for (uint32_t i = 0; i < perBlock; ++i) {
            const float v = xGm.GetValue(i) * 2.0f + 1.0f;
            yGm.SetValue(i, v < 0.0f ? 0.0f : v);
        }
        return;
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    for (uint32_t off = 0; off < perBlock; off += TILE) {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopy(xl, xGm[off], TILE);
        inQ.EnQue(xl);
        xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        for (uint32_t i = 0; i < TILE; ++i) {
            const float v = xl.GetValue(i) * 2.0f + 1.0f;
            yl.SetValue(i, v < 0.0f ? 0.0f : v);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        yl = outQ.DeQue<float>();
        DataCopy(yGm[off], yl, TILE);
        outQ.FreeTensor(yl);
    }
}
"""


def least(f, repeats):
    "(least wall seconds, least CPU seconds of the kernel process, last result) over `repeats` calls."
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        out = None
        t0 = time.perf_counter()
        out = f()
        walls.append(time.perf_counter() - t0)
        cpus.append(out.cpu_seconds if hasattr(out, "cpu_seconds") else out.meta["cpu_seconds"])
    return min(walls), min(cpus), out


def numpy_seconds(f, repeats):
    best = None
    for _ in range(max(repeats, 10)):   # the least of many: BLAS threads make single timings jumpy
        c0 = time.process_time()
        f()
        c = time.process_time() - c0
        best = c if best is None else min(best, c)
    return max(best, 1e-6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--m", type=int, default=64)
    ap.add_argument("--k", type=int, default=1024)
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--elements", type=int, default=1 << 22, help="elementwise kernels' floats (a multiple of 4096 x blocks)")
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--no-trace", action="store_true")
    ap.add_argument("--cases", default="gemm,eltwise gm,eltwise ub")
    o = ap.parse_args()
    rng = np.random.default_rng(0)
    cases = [c.strip() for c in o.cases.split(",")]
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'case':<34} {'accesses':>10} {'NumPy CPU':>10} {'exec CPU':>9} {'x NumPy':>9} {'ns/access':>9} "
          f"{'trace CPU':>9} {'x NumPy':>9} {'ns/access':>9}")

    def report(name, accesses, np_cpu, exec_cpu, trace_cpu):
        tr = (f"{trace_cpu:>8.2f}s {trace_cpu / np_cpu:>8.0f}x {trace_cpu / accesses * 1e9:>9.1f}" if trace_cpu is not None
              else f"{'-':>9} {'-':>9} {'-':>9}")
        print(f"{name:<34} {accesses:>10.3g} {np_cpu * 1000:>8.2f}ms {exec_cpu:>8.2f}s {exec_cpu / np_cpu:>8.0f}x "
              f"{exec_cpu / accesses * 1e9:>9.1f} {tr}   (load {os.getloadavg()[0]:.2f})", flush=True)

    if "gemm" in cases:
        M, K, N, B = o.m, o.k, o.n, o.blocks
        x = rng.standard_normal((M, K), dtype=np.float32)
        w = rng.standard_normal((N, K), dtype=np.float32)
        bias = rng.standard_normal(N, dtype=np.float32)
        b = build({"gemm_scalar.cpp": GEMM})
        assert b.ok, b.diagnostics
        rows = (M + B - 1) // B
        args = [GM("x", x), GM("w", w), GM("bias", bias), GM("y", None, "out", shape=(M, N), dtype=np.float32),
                Scalar(M, "uint32"), Scalar(K, "uint32"), Scalar(N, "uint32"), Scalar(rows, "uint32")]
        ref = np.maximum(x @ w.T + bias, 0)
        np_cpu = numpy_seconds(lambda: np.maximum(x @ w.T + bias, 0), o.repeats)
        _, exec_cpu, r = least(lambda: run(b, args, block_dim=B), o.repeats)
        assert r.ok, r.diagnostics
        np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-3, atol=1e-3)
        targs = [GM("x", None, "in", shape=(M, K), dtype=np.float32), GM("w", None, "in", shape=(N, K), dtype=np.float32),
                 GM("bias", None, "in", shape=(N,), dtype=np.float32), args[3]] + args[4:]
        trace_cpu = None if o.no_trace else least(lambda: trace(b, targs, block_dim=B, reuse=False), o.repeats)[1]
        report(f"gemm {M}x{K}x{N} ({B} blocks)", M * N * (2 * K + 1) + M * N, np_cpu, exec_cpu, trace_cpu)

    for mode, name in ((0, "eltwise gm"), (1, "eltwise ub")):
        if name not in cases: continue
        E, B = o.elements, o.blocks
        x = rng.standard_normal(E, dtype=np.float32)
        b = build({"eltwise_scalar.cpp": ELTWISE})
        assert b.ok, b.diagnostics
        args = [GM("x", x), GM("y", None, "out", shape=(E,), dtype=np.float32), Scalar(E // B, "uint32"), Scalar(mode, "uint32")]
        out = np.empty_like(x)

        def np_op():
            np.multiply(x, 2.0, out=out)
            np.add(out, 1.0, out=out)
            np.maximum(out, 0, out=out)

        np_cpu = numpy_seconds(np_op, o.repeats)
        _, exec_cpu, r = least(lambda: run(b, args, block_dim=B), o.repeats)
        assert r.ok, r.diagnostics
        np.testing.assert_array_equal(r.outputs["y"], np.maximum(x * np.float32(2) + np.float32(1), 0))
        targs = [GM("x", None, "in", shape=(E,), dtype=np.float32)] + args[1:]
        trace_cpu = None if o.no_trace else least(lambda: trace(b, targs, block_dim=B, reuse=False), o.repeats)[1]
        report(f"{name} {E / 1e6:.1f}M ({B} blocks)", 2 * E, np_cpu, exec_cpu, trace_cpu)
    print(f"load average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
