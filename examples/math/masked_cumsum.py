"""masked_cumsum — MultiKernelBench math: torch.cumsum(x * mask, dim=1), x (32768, 32768) f32, mask torch.bool.

AscendCraft DSL: parsed, never executed. The technique of the cumsum example, with the mask
applied on the way in. The mask is a `bool` tensor (one byte per element): its 64 × 64 tile is
loaded into a bool UB buffer next to the x tile, converted to 0.0 / 1.0 with two casts
(bool -> f16 -> f32; Cast has no direct bool -> f32) and multiplied into x in one instruction.
Then 64 rows are scanned side by side: the tile is transposed in UB with one gather() (column j
becomes a contiguous vector of 64 row lanes), each column is added into the next — a running
sum per row, carried from tile to tile — and the tile is transposed back. The tile is square,
so the transpose is its own inverse and one offset table serves both directions. Each element
of x and of the mask is read once, each output element written once.
"""
from ascendcraft.dsl import *

T = 64   # rows scanned side by side (one 256-byte repeat of f32) = columns per tile


@host
def masked_cumsum(x: gm[f32, R, C], mask: gm[bool, R, C], dim: int, y: out[f32, x]):
    assert dim == 1, "this kernel scans along the last axis of a 2-D tensor"
    row_tiles = ceil_div(R, T)
    per_block = ceil_div(row_tiles, cores())
    blocks = ceil_div(row_tiles, per_block)
    launch(masked_cumsum_kernel, blocks, x, mask, y, R, C, row_tiles, per_block, T)


@kernel
def masked_cumsum_kernel(x: gm[f32, R, C], mask: gm[bool, R, C], y: gm[f32, R, C], R: int, C: int,
                         row_tiles: int, per_block: int, t: int):
    xin = ub_in(f32, t * t, bufs=2)
    mask_in = ub_in(bool, t * t, bufs=2)  # mask rows: 64 bytes each, a whole number of 32-byte blocks
    yout = ub_out(f32, t * t, bufs=2)
    keep_h = ub_buf(f16, t * t)          # the mask as 0.0 / 1.0, half precision
    keep = ub_buf(f32, t * t)            # ... and single precision
    cols = ub_buf(f32, t * t)            # transposed tile: column j at cols[j * t]
    carry = ub_buf(f32, t)               # masked sum of everything left of the tile, per row lane
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
            dup(carry, 0.0, t)
        for c in range(0, C, t):
            nc = min(t, C - c)
            with copyin():
                load(xin, x[r : r + nr, c : c + nc], pitch=t)
                load(mask_in, mask[r : r + nr, c : c + nc], pitch=t)
            with compute("scan"):
                cast(keep_h, mask_in, t * t)
                cast(keep, keep_h, t * t)
                mul(xin, xin, keep, t * t)
                gather(cols, xin, transpose, t * t)
                add(cols, cols, carry, t)
                for j in range(1, t):
                    add(cols[j * t], cols[j * t], cols[(j - 1) * t], t)
                copy(carry, cols[(nc - 1) * t], t)
                gather(yout, cols, transpose, t * t)
            with copyout():
                store(y[r : r + nr, c : c + nc], yout, pitch=t)
