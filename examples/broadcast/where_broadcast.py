"""where_broadcast — MultiKernelBench broadcast: y = where(cond, x, y), cond bool (1, C, 1), x and y (N, C, L).

AscendCraft DSL: parsed, never executed. The condition depends only on the position p in a (C, L)
plane (row c = p // L), so it is expanded once per plane chunk and reused for all N planes:

1. each block loads the C flags once and turns them into 0.0 / 1.0 floats (Cast bool -> half -> float);
2. for a chunk of w plane positions starting at o, integer index math gives each position's row:
   c = o // L + floor((o % L + i + 0.5) / L) (CreateVecIndex, a multiply by 1 / L on float32, where
   the + 0.5 keeps the floor clear of rounding, Cast with floor to int32); Gather() then spreads the
   flags over the chunk, and a compare turns them into a bit mask;
3. every plane n of the chunk is one Select(x, y) with that mask.

Work units are (chunk, plane) pairs, numbered chunk by chunk and split evenly over the blocks, so a
block expands the flags of one or two chunks.
"""
from ascendcraft.dsl import *

CHUNK = 4096  # plane positions per chunk


@host
def where_broadcast(cond: gm[bool, 1, C, 1], x: gm[f32, N, C, L], y: gm[f32, N, C, L], out: out[f32, x]):
    P = C * L
    w = min(CHUNK, align_up(P, 64))
    chunks = ceil_div(P, w)
    units = chunks * N
    blocks = min(cores(), units)
    launch(where_kernel, blocks, cond, x, y, out, N, C, L, P, w, units, align_up(C, 32), 1.0 / L)


@kernel
def where_kernel(cond: gm[bool], x: gm[f32], y: gm[f32], out: gm[f32], N: int, C: int, L: int, P: int, w: int,
                 units: int, cpad: int, inv_l: float):
    xin = ub_in(f32, w, bufs=2)
    yin = ub_in(f32, w, bufs=2)
    oout = ub_out(f32, w, bufs=2)
    cin = ub_in(bool, cpad)
    fh = ub_buf(f16, cpad)
    flags = ub_buf(f32, cpad)
    pos = ub_buf(f32, w)          # position -> row, as float
    row = ub_buf(i32, w)          # row byte offsets into flags
    spread = ub_buf(f32, w)       # each position's flag
    mask = ub_buf(u8, align_up(w // 8, 32))
    with copyin():
        load(cin, cond[0:C])
    with compute("flags"):
        cast(fh, cin, cpad)
        cast(flags, fh, cpad)
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
            mins(row, row, C - 1, w)          # positions past the plane (last chunk) read the last flag
            muls(row, row, 4, w)
            gather(spread, flags, row, w)
            compares(mask, spread, 0.5, "gt", w)
        for n in range(max(u0 - chunk * N, 0), min(u1 - chunk * N, N)):
            with copyin():
                load(xin, x[n * P + o : n * P + o + m])
                load(yin, y[n * P + o : n * P + o + m])
            with compute():
                select(oout, mask, xin, yin, m)
            with copyout():
                store(out[n * P + o : n * P + o + m], oout)
