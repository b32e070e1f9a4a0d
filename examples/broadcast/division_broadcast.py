"""division_broadcast — MultiKernelBench broadcast: y = x / scale, x (N, C, H, W), scale (C, 1, 1).

AscendCraft DSL: parsed, never executed. The N * C planes of H * W elements are split evenly over
the blocks; each block loads the C scales once. A plane is divided by its channel's scale with
div() against a vector filled with that scale (a true division, like PyTorch's, not a multiply
by the reciprocal); the fill is redone only when the channel changes.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile


@host
def division_broadcast(x: gm[f32, N, C, H, W], scale: gm[f32, C, 1, 1], y: out[f32, x]):
    HW = H * W
    P = N * C
    tile = min(TILE, align_up(HW, 8))
    per_block = ceil_div(P, cores())
    blocks = ceil_div(P, per_block)
    launch(div_kernel, blocks, x, scale, y, P, C, HW, per_block, tile, align_up(C, 8))


@kernel
def div_kernel(x: gm[f32], scale: gm[f32], y: gm[f32], P: int, C: int, HW: int, per_block: int, tile: int, cpad: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    sin = ub_in(f32, cpad)
    s = ub_buf(f32, cpad)
    sv = ub_buf(f32, tile)               # the current plane's scale, everywhere
    with copyin():
        load(sin, scale[0:C])
    with compute("scales"):
        copy(s, sin, cpad)
    p0 = block_idx() * per_block
    p1 = min(p0 + per_block, P)
    for p in range(p0, p1):
        with compute("fill"):
            dup(sv, get(s, p % C), tile)
        for c in range(0, HW, tile):
            n = min(tile, HW - c)
            with copyin():
                load(xin, x[p * HW + c : p * HW + c + n])
            with compute():
                div(yout, xin, sv, n)
            with copyout():
                store(y[p * HW + c : p * HW + c + n], yout)
