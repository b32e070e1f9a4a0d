"""power_broadcast — MultiKernelBench broadcast: y = x ** exponent, x (R, M), exponent (M,).

AscendCraft DSL: parsed, never executed. Work units are (row, column chunk) pairs, split evenly
over the blocks; each unit loads its row piece and the matching exponent piece. The power follows
torch.pow, not only the task's positive x:

- |x| ** e = exp(e * ln|x|);
- for x < 0 and an integer e, that magnitude with the sign (-1) ** e (e even: e / 2 is an integer);
- for x < 0 and a non-integer e, NaN (exp(e * ln x) is NaN there);
- e == 0 gives 1 for every x (0 ** 0 too).

Masks come from compare() on whole 256-byte groups, so the tiles are 64-element multiples.
"""
from ascendcraft.dsl import *

CHUNK = 4096  # columns per unit


@host
def power_broadcast(x: gm[f32, R, M], exponent: gm[f32, M], y: out[f32, x]):
    cw = min(CHUNK, align_up(M, 64))
    chunks = ceil_div(M, cw)
    units = chunks * R
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(pow_kernel, blocks, x, exponent, y, R, M, cw, units, per_block)


@kernel
def pow_kernel(x: gm[f32, R, M], e: gm[f32], y: gm[f32, R, M], R: int, M: int, cw: int, units: int, per_block: int):
    xin = ub_in(f32, cw, bufs=2)
    ein = ub_in(f32, cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    mag = ub_buf(f32, cw)        # |x| ** e
    alt = ub_buf(f32, cw)        # scratch: -mag, trunc(e), e / 2
    sgn = ub_buf(f32, cw)        # the integer-exponent result
    m_int = ub_buf(u8, align_up(cw // 8, 32))
    m_even = ub_buf(u8, align_up(cw // 8, 32))
    m_neg = ub_buf(u8, align_up(cw // 8, 32))
    m_nz = ub_buf(u8, align_up(cw // 8, 32))
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        r = u % R
        c = (u // R) * cw
        n = min(cw, M - c)
        na = align_up(n, 64)
        with copyin():
            load(xin, x[r, c : c + n])
            load(ein, e[c : c + n])
        with compute():
            abs(mag, xin, n)
            ln(mag, mag, n)
            mul(mag, mag, ein, n)
            exp(mag, mag, n)              # |x| ** e
            ln(yout, xin, n)
            mul(yout, yout, ein, n)
            exp(yout, yout, n)            # NaN where x < 0
            cast(alt, ein, n, round="trunc")
            compare(m_int, ein, alt, "eq", na)
            muls(alt, ein, 0.5, n)
            cast(sgn, alt, n, round="trunc")
            compare(m_even, alt, sgn, "eq", na)
            compares(m_neg, xin, 0.0, "lt", na)
            compares(m_nz, ein, 0.0, "ne", na)
            muls(alt, mag, -1.0, n)
            select(sgn, m_even, mag, alt, n)
            select(sgn, m_neg, sgn, mag, n)
            select(yout, m_int, sgn, yout, n)
            selects(yout, m_nz, yout, 1.0, n)
        with copyout():
            store(y[r, c : c + n], yout)
