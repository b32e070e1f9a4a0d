"""batched_matrix_multiplication — MultiKernelBench matmul: C[i] = A[i] @ B[i], A (128, m, k), B (128, k, n), fp32.

AscendCraft DSL: parsed, never executed. The Matmul high-level API form: the blocks are (batch, TM rows, TN columns) triples spread over the cube cores; each matmul() reads its batch's matrices.
"""
from ascendcraft.dsl import *

TM = 128   # rows of a C block (the base block's m)
TN = 256   # columns of a C block (the base block's n)
TK = 64    # the base block's k: 8 fp32 fractal columns


@host
def batched_matrix_multiplication(A: gm[f32, BT, M, K], B: gm[f32, BT, K, N], c: out[f32, BT, M, N]):
    tiles_m = ceil_div(M, TM)
    tiles_n = ceil_div(N, TN)
    tiles = BT * ceil_div(M, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # one cube core per two vector cores on the 910B2
    per_block = ceil_div(tiles, blocks)
    launch(mm_kernel, blocks, A, B, c, BT, M, N, K, tiles_m, tiles_n, tiles, per_block)


@kernel
def mm_kernel(a: gm[f32, BT, M, K], b: gm[f32, BT, K, N], c: gm[f32, BT, M, N], BT: int, M: int, N: int, K: int, tiles_m: int, tiles_n: int,
              tiles: int, per_block: int):
    mm = matmul_api(f32, f32, TM, TN, TK)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, tiles)
    for t in range(t0, t1):
        bi = t // (tiles_m * tiles_n)
        m0 = (t // tiles_n % tiles_m) * TM
        n0 = (t % tiles_n) * TN
        m = min(TM, M - m0)
        n = min(TN, N - n0)
        with cube():
            matmul(mm, c[bi, m0 : m0 + m, n0 : n0 + n], a[bi, m0 : m0 + m, 0 : K], b[bi, 0 : K, n0 : n0 + n])
