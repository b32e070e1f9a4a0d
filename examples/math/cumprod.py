"""cumprod — MultiKernelBench math: torch.cumprod(x, dim=1) on a (32768, 32768) tensor.

AscendCraft DSL: parsed, never executed. The technique of the cumsum example with mul in place
of add: 256 rows are scanned side by side. A 256 × 24 tile is transposed in UB with one gather()
(column j becomes a contiguous vector of 256 row lanes), each column is multiplied into the next
— a running product per row, starting at 1 and carried from tile to tile, in the same
left-to-right order as the reference — and the tile is transposed back with a second gather().
Each element is read once and written once.

Why 256 × 24: every mul covers RT lanes, and each vector instruction pays a fixed start-up, so
wide columns amortise it (as in cumsum); the tile
then has to be narrow for the five tile-sized buffers to fit the UB, and rows of 24 f32 (96 B)
are still whole 32-byte blocks for the strided copies.
"""
from ascendcraft.dsl import *

RT = 256  # rows scanned side by side (four 256-byte repeats of f32 per mul)
CT = 24   # columns per tile (96 B of each row)


@host
def cumprod(x: gm[f32, R, C], dim: int, y: out[f32, x]):
    assert dim == 1, "this kernel scans along the last axis of a 2-D tensor"
    row_tiles = ceil_div(R, RT)
    blocks = min(cores(), row_tiles)
    per_block = ceil_div(row_tiles, blocks)
    launch(cumprod_kernel, blocks, x, y, R, C, row_tiles, per_block, RT, CT)


@kernel
def cumprod_kernel(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, row_tiles: int,
                  per_block: int, rt: int, ct: int):
    xin = ub_in(f32, rt * ct, bufs=2)
    yout = ub_out(f32, rt * ct, bufs=2)
    cols = ub_buf(f32, rt * ct)          # transposed tile: column j at cols[j * rt]
    carry = ub_buf(f32, rt)              # running product of each row lane
    to_cols = ub_buf(i32, rt * ct)       # gather offsets: row-major tile -> column-major
    to_rows = ub_buf(i32, rt * ct)       # and back
    with compute("tables"):
        for j in range(ct):
            iota(to_cols[j * rt], 0, rt)
            muls(to_cols[j * rt], to_cols[j * rt], ct * 4, rt)
            adds(to_cols[j * rt], to_cols[j * rt], j * 4, rt)
        for i in range(rt):
            iota(to_rows[i * ct], 0, ct)
            muls(to_rows[i * ct], to_rows[i * ct], rt * 4, ct)
            adds(to_rows[i * ct], to_rows[i * ct], i * 4, ct)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, row_tiles)
    for tile in range(t0, t1):
        r = tile * rt
        nr = min(rt, R - r)
        with compute("reset"):
            dup(carry, 1.0, rt)
        for c in range(0, C, ct):
            nc = min(ct, C - c)
            with copyin():
                load(xin, x[r : r + nr, c : c + nc], pitch=ct)
            with compute("scan"):
                gather(cols, xin, to_cols, rt * ct)
                mul(cols, cols, carry, rt)
                for j in range(1, ct):
                    mul(cols[j * rt], cols[j * rt], cols[(j - 1) * rt], rt)
                copy(carry, cols[(nc - 1) * rt], rt)
                gather(yout, cols, to_rows, rt * ct)
            with copyout():
                store(y[r : r + nr, c : c + nc], yout, pitch=ct)
