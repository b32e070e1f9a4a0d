"""relu — MultiKernelBench activation/relu: y = max(x, 0) elementwise.

AscendCraft DSL: parsed, never executed. The flat tensor is split into equal, 32-byte aligned
shares per block; each block streams its share through UB in double-buffered tiles.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile: 2 input + 2 output buffers of 32 KB each


@host
def relu(x: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(relu_kernel, blocks, x, y, N, per_block, TILE)


@kernel
def relu_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            relu(yout, xin, n)
        with copyout():
            store(y[off : off + n], yout)
