"""matmul_with_large_k_dimension — MultiKernelBench matmul: C = A @ B, A (256, 524288), B (524288, 256), fp32.

AscendCraft DSL: parsed, never executed. Split-K with the Matmul high-level API: C is only 256 x 256, so cutting C
would leave most cube cores idle and make each walk all of K. Instead every vector core takes one slice of K and
adds its partial product onto C in GM (matmul(..., atomic=True): IterateAll with enAtomic), so A and B are read
once in all. C starts as zeros: each vector core zeroes its rows first, and sync_all() makes every zero land before
any core adds onto C. A mixed kernel (AIC:AIV = 1:2): each vector core drives the Matmul object of its group's cube
core.
"""
from ascendcraft.dsl import *

TM = 128   # rows of a C block (the base block's m)
TN = 256   # columns of a C block (the base block's n)
TK = 64    # the base block's k: 8 fp32 fractal columns
ZC = 256   # columns zeroed per store


@host
def matmul_with_large_k_dimension(A: gm[f32, M, K], B: gm[f32, K, N], c: out[f32, M, N]):
    blocks = cores() // 2                    # every cube core, each driven by its two vector cores
    launch(mm_kernel, blocks, A, B, c, M, N, K)


@kernel
def mm_kernel(a: gm[f32, M, K], b: gm[f32, K, N], c: gm[f32, M, N], M: int, N: int, K: int):
    mm = matmul_api(f32, f32, TM, TN, TK)
    zero = ub_out(f32, ZC)
    # 1. C = 0: each vector core zeroes its share of the rows
    r0 = block_idx() * M // block_num()
    r1 = (block_idx() + 1) * M // block_num()
    for r in range(r0, r1):
        for j in range(0, N, ZC):
            n = min(ZC, N - j)
            with compute():
                dup(zero, 0.0, n)
            with copyout():
                store(c[r, j : j + n], zero)
    sync_all()
    # 2. C += A[:, k0:k1] @ B[k0:k1, :] for this core's slice of K (whole fractal columns)
    ks = align_up(ceil_div(K, block_num()), 8)
    k0 = min(block_idx() * ks, K)
    k1 = min(k0 + ks, K)
    if k1 > k0:
        for m0 in range(0, M, TM):
            for n0 in range(0, N, TN):
                m = min(TM, M - m0)
                n = min(TN, N - n0)
                with cube():
                    matmul(mm, c[m0 : m0 + m, n0 : n0 + n], a[m0 : m0 + m, k0 : k1], b[k0 : k1, n0 : n0 + n], atomic=True)
