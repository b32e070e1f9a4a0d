"""elmentwise_mul_broadcast — MultiKernelBench broadcast: y = a * b, a (A, 1, M), b (1, B, M) -> y (A, B, M).

AscendCraft DSL: parsed, never executed. Output row (i, j) is a[i] * b[j]. Work units are
(output row, column chunk) pairs, split evenly over the blocks; a unit loads the two row pieces
it multiplies (each is read B or A times in all, from L2 after the first) and writes its piece
of the output once.
"""
from ascendcraft.dsl import *

CHUNK = 8192  # columns per unit


@host
def elmentwise_mul_broadcast(a: gm[f32, A, 1, M], b: gm[f32, 1, B, M], y: out[f32, A, B, M]):
    cw = min(CHUNK, align_up(M, 8))
    chunks = ceil_div(M, cw)
    rows = A * B
    units = chunks * rows
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(mul_kernel, blocks, a, b, y, B, M, rows, cw, units, per_block)


@kernel
def mul_kernel(a: gm[f32], b: gm[f32], y: gm[f32], B: int, M: int, rows: int, cw: int, units: int, per_block: int):
    ain = ub_in(f32, cw, bufs=2)
    bin = ub_in(f32, cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        row = u % rows
        c = (u // rows) * cw
        n = min(cw, M - c)
        i = row // B
        j = row % B
        with copyin():
            load(ain, a[i * M + c : i * M + c + n])
            load(bin, b[j * M + c : j * M + c + n])
        with compute():
            mul(yout, ain, bin, n)
        with copyout():
            store(y[row * M + c : row * M + c + n], yout)
