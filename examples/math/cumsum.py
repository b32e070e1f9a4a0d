"""cumsum — MultiKernelBench math/cumsum: torch.cumsum(x, dim=1) on (32768, 32768).

AscendCraft DSL: parsed, never executed. A scan along a row is a chain of dependent additions;
the vector unit is fast only when it adds many independent lanes at once. So the kernel scans
256 rows side by side: it loads a 256 × 24 tile, transposes it in UB with one gather() (columns
become contiguous vectors of 256 row lanes), adds each column into the next — a running sum per
row, carried from tile to tile — and transposes back with a second gather(). The two offset
tables are built once with iota/muls/adds.

Why 256 × 24: every add covers RT lanes, and each vector instruction pays a fixed start-up, so
wide columns amortise it (64 lanes: 0.85x eager, 128: 1.02x, 256: 1.21x, modelled); the tile
then has to be narrow for the five tile-sized buffers to fit the UB, and rows of 24 f32 (96 B)
are still whole 32-byte blocks for the strided copies.
"""
from ascendcraft.dsl import *

RT = 256  # rows scanned side by side (four 256-byte repeats of f32 per add)
CT = 24   # columns per tile (96 B of each row)


@host
def cumsum(x: gm[f32, R, C], dim: int, y: out[f32, x]):
    assert dim == 1, "this kernel scans along the last axis of a 2-D tensor"
    row_tiles = ceil_div(R, RT)
    blocks = min(cores(), row_tiles)
    per_block = ceil_div(row_tiles, blocks)
    launch(cumsum_kernel, blocks, x, y, R, C, row_tiles, per_block, RT, CT)


@kernel
def cumsum_kernel(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, row_tiles: int,
                  per_block: int, rt: int, ct: int):
    xin = ub_in(f32, rt * ct, bufs=2)
    yout = ub_out(f32, rt * ct, bufs=2)
    cols = ub_buf(f32, rt * ct)          # transposed tile: column j at cols[j * rt]
    carry = ub_buf(f32, rt)              # running sum of each row lane
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
            dup(carry, 0.0, rt)
        for c in range(0, C, ct):
            nc = min(ct, C - c)
            with copyin():
                load(xin, x[r : r + nr, c : c + nc], pitch=ct)
            with compute("scan"):
                gather(cols, xin, to_cols, rt * ct)
                add(cols, cols, carry, rt)
                for j in range(1, ct):
                    add(cols[j * rt], cols[j * rt], cols[(j - 1) * rt], rt)
                copy(carry, cols[(nc - 1) * rt], rt)
                gather(yout, cols, to_rows, rt * ct)
            with copyout():
                store(y[r : r + nr, c : c + nc], yout, pitch=ct)
