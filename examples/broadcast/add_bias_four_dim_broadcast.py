"""add_bias_four_dim_broadcast — MultiKernelBench broadcast: y = x + bias.view(1, -1, 1, 1), x (N, C, H, W).

AscendCraft DSL: parsed, never executed. The N * C planes of H * W elements are split evenly over
the blocks. Each block loads the C biases once (kept in a scratch buffer) and streams its planes
through UB in double-buffered tiles; a plane gets adds() with its channel's bias, read on the
scalar unit once per plane.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile


@host
def add_bias_four_dim_broadcast(x: gm[f32, N, C, H, W], bias: gm[f32, C], y: out[f32, x]):
    HW = H * W
    P = N * C
    tile = min(TILE, align_up(HW, 8))
    per_block = ceil_div(P, cores())
    blocks = ceil_div(P, per_block)
    launch(bias4_kernel, blocks, x, bias, y, P, C, HW, per_block, tile, align_up(C, 8))


@kernel
def bias4_kernel(x: gm[f32], bias: gm[f32], y: gm[f32], P: int, C: int, HW: int, per_block: int, tile: int, cpad: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    bin = ub_in(f32, cpad)
    b = ub_buf(f32, cpad)
    with copyin():
        load(bin, bias[0:C])
    with compute("bias"):
        copy(b, bin, cpad)
    p0 = block_idx() * per_block
    p1 = min(p0 + per_block, P)
    for p in range(p0, p1):
        with compute("plane_bias"):
            v = get(b, p % C)
        for c in range(0, HW, tile):
            n = min(tile, HW - c)
            with copyin():
                load(xin, x[p * HW + c : p * HW + c + n])
            with compute():
                adds(yout, xin, v, n)
            with copyout():
                store(y[p * HW + c : p * HW + c + n], yout)
