"""take_along_dim — MultiKernelBench index/take_along_dim: y = torch.take_along_dim(x, idx, dim=1) (the same as gather along dim 1), x (R, C), idx (R, K) int64.

AscendCraft DSL: parsed, never executed. Work units are (row, index chunk) pairs, split evenly over
the blocks. A unit converts its int64 indices to int32 (Cast), and for each chunk of W columns of
x's row (one chunk when the row fits UB):

1. loads the x chunk and turns the indices into byte offsets into it: (idx - c0) * 4, clamped
   to the chunk with maxs()/mins();
2. Gather() picks the elements; where the clamped offset equals the unclamped one (compare on
   int32) the index falls in this chunk and select() keeps the gathered value.

Each output element is written once.
"""
from ascendcraft.dsl import *

KCHUNK = 2048   # indices per unit
XCHUNK = 16384  # columns of x per pass (64 KB)


@host
def take_along_dim(x: gm[f32, R, C], idx: gm[i64, R, K], y: out[f32, R, K]):
    kw = min(KCHUNK, align_up(K, 64))
    xw = min(XCHUNK, align_up(C, 8))
    kchunks = ceil_div(K, kw)
    units = R * kchunks
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(gather_kernel, blocks, x, idx, y, R, C, K, kw, xw, kchunks, units, per_block)


@kernel
def gather_kernel(x: gm[f32, R, C], idx: gm[i64, R, K], y: gm[f32, R, K], R: int, C: int, K: int, kw: int, xw: int,
                  kchunks: int, units: int, per_block: int):
    iin = ub_in(i64, kw, bufs=2)
    xin = ub_in(f32, xw, bufs=2)
    yout = ub_out(f32, kw, bufs=2)
    pos = ub_buf(i32, kw)        # the indices as int32
    off = ub_buf(i32, kw)        # byte offsets into the current chunk, clamped
    raw = ub_buf(i32, kw)        # unclamped
    got = ub_buf(f32, kw)
    acc = ub_buf(f32, kw)
    hit = ub_buf(u8, align_up(kw // 8, 32))
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        r = u // kchunks
        k0 = (u % kchunks) * kw
        n = min(kw, K - k0)
        with copyin():
            load(iin, idx[r, k0 : k0 + n])
        with compute("indices"):
            cast(pos, iin, n)
        with compute("clear"):
            dup(acc, 0.0, kw)
        for c0 in range(0, C, xw):
            m = min(xw, C - c0)
            with copyin():
                load(xin, x[r, c0 : c0 + m])
            with compute():
                adds(raw, pos, -c0, n)
                maxs(off, raw, 0, n)
                mins(off, off, m - 1, n)
                compare(hit, off, raw, "eq", kw)
                muls(off, off, 4, n)
                gather(got, xin, off, n)
                select(acc, hit, got, acc, n)
        with compute("out"):
            copy(yout, acc, kw)
        with copyout():
            store(y[r, k0 : k0 + n], yout)
