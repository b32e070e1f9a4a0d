"""matmul_with_large_k_dimension — MultiKernelBench matmul: C = A @ B, A (256, 524288), B (524288, 256), fp32.

AscendCraft DSL: parsed, never executed. The Matmul high-level API form: C is only 256 x 256, so it is cut into 64 x 64 blocks to keep 16 cube cores busy; each walks the whole of K in base blocks.
"""
from ascendcraft.dsl import *

TM = 64   # rows of a C block (the base block's m)
TN = 64   # columns of a C block (the base block's n)
TK = 64    # the base block's k: 8 fp32 fractal columns


@host
def matmul_with_large_k_dimension(A: gm[f32, M, K], B: gm[f32, K, N], c: out[f32, M, N]):
    tiles_n = ceil_div(N, TN)
    tiles = ceil_div(M, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # one cube core per two vector cores on the 910B2
    per_block = ceil_div(tiles, blocks)
    launch(mm_kernel, blocks, A, B, c, M, N, K, tiles_n, tiles, per_block)


@kernel
def mm_kernel(a: gm[f32, M, K], b: gm[f32, K, N], c: gm[f32, M, N], M: int, N: int, K: int, tiles_n: int,
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
            matmul(mm, c[m0 : m0 + m, n0 : n0 + n], a[m0 : m0 + m, 0 : K], b[0 : K, n0 : n0 + n])
