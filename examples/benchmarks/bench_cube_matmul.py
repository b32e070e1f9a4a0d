"""Micro-benchmark: the emulator's Matmul API (runtime/emu_cube.cpp, matmul_block) in multiply-accumulates per second.

The cube's products are emulated on the CPU, each C element summing its k products in k order in fp32 (int32 for int8)
as the NPU does, so the sums are the same bits whatever the loop order. A task-shaped GEMM (4096^3, 6.9e10
multiply-accumulates) is what makes a Matmul kernel time out. This times one block of M x N x K with
tests/emu_kernels/good/matmul_api_bias.cpp (half in, float out; int8 in, int32 out), the least kernel-process CPU time
of `--repeats` runs, and reports G MAC/s.

Usage:  .venv/bin/python examples/benchmarks/bench_cube_matmul.py [--shape 512 512 1024] [--repeats 2]
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

TESTS = Path(__file__).resolve().parents[2] / "tests"
sys.path.insert(0, str(TESTS))
from test_emu_cube import KERNELS, tcube_tiling  # noqa: E402  (the TCubeTiling layout the tests use)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", type=int, nargs=3, default=[512, 512, 1024], metavar=("M", "N", "K"))
    ap.add_argument("--repeats", type=int, default=2)
    opts = ap.parse_args()
    m, n, k = opts.shape
    rng = np.random.default_rng(3)
    for entry in ("matmul_bias_f16", "matmul_bias_i8"):
        if entry.endswith("i8"):
            a, bm = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
            bias, b_in, c = rng.integers(-1000, 1000, n).astype(np.int32), np.ascontiguousarray(bm.T), np.empty((m, n), np.int32)
        else:
            a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
            bias, b_in, c = rng.standard_normal(n).astype(np.float32), bm, np.empty((m, n), np.float32)
        tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=128,
                              baseN=128, baseK=64, depthA1=1, depthB1=1, stepM=1, stepN=1, isBias=1, iterateOrder=0, dbL0A=2,
                              dbL0B=2, dbL0C=1) + np.int32(1).tobytes()
        b = build(KERNELS / "matmul_api_bias.cpp", entry=entry)
        assert b.ok, b.diagnostics
        args = [GM("a", a), GM("b", b_in), GM("bias", bias), GM("c", c, "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)]
        best = None
        for _ in range(opts.repeats):
            r = run(b, args, block_dim=1)
            assert r.ok, r.diagnostics
            best = r.cpu_seconds if best is None else min(best, r.cpu_seconds)
        print(f"{entry:<16} {m}x{n}x{k}: {best:.3f} s CPU, {m * n * k / best / 1e9:.2f} G MAC/s", flush=True)


if __name__ == "__main__":
    main()
