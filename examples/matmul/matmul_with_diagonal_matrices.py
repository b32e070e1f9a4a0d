"""matmul_with_diagonal_matrices — MultiKernelBench matmul: C = diag(A) @ B, A (N,), B (N, M), fp32.

AscendCraft DSL: parsed, never executed. Really vector work: row i of C is row i of B times A[i], so the kernel
never builds the N x N diagonal matrix (eager does, and multiplies it on the cube). Work items are (row, column
chunk) pairs spread over the vector cores; each loads A[i], reads it as a scalar and scales the chunk with Muls.
"""
from ascendcraft.dsl import *

CHUNK = 8192   # columns per work item (32 KB per buffer)


@host
def matmul_with_diagonal_matrices(A: gm[f32, N], B: gm[f32, N, M], c: out[f32, N, M]):
    cw = min(CHUNK, align_up(M, 8))
    chunks = ceil_div(M, cw)
    items = N * chunks
    blocks = min(cores(), items)
    per_block = ceil_div(items, blocks)
    launch(diag_kernel, blocks, A, B, c, N, M, cw, chunks, items, per_block)


@kernel
def diag_kernel(a: gm[f32, N], b: gm[f32, N, M], c: gm[f32, N, M], N: int, M: int, cw: int, chunks: int,
                items: int, per_block: int):
    ain = ub_in(f32, 8)
    bin = ub_in(f32, cw, bufs=2)
    cout = ub_out(f32, cw, bufs=2)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        r = item // chunks
        col = (item % chunks) * cw
        n = min(cw, M - col)
        with copyin():
            load(ain, a[r : r + 1])
            load(bin, b[r, col : col + n])
        with compute():
            s = get(ain, 0)
            muls(cout, bin, s, n)
        with copyout():
            store(c[r, col : col + n], cout)
