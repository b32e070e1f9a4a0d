"""argmax_over_a_dimension — MultiKernelBench index: y = torch.argmax(x, dim=1), x (B, D1, D2) -> int64 (B, D2).

AscendCraft DSL: parsed, never executed. The reduced axis is the middle one (stride D2), so lanes
run along the contiguous last axis: work units are (batch, column chunk) pairs split evenly over
the blocks. A unit streams its chunk's D1 rows in bands of ROWS rows (one strided copy each) and
keeps, per lane, the best value so far and its row number (as float32: exact below 2 ** 24):

- a compare of the row with the best ("le": not better) gives the lanes to keep;
- Select keeps the old best or takes the row; the scalar Select keeps the old index or takes j.

Strictly greater wins, so the first of equal maxima is kept, as in PyTorch. The indices are cast
to int64 at the end.
"""
from ascendcraft.dsl import *

CHUNK = 1024   # lanes per unit
ROWS = 8       # rows per strided load


@host
def argmax_over_a_dimension(x: gm[f32, B, D1, D2], dim: int, y: out[i64, B, D2]):
    assert dim == 1, "this kernel reduces dim 1"
    w = min(CHUNK, align_up(D2, 64))
    chunks = ceil_div(D2, w)
    units = B * chunks
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(argmax_kernel, blocks, x, y, B, D1, D2, w, chunks, units, per_block, ROWS)


@kernel
def argmax_kernel(x: gm[f32, B, D1, D2], y: gm[i64, B, D2], B: int, D1: int, D2: int, w: int, chunks: int, units: int,
                  per_block: int, rows: int):
    xin = ub_in(f32, rows * w, bufs=2)
    yout = ub_out(i64, w, bufs=2)
    best = ub_buf(f32, w)
    at = ub_buf(f32, w)
    keep = ub_buf(u8, align_up(w // 8, 32))
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        b = u // chunks
        c = (u % chunks) * w
        n = min(w, D2 - c)
        with compute("init"):
            dup(best, -inf, w)
            dup(at, 0.0, w)
        for j0 in range(0, D1, rows):
            k = min(rows, D1 - j0)
            with copyin():
                load(xin, x[b, j0 : j0 + k, c : c + n], pitch=w)
            with compute("scan"):
                for jj in range(k):
                    compare(keep, xin[jj * w], best, "le", w)
                    select(best, keep, best, xin[jj * w], n)
                    selects(at, keep, at, float(j0 + jj), n)
        with compute("index"):
            cast(yout, at, n, round="rint")
        with copyout():
            store(y[b, c : c + n], yout)
