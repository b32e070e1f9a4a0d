"""add_bias_broadcast — MultiKernelBench broadcast/add_bias_broadcast: y = x + bias, bias a 0-dim tensor.

AscendCraft DSL: parsed, never executed. Elementwise, like relu: the flat x is split into equal,
32-byte aligned shares per block, streamed through UB in double-buffered tiles. Each block loads
the one-element bias once, reads it on the scalar unit, and adds it with adds() per tile.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile: 2 input + 2 output buffers of 32 KB each


@host
def add_bias_broadcast(x: gm[f32, ...], bias: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(add_bias_kernel, blocks, x, bias, y, N, per_block, TILE)


@kernel
def add_bias_kernel(x: gm[f32], bias: gm[f32], y: gm[f32], N: int, per_block: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    bin = ub_in(f32, 8)
    yout = ub_out(f32, tile, bufs=2)
    with copyin():
        load(bin, bias[0:1])
    with compute("bias"):
        b = get(bin, 0)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            adds(yout, xin, b, n)
        with copyout():
            store(y[off : off + n], yout)
