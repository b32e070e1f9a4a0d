"""logic_and_broadcast — MultiKernelBench broadcast: y = a & b, a bool (N, C, L), b bool (1, C, 1).

AscendCraft DSL: parsed, never executed. b depends only on the position p in a (C, L) plane (row
c = p // L), so it is expanded once per plane chunk and reused for all N planes:

1. each block loads the C flags of b once and turns them into 0.0 / 1.0 halves (Cast bool -> half);
2. for a chunk of w plane positions starting at o, integer index math gives each position's row:
   c = o // L + floor((o % L + i + 0.5) / L) (CreateVecIndex, a multiply by 1 / L on float32, Cast
   with floor to int32), and Gather() spreads the flags over the chunk;
3. every plane n of the chunk: Cast a to half, multiply by the spread flags, Cast the 0 / 1 result
   back to bool.

Work units are (chunk, plane) pairs, numbered chunk by chunk and split evenly over the blocks.
"""
from ascendcraft.dsl import *

CHUNK = 8192  # plane positions per chunk


@host
def logic_and_broadcast(a: gm[bool, N, C, L], b: gm[bool, 1, C, 1], y: out[bool, a]):
    P = C * L
    w = min(CHUNK, align_up(P, 64))
    chunks = ceil_div(P, w)
    units = chunks * N
    blocks = min(cores(), units)
    launch(and_kernel, blocks, a, b, y, N, C, L, P, w, units, align_up(C, 32), 1.0 / L)


@kernel
def and_kernel(a: gm[bool], b: gm[bool], y: gm[bool], N: int, C: int, L: int, P: int, w: int, units: int, cpad: int,
               inv_l: float):
    ain = ub_in(bool, w, bufs=2)
    yout = ub_out(bool, w, bufs=2)
    bin = ub_in(bool, cpad)
    flags = ub_buf(f16, cpad)
    pos = ub_buf(f32, w)
    row = ub_buf(i32, w)
    spread = ub_buf(f16, w)
    h = ub_buf(f16, w)
    with copyin():
        load(bin, b[0:C])
    with compute("flags"):
        cast(flags, bin, cpad)
    u0 = block_idx() * units // block_num()
    u1 = (block_idx() + 1) * units // block_num()
    for chunk in range(u0 // N, (u1 - 1) // N + 1):
        o = chunk * w
        m = min(w, P - o)
        with compute("expand"):
            iota(pos, (o % L) + 0.5, w)
            muls(pos, pos, inv_l, w)
            cast(row, pos, w, round="floor")
            adds(row, row, o // L, w)
            mins(row, row, C - 1, w)
            muls(row, row, 2, w)              # byte offsets of halves
            gather(spread, flags, row, w)
        for n in range(max(u0 - chunk * N, 0), min(u1 - chunk * N, N)):
            with copyin():
                load(ain, a[n * P + o : n * P + o + m])
            with compute():
                cast(h, ain, m)
                mul(h, h, spread, m)
                cast(yout, h, m)
            with copyout():
                store(y[n * P + o : n * P + o + m], yout)
