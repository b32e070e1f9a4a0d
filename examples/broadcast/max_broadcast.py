"""max_broadcast — MultiKernelBench broadcast: y = maximum(a, b), a (A, 1, M), b (1, B, 1) -> y (A, B, M).

AscendCraft DSL: parsed, never executed. Output row (i, j) is max(a[i], b[j]): one maxs() of
a's row with the scalar b[j]. Each block loads the B values of b once (scratch buffer, read on the
scalar unit); work units are (output row, column chunk) pairs, split evenly over the blocks.
NaN follows torch.maximum only for NaN in a (Maxs keeps the vector operand's NaN).
"""
from ascendcraft.dsl import *

CHUNK = 8192  # columns per unit


@host
def max_broadcast(a: gm[f32, A, 1, M], b: gm[f32, 1, B, 1], y: out[f32, A, B, M]):
    cw = min(CHUNK, align_up(M, 8))
    chunks = ceil_div(M, cw)
    rows = A * B
    units = chunks * rows
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(max_kernel, blocks, a, b, y, B, M, rows, cw, units, per_block, align_up(B, 8))


@kernel
def max_kernel(a: gm[f32], b: gm[f32], y: gm[f32], B: int, M: int, rows: int, cw: int, units: int, per_block: int,
               bpad: int):
    ain = ub_in(f32, cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    bin = ub_in(f32, bpad)
    bv = ub_buf(f32, bpad)
    with copyin():
        load(bin, b[0:B])
    with compute("b"):
        copy(bv, bin, bpad)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        row = u % rows
        c = (u // rows) * cw
        n = min(cw, M - c)
        i = row // B
        with copyin():
            load(ain, a[i * M + c : i * M + c + n])
        with compute():
            maxs(yout, ain, get(bv, row % B), n)
        with copyout():
            store(y[row * M + c : row * M + c + n], yout)
