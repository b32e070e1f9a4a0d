"""gelu — MultiKernelBench activation/gelu: exact GELU, y = 0.5 * x * (1 + erf(x / sqrt(2))), elementwise.

AscendCraft DSL: parsed, never executed. The flat tensor is split into equal, 32-byte aligned
shares per block; each block streams its share through UB in double-buffered tiles. erf() is an
advanced API that may not work in place (its source and destination must not overlap), so the
scaled input goes to a scratch tile first.
"""
from ascendcraft.dsl import *

TILE = 8192           # elements per tile: 2 input + 2 output + 1 scratch buffers of 32 KB each;
                      # the rest of UB stays free for erf()'s own temporary space
INV_SQRT2 = 0.7071067811865476


@host
def gelu(x: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(gelu_kernel, blocks, x, y, N, per_block, TILE)


@kernel
def gelu_kernel(x: gm[f32], y: gm[f32], N: int, per_block: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    scaled = ub_buf(f32, tile)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute():
            muls(scaled, xin, INV_SQRT2, n)
            erf(yout, scaled, n)
            adds(yout, yout, 1.0, n)
            mul(yout, yout, xin, n)
            muls(yout, yout, 0.5, n)
        with copyout():
            store(y[off : off + n], yout)
