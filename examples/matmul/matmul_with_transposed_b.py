"""matmul_with_transposed_b — MultiKernelBench matmul: C = A @ B.T, A (M, K), B (N, K), fp32.

AscendCraft DSL: parsed, never executed. The low-level cube form: C is cut into TM x TN tiles spread over
the cube cores; for each tile, K is walked in TK steps: A's and B's tiles go GM -> L1 (ND -> NZ), L1 -> L0A
(ZZ) and L0B (ZN; B is already n x k, so its fractals need no transpose), the cube accumulates into L0C
(init on the first step), and the fixpipe writes the fp32 tile to C.
"""
from ascendcraft.dsl import *

TM = 128   # rows of a C tile (whole fractals of 16)
TN = 128   # columns of a C tile
TK = 64    # K step: 8 fp32 fractal columns (C0 = 8 for fp32)


@host
def matmul_with_transposed_b(A: gm[f32, M, K], B: gm[f32, N, K], c: out[f32, M, N]):
    tiles_n = ceil_div(N, TN)
    tiles = ceil_div(M, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # one cube core per two vector cores on the 910B2
    per_block = ceil_div(tiles, blocks)
    launch(mm_kernel, blocks, A, B, c, M, N, K, tiles_n, tiles, per_block)


@kernel
def mm_kernel(a: gm[f32, M, K], b: gm[f32, N, K], c: gm[f32, M, N], M: int, N: int, K: int, tiles_n: int,
              tiles: int, per_block: int):
    a1 = l1(f32, TM, TK, bufs=2)
    b1 = l1(f32, TN, TK, bufs=2)
    a2 = l0a(f32, TM, TK)
    b2 = l0b(f32, TK, TN)
    c1 = l0c(f32, TM, TN)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, tiles)
    for t in range(t0, t1):
        m0 = (t // tiles_n) * TM
        n0 = (t % tiles_n) * TN
        m = min(TM, M - m0)
        n = min(TN, N - n0)
        for k0 in range(0, K, TK):
            k = min(TK, K - k0)
            with copyl1():
                load(a1, a[m0 : m0 + m, k0 : k0 + k])
                load(b1, b[n0 : n0 + n, k0 : k0 + k])
            with split():
                load_l0(a2, a1)
                load_l0(b2, b1)
            with cube():
                mmad(c1, a2, b2, m, n, k, init=k0 == 0)
        with fixpipe():
            store(c[m0 : m0 + m, n0 : n0 + n], c1)
