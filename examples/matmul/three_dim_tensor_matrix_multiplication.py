"""three_dim_tensor_matrix_multiplication — MultiKernelBench matmul: C = A @ B, A (N, M, K), B (K, L), fp32.

AscendCraft DSL: parsed, never executed. The Matmul high-level API form: A's (N, M) rows are one long matrix of N * M rows, so the kernel is a GEMM of (N * M) x K by K x L, cut into TM x TN blocks.
"""
from ascendcraft.dsl import *

TM = 128   # rows of a C block (the base block's m)
TN = 256   # columns of a C block (the base block's n)
TK = 64    # the base block's k: 8 fp32 fractal columns


@host
def three_dim_tensor_matrix_multiplication(A: gm[f32, NB, M, K], B: gm[f32, K, L], c: out[f32, NB, M, L]):
    R = NB * M
    tiles_n = ceil_div(L, TN)
    tiles = ceil_div(R, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # one cube core per two vector cores on the 910B2
    per_block = ceil_div(tiles, blocks)
    launch(mm_kernel, blocks, A, B, c, R, L, K, tiles_n, tiles, per_block)


@kernel
def mm_kernel(a: gm[f32, R, K], b: gm[f32, K, L], c: gm[f32, R, L], R: int, L: int, K: int, tiles_n: int,
              tiles: int, per_block: int):
    mm = matmul_api(f32, f32, TM, TN, TK)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, tiles)
    for t in range(t0, t1):
        m0 = (t // tiles_n) * TM
        n0 = (t % tiles_n) * TN
        m = min(TM, R - m0)
        n = min(TN, L - n0)
        with cube():
            matmul(mm, c[m0 : m0 + m, n0 : n0 + n], a[m0 : m0 + m, 0 : K], b[0 : K, n0 : n0 + n])
