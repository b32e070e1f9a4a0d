"""embedding — MultiKernelBench index/embedding: y = nn.Embedding(V, D)(indices), indices int64 (T1, T2) -> (T1, T2, D).

AscendCraft DSL: parsed, never executed. The T1 * T2 tokens are split evenly over the blocks. A
block loads its tokens' indices a chunk at a time and casts them to int32; for each token the
scalar unit reads the index (GetValue) and one copy moves that row of the weight table from GM to
UB and on to the token's output row. Only the rows used are read.
"""
from ascendcraft.dsl import *

ICHUNK = 1024   # indices per load
DCHUNK = 8192   # columns of a row per copy


@host
def embedding(indices: gm[i64, T1, T2], embedding_weight: gm[f32, V, D], y: out[f32, T1, T2, D]):
    T = T1 * T2
    dw = min(DCHUNK, align_up(D, 8))
    iw = min(ICHUNK, align_up(T, 8))
    per_block = ceil_div(T, cores())
    blocks = ceil_div(T, per_block)
    launch(embedding_kernel, blocks, indices, embedding_weight, y, T, V, D, dw, iw, per_block)


@kernel
def embedding_kernel(idx: gm[i64], w: gm[f32, V, D], y: gm[f32, T, D], T: int, V: int, D: int, dw: int, iw: int,
                     per_block: int):
    iin = ub_in(i64, iw)
    pos = ub_buf(i32, iw)
    row = ub_in(f32, dw, bufs=2)
    yout = ub_out(f32, dw, bufs=2)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, T)
    for ti in range(t0, t1, iw):
        n = min(iw, t1 - ti)
        with copyin():
            load(iin, idx[ti : ti + n])
        with compute("indices"):
            cast(pos, iin, n)
        for j in range(n):
            with compute("pick"):
                v = get(pos, j)
            for c in range(0, D, dw):
                m = min(dw, D - c)
                with copyin():
                    load(row, w[v, c : c + m])
                with compute():
                    copy(yout, row, dw)
                with copyout():
                    store(y[ti + j, c : c + m], yout)
