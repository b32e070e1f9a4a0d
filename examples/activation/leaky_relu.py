"""leaky_relu — MultiKernelBench activation/leaky_relu: y = x if x >= 0 else negative_slope * x, elementwise.

AscendCraft DSL: parsed, never executed. The flat tensor is split into equal, 32-byte aligned
shares per block; each block streams its share through UB in double-buffered tiles, one LeakyRelu
instruction per tile. The model is built without init arguments, so negative_slope takes the
reference's default (0.01) from the host parameter's default.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile: 2 input + 2 output buffers of 32 KB each


@host
def leaky_relu(x: gm[f32, ...], y: out[f32, x], negative_slope: float = 0.01):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(leaky_relu_kernel, blocks, x, y, N, per_block, TILE, negative_slope)


@kernel
def leaky_relu_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int, tile: int, slope: float):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            leaky_relu(yout, xin, slope, n)
        with copyout():
            store(y[off : off + n], yout)
