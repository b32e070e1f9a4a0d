"""selu — MultiKernelBench activation/selu: y = scale * (max(0, x) + min(0, alpha * (exp(x) - 1))), elementwise.

AscendCraft DSL: parsed, never executed. The flat tensor is split into equal, 32-byte aligned
shares per block; each block streams its share through UB in double-buffered tiles. As in elu,
the two branches are summed instead of selected: y = scale * max(x, 0) + scale * alpha *
(exp(min(x, 0)) - 1); the second term is 0 for x > 0, the first for x <= 0.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile: 2 input + 2 output buffers of 32 KB each
ALPHA = 1.6732632423543772848170429916717
SCALE = 1.0507009873554804934193349852946


@host
def selu(x: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(selu_kernel, blocks, x, y, N, per_block, TILE)


@kernel
def selu_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            relu(yout, xin, n)                  # the x > 0 branch
            muls(yout, yout, SCALE, n)
            mins(xin, xin, 0.0, n)              # the x <= 0 branch, in place on the loaded tile
            exp(xin, xin, n)
            adds(xin, xin, -1.0, n)
            axpy(yout, xin, SCALE * ALPHA, n)   # y += scale * alpha * (exp(min(x, 0)) - 1)
        with copyout():
            store(y[off : off + n], yout)
