"""grid_sample_random_warp — MultiKernelBench resize: F.grid_sample(x, grid, bilinear, zeros padding, align_corners=False), x (N, C, H, W), grid (N, OH, OW, 2).

AscendCraft DSL: parsed, never executed. grid_sample reads the input at ix = ((gx + 1) W - 1) / 2,
iy = ((gy + 1) H - 1) / 2 and blends the four pixels around it, a corner outside the image counting
as 0. The grid may point anywhere, and a 256 x 256 plane does not fit in UB, so the plane is read in
bands of source rows and every band adds the corners that fall inside it. Work units are
(plane, band of RB output rows) pairs, split evenly over the blocks:

1. the unit's grid rows are loaded with one copy; Gather() with byte offsets 8 i and 8 i + 4 splits
   them into gx and gy, which vector arithmetic turns into ix and iy;
2. per band of source rows (one copy each), for each output row: Cast with floor gives the corners;
   a corner's weight is multiplied by valid = 1 - min(|i - clamp(i, lo, hi)|, 1), with [lo, hi] the
   image's columns and the band's rows, so each corner is counted by exactly one band and nothing
   outside the image counts; the clamped corners' byte offsets feed four Gather() calls, and the
   blend is added into the unit's accumulator;
3. the accumulator is stored once.
"""
from ascendcraft.dsl import *

RB = 16       # output rows per work unit
BAND = 8192   # source elements per band of rows


