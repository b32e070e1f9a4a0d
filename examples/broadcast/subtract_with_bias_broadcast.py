"""subtract_with_bias_broadcast — MultiKernelBench broadcast: y = x - bias, x (R, M), bias (M,).

AscendCraft DSL: parsed, never executed. Work units are (row, column chunk) pairs, split evenly
over the blocks; each unit loads its row piece and the matching bias piece and subtracts. Units
are numbered chunk-major, so a block's run of units mostly shares one bias chunk (reloaded per
unit: it is small and hits L2).
"""
from ascendcraft.dsl import *

CHUNK = 8192  # columns per unit


@host
def subtract_with_bias_broadcast(x: gm[f32, R, M], bias: gm[f32, M], y: out[f32, x]):
    cw = min(CHUNK, align_up(M, 8))
    chunks = ceil_div(M, cw)
    units = chunks * R
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(sub_bias_kernel, blocks, x, bias, y, R, M, cw, units, per_block)


@kernel
def sub_bias_kernel(x: gm[f32, R, M], bias: gm[f32], y: gm[f32, R, M], R: int, M: int, cw: int, units: int,
                    per_block: int):
    xin = ub_in(f32, cw, bufs=2)
    bin = ub_in(f32, cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        r = u % R
        c = (u // R) * cw
        n = min(cw, M - c)
        with copyin():
            load(xin, x[r, c : c + n])
            load(bin, bias[c : c + n])
        with compute():
            sub(yout, xin, bin, n)
        with copyout():
            store(y[r, c : c + n], yout)
