"""cumprod — MultiKernelBench math: torch.cumprod(x, dim=1) on a (32768, 32768) tensor.

AscendCraft DSL: parsed, never executed. The technique of the cumsum example with mul in place
of add: 64 rows are scanned side by side. A 64 × 64 tile is transposed in UB with one gather()
(column j becomes a contiguous vector of 64 row lanes), each column is multiplied into the next
— a running product per row, starting at 1 and carried from tile to tile, in the same
left-to-right order as the reference — and the tile is transposed back. The tile is square, so
the transpose is its own inverse and one offset table serves both directions. Each element is
read once and written once.
"""
from ascendcraft.dsl import *

T = 64   # rows scanned side by side (one 256-byte repeat of f32) = columns per tile


@host
def cumprod(x: gm[f32, R, C], dim: int, y: out[f32, x]):
    assert dim == 1, "this kernel scans along the last axis of a 2-D tensor"
    row_tiles = ceil_div(R, T)
    per_block = ceil_div(row_tiles, cores())
    blocks = ceil_div(row_tiles, per_block)
    launch(cumprod_kernel, blocks, x, y, R, C, row_tiles, per_block, T)


@kernel
def cumprod_kernel(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, row_tiles: int,
                   per_block: int, t: int):
    xin = ub_in(f32, t * t, bufs=2)
    yout = ub_out(f32, t * t, bufs=2)
    cols = ub_buf(f32, t * t)            # transposed tile: column j at cols[j * t]
    carry = ub_buf(f32, t)               # product of everything left of the tile, per row lane
    transpose = ub_buf(i32, t * t)       # gather byte offsets: element (i, j) <-> (j, i)
    with compute("table"):
        for j in range(t):
            iota(transpose[j * t], 0, t)
            muls(transpose[j * t], transpose[j * t], t * 4, t)
            adds(transpose[j * t], transpose[j * t], j * 4, t)
    r0 = block_idx() * per_block
    r1 = min(r0 + per_block, row_tiles)
    for tile in range(r0, r1):
        r = tile * t
        nr = min(t, R - r)
        with compute("reset"):
            dup(carry, 1.0, t)
        for c in range(0, C, t):
            nc = min(t, C - c)
            with copyin():
                load(xin, x[r : r + nr, c : c + nc], pitch=t)
            with compute("scan"):
                gather(cols, xin, transpose, t * t)
                mul(cols, cols, carry, t)
                for j in range(1, t):
                    mul(cols[j * t], cols[j * t], cols[(j - 1) * t], t)
                copy(carry, cols[(nc - 1) * t], t)
                gather(yout, cols, transpose, t * t)
            with copyout():
                store(y[r : r + nr, c : c + nc], yout, pitch=t)