@host
def grid_sample_random_warp(x: gm[f32, N, C, H, W], grid: gm[f32, N, OH, OW, 2], y: out[f32, N, C, OH, OW]):
    wp = align_up(W, 8)
    owp = align_up(OW, 8)
    rb = min(RB, OH)
    sb = max(min(H, BAND // wp), 1)
    obands = ceil_div(OH, rb)
    sbands = ceil_div(H, sb)
    units = N * C * obands
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(warp_kernel, blocks, x, grid, y, N * C, N, C, H, W, OH, OW, 2 * OW, wp, owp, rb, sb, obands, sbands, units,
           per_block)


@kernel
def warp_kernel(x: gm[f32, P, H, W], grid: gm[f32, N, OH, G], y: gm[f32, P, OH, OW], P: int, N: int, C: int, H: int,
                W: int, OH: int, OW: int, G: int, wp: int, owp: int, rb: int, sb: int, obands: int, sbands: int,
                units: int, per_block: int):
    gin = ub_in(f32, rb * 2 * owp)
    band = ub_in(f32, sb * wp, bufs=2)
    yout = ub_out(f32, rb * owp)
    gx = ub_buf(f32, rb * owp)
    gy = ub_buf(f32, rb * owp)
    acc = ub_buf(f32, rb * owp)
    even = ub_buf(i32, owp)
    odd = ub_buf(i32, owp)
    fx = ub_buf(f32, owp)
    fy = ub_buf(f32, owp)
    x0 = ub_buf(f32, owp)
    y0 = ub_buf(f32, owp)
    ex0 = ub_buf(f32, owp)
    ex1 = ub_buf(f32, owp)
    ey0 = ub_buf(f32, owp)
    ey1 = ub_buf(f32, owp)
    t = ub_buf(f32, owp)
    a = ub_buf(f32, owp)
    b = ub_buf(f32, owp)
    ix = ub_buf(i32, owp)
    iy = ub_buf(i32, owp)
    o00 = ub_buf(i32, owp)
    o01 = ub_buf(i32, owp)
    o10 = ub_buf(i32, owp)
    o11 = ub_buf(i32, owp)
    with compute("tables"):
        iota(even, 0, owp)
        muls(even, even, 8, owp)
        adds(odd, even, 4, owp)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        p = u // obands
        n = p // C
        r = (u % obands) * rb
        nr = min(rb, OH - r)
        with copyin():
            load(gin, grid[n, r : r + nr, 0 : G], pitch=2 * owp)
        with compute("grid"):
            dup(acc, 0.0, rb * owp)
            for j in range(nr):
                gather(gx[j * owp], gin[j * 2 * owp], even, OW)
                gather(gy[j * owp], gin[j * 2 * owp], odd, OW)
                muls(gx[j * owp], gx[j * owp], W * 0.5, OW)
                adds(gx[j * owp], gx[j * owp], (W - 1) * 0.5, OW)
                muls(gy[j * owp], gy[j * owp], H * 0.5, OW)
                adds(gy[j * owp], gy[j * owp], (H - 1) * 0.5, OW)
        for s in range(sbands):
            r0 = s * sb
            nb = min(sb, H - r0)
            with copyin():
                load(band, x[p, r0 : r0 + nb, 0 : W], pitch=wp)
            with compute("band"):
                for j in range(nr):
                    # corners and fractions
                    cast(ix, gx[j * owp], OW, round="floor")
                    cast(iy, gy[j * owp], OW, round="floor")
                    cast(x0, ix, OW)
                    cast(y0, iy, OW)
                    sub(fx, gx[j * owp], x0, OW)
                    sub(fy, gy[j * owp], y0, OW)
                    # column weights: zero outside the image
                    maxs(t, x0, 0.0, OW)
                    mins(t, t, W - 1.0, OW)
                    sub(t, x0, t, OW)
                    abs(t, t, OW)
                    mins(t, t, 1.0, OW)
                    muls(t, t, -1.0, OW)
                    adds(t, t, 1.0, OW)
                    muls(ex0, fx, -1.0, OW)
                    adds(ex0, ex0, 1.0, OW)
                    mul(ex0, ex0, t, OW)
                    adds(t, x0, 1.0, OW)
                    maxs(a, t, 0.0, OW)
                    mins(a, a, W - 1.0, OW)
                    sub(t, t, a, OW)
                    abs(t, t, OW)
                    mins(t, t, 1.0, OW)
                    muls(t, t, -1.0, OW)
                    adds(t, t, 1.0, OW)
                    mul(ex1, fx, t, OW)
                    # row weights: zero outside this band's rows
                    maxs(t, y0, r0 * 1.0, OW)
                    mins(t, t, r0 + nb - 1.0, OW)
                    sub(t, y0, t, OW)
                    abs(t, t, OW)
                    mins(t, t, 1.0, OW)
                    muls(t, t, -1.0, OW)
                    adds(t, t, 1.0, OW)
                    muls(ey0, fy, -1.0, OW)
                    adds(ey0, ey0, 1.0, OW)
                    mul(ey0, ey0, t, OW)
                    adds(t, y0, 1.0, OW)
                    maxs(a, t, r0 * 1.0, OW)
                    mins(a, a, r0 + nb - 1.0, OW)
                    sub(t, t, a, OW)
                    abs(t, t, OW)
                    mins(t, t, 1.0, OW)
                    muls(t, t, -1.0, OW)
                    adds(t, t, 1.0, OW)
                    mul(ey1, fy, t, OW)
                    # clamped byte offsets into the band
                    maxs(o00, ix, 0, OW)
                    mins(o00, o00, W - 1, OW)
                    adds(o01, ix, 1, OW)
                    maxs(o01, o01, 0, OW)
                    mins(o01, o01, W - 1, OW)
                    muls(o00, o00, 4, OW)
                    muls(o01, o01, 4, OW)
                    maxs(o10, iy, r0, OW)
                    mins(o10, o10, r0 + nb - 1, OW)
                    adds(o10, o10, -r0, OW)
                    muls(o10, o10, wp * 4, OW)
                    adds(o11, iy, 1, OW)
                    maxs(o11, o11, r0, OW)
                    mins(o11, o11, r0 + nb - 1, OW)
                    adds(o11, o11, -r0, OW)
                    muls(o11, o11, wp * 4, OW)
                    add(ix, o10, o01, OW)
                    add(iy, o11, o01, OW)
                    add(o10, o10, o00, OW)
                    add(o11, o11, o00, OW)
                    # acc += ey0 * (ex0 * p00 + ex1 * p01) + ey1 * (ex0 * p10 + ex1 * p11)
                    gather(a, band, o10, OW)
                    gather(b, band, ix, OW)
                    mul(a, a, ex0, OW)
                    mul(b, b, ex1, OW)
                    add(a, a, b, OW)
                    mul(t, a, ey0, OW)
                    gather(a, band, o11, OW)
                    gather(b, band, iy, OW)
                    mul(a, a, ex0, OW)
                    mul(b, b, ex1, OW)
                    add(a, a, b, OW)
                    mul(a, a, ey1, OW)
                    add(a, a, t, OW)
                    add(acc[j * owp], acc[j * owp], a, OW)
        with compute("out"):
            copy(yout, acc, rb * owp)
        with copyout():
            store(y[p, r : r + nr, 0 : OW], yout, pitch=owp)
