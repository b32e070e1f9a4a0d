"""clamp_broadcast — MultiKernelBench broadcast: y = clamp(x, min=lo, max=hi), x (R, M), lo and hi (M,).

AscendCraft DSL: parsed, never executed. Work units are (row, column chunk) pairs split evenly
over the blocks; a unit loads its row piece and the matching bound pieces, then max() with the
lower bound and min() with the upper one (torch.clamp's order: where lo > hi the result is hi).
"""
from ascendcraft.dsl import *

CHUNK = 8192  # columns per unit


@host
def clamp_broadcast(x: gm[f32, R, M], min_val: gm[f32, M], max_val: gm[f32, M], y: out[f32, x]):
    cw = min(CHUNK, align_up(M, 8))
    chunks = ceil_div(M, cw)
    units = chunks * R
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(clamp_kernel, blocks, x, min_val, max_val, y, R, M, cw, units, per_block)


@kernel
def clamp_kernel(x: gm[f32, R, M], lo: gm[f32], hi: gm[f32], y: gm[f32, R, M], R: int, M: int, cw: int, units: int,
                 per_block: int):
    xin = ub_in(f32, cw, bufs=2)
    loin = ub_in(f32, cw, bufs=2)
    hiin = ub_in(f32, cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        r = u % R
        c = (u // R) * cw
        n = min(cw, M - c)
        with copyin():
            load(xin, x[r, c : c + n])
            load(loin, lo[c : c + n])
            load(hiin, hi[c : c + n])
        with compute():
            max(yout, xin, loin, n)
            min(yout, yout, hiin, n)
        with copyout():
            store(y[r, c : c + n], yout)
