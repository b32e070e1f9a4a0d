"""scatter — MultiKernelBench index/scatter: y = x.scatter(dim=1, index=idx, src=updates), x (R, C), idx and updates (R, K).

AscendCraft DSL: parsed, never executed. Rows are independent: work units are (row, column chunk)
pairs split evenly over the blocks. A unit copies its chunk of x's row into a scratch row, then
walks the row's K updates in order on the scalar unit (GetValue / SetValue): an index inside the
chunk writes its update there, one outside writes a spare slot past the chunk's end (so there is
no data-dependent branch). Walking in order makes the last of repeated indices win, as PyTorch's
CPU scatter does. The scratch row is then copied out once.
"""
from ascendcraft.dsl import *

XCHUNK = 8192    # columns of x per unit
KCHUNK = 2048    # indices and updates per load


@host
def scatter(x: gm[f32, R, C], idx: gm[i64, R, K], updates: gm[f32, R, K], y: out[f32, x]):
    xw = min(XCHUNK, align_up(C, 8))
    kw = min(KCHUNK, align_up(K, 8))
    xchunks = ceil_div(C, xw)
    units = R * xchunks
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(scatter_kernel, blocks, x, idx, updates, y, R, C, K, xw, kw, xchunks, units, per_block)


@kernel
def scatter_kernel(x: gm[f32, R, C], idx: gm[i64, R, K], src: gm[f32, R, K], y: gm[f32, R, C], R: int, C: int, K: int,
                   xw: int, kw: int, xchunks: int, units: int, per_block: int):
    xin = ub_in(f32, xw)
    iin = ub_in(i64, kw, bufs=2)
    sin = ub_in(f32, kw, bufs=2)
    yout = ub_out(f32, xw)
    row = ub_buf(f32, xw + 8)       # the chunk, then one spare slot
    pos = ub_buf(i32, kw)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        r = u // xchunks
        c0 = (u % xchunks) * xw
        m = min(xw, C - c0)
        with copyin():
            load(xin, x[r, c0 : c0 + m])
        with compute("base"):
            dup(row, 0.0, xw + 8)
            copy(row, xin, xw)
        for k0 in range(0, K, kw):
            n = min(kw, K - k0)
            with copyin():
                load(iin, idx[r, k0 : k0 + n])
                load(sin, src[r, k0 : k0 + n])
            with compute("scatter"):
                cast(pos, iin, n)
                for j in range(n):
                    p = get(pos, j) - c0
                    set(row, p if p >= 0 and p < m else xw, get(sin, j))
        with compute("out"):
            copy(yout, row, xw)
        with copyout():
            store(y[r, c0 : c0 + m], yout)
