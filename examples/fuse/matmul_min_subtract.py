"""matmul_min_subtract — MultiKernelBench fuse: y = min(x @ W^T + b, c) - c with c a learned scalar, fp32.

AscendCraft DSL: parsed, never executed. A mixed kernel (AIC:AIV = 1:2): the blocks of y (TM x TN) are spread over the
vector cores; for each, the Matmul object computes x's TM rows times W's TN rows (W is n x k: transpose_b) on the
cube and hands the block to the vector core in UB (GetTensorC). The vector core adds the bias row to each of the
block's rows, takes the minimum with c and subtracts c, and stores the block. c is the
module's `constant`, a parameter made from the init argument of the same name: the kernel takes that value.
"""
from ascendcraft.dsl import *

TM = 64    # rows of a block of y (one base block: the cube's m)
TN = 128   # columns of a block (the base block's n; the UB row stride)
TK = 64    # the base block's k


@host
def matmul_min_subtract(x: gm[f32, M, K], linear_weight: gm[f32, N, K], linear_bias: gm[f32, N], constant: float,
                        y: out[f32, M, N]):
    tiles_n = ceil_div(N, TN)
    tiles = ceil_div(M, TM) * tiles_n
    blocks = min(cores() // 2, tiles)     # cube cores; each drives two vector cores
    launch(fused_kernel, blocks, x, linear_weight, linear_bias, y, M, N, K, tiles_n, tiles, constant)


@kernel
def fused_kernel(x: gm[f32, M, K], w: gm[f32, N, K], bias: gm[f32, N], y: gm[f32, M, N], M: int, N: int, K: int,
                 tiles_n: int, tiles: int, c: float):
    mm = matmul_api(f32, f32, TM, TN, TK)
    cblk = ub_buf(f32, TM * TN)
    bin = ub_in(f32, TN)
    yout = ub_out(f32, TM * TN)
    for t in range(block_idx(), tiles, block_num()):
        m0 = (t // tiles_n) * TM
        n0 = (t % tiles_n) * TN
        m = min(TM, M - m0)
        n = min(TN, N - n0)
        with cube():
            matmul(mm, cblk, x[m0 : m0 + m, 0 : K], w[n0 : n0 + n, 0 : K], transpose_b=True)
        with copyin():
            load(bin, bias[n0 : n0 + n])
        with compute():
            for r in range(m):
                add(yout[r * TN], cblk[r * TN], bin, n)
                mins(yout[r * TN], yout[r * TN], c, n)
                adds(yout[r * TN], yout[r * TN], -c, n)
        with copyout():
            store(y[m0 : m0 + m, n0 : n0 + n], yout, pitch=TN)
