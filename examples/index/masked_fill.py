"""masked_fill — MultiKernelBench index/masked_fill: y = x.masked_fill(mask, -inf), mask a torch.bool tensor of x's shape.

AscendCraft DSL: parsed, never executed. Elementwise: the flat tensors are split into equal shares
per block and streamed through UB in double-buffered tiles. A tile's mask bytes become 0.0 / 1.0
(Cast bool -> half -> float), a compare makes them a bit mask, and Select with a scalar writes -inf
where the mask is set and x elsewhere.
"""
from ascendcraft.dsl import *

TILE = 4096  # elements per tile


@host
def masked_fill(x: gm[f32, ...], mask: gm[bool, ...], y: out[f32, x]):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 32)   # whole 32-byte blocks of the mask too
    launch(fill_kernel, blocks, x, mask, y, N, per_block, TILE)


@kernel
def fill_kernel(x: gm[f32], mask: gm[bool], y: gm[f32], N: int, per_block: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    min_ = ub_in(bool, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    h = ub_buf(f16, tile)
    f = ub_buf(f32, tile)
    keep = ub_buf(u8, align_up(tile // 8, 32))
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
            load(min_, mask[off : off + n])
        with compute():
            cast(h, min_, n)
            cast(f, h, n)
            compares(keep, f, 0.5, "lt", align_up(n, 64))
            selects(yout, keep, xin, -inf, n)
        with copyout():
            store(y[off : off + n], yout)
