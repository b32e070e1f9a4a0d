"""matmul_for_symmetric_matrices — MultiKernelBench matmul: C = A @ B with A and B symmetric (N, N), fp32.

AscendCraft DSL: parsed, never executed. The Matmul high-level API form: C is cut into TM x TN blocks spread over the cube cores, and one matmul() per block lets the Matmul object walk K in base blocks (GM -> L1 -> L0A/L0B -> cube -> L0C -> GM). B stays k x n in GM: the API's B path transposes the fp32 fractals that LoadData cannot. Symmetry does not change the product's cost; the kernel is the square GEMM.
"""
from ascendcraft.dsl import *

TM = 128   # rows of a C block (the base block's m)
TN = 256   # columns of a C block (the base block's n)
TK = 64    # the base block's k: 8 fp32 fractal columns


@host
def matmul_for_symmetric_matrices(A: gm[f32, N, N], B: gm[f32, N, N], c: out[f32, N, N]):
    tiles_n = ceil_div(N, TN)
    tiles = ceil_div(N, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # one cube core per two vector cores on the 910B2
    per_block = ceil_div(tiles, blocks)
    launch(mm_kernel, blocks, A, B, c, N, N, N, tiles_n, tiles, per_block)


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
