"""matmul_with_transposed_both — MultiKernelBench matmul: C = A.T @ B.T, A (K, M), B (N, K), fp32.

AscendCraft DSL: parsed, never executed. The Matmul high-level API form: C is cut into TM x TN blocks over the cube cores; A is k x m and B is n x k in GM, so each matmul() reads A's column band and B's row band with transpose_a=True and transpose_b=True.
"""
from ascendcraft.dsl import *

TM = 128   # rows of a C block (the base block's m)
TN = 256   # columns of a C block (the base block's n)
TK = 64    # the base block's k: 8 fp32 fractal columns


@host
def matmul_with_transposed_both(A: gm[f32, K, M], B: gm[f32, N, K], c: out[f32, M, N]):
    tiles_n = ceil_div(N, TN)
    tiles = ceil_div(M, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # one cube core per two vector cores on the 910B2
    per_block = ceil_div(tiles, blocks)
    launch(mm_kernel, blocks, A, B, c, M, N, K, tiles_n, tiles, per_block)


@kernel
def mm_kernel(a: gm[f32, K, M], b: gm[f32, N, K], c: gm[f32, M, N], M: int, N: int, K: int, tiles_n: int,
              tiles: int, per_block: int):
    mm = matmul_api(f32, f32, TM, TN, TK)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, tiles)
    for t in range(t0, t1):
        m0 = (t // tiles_n) * TM
        n0 = (t % tiles_n) * TN
        m = min(TM, M - m0)
        n = min(TN, N - n0)
        with cube():
            matmul(mm, c[m0 : m0 + m, n0 : n0 + n], a[0 : K, m0 : m0 + m], b[n0 : n0 + n, 0 : K], transpose_a=True, transpose_b=True)
