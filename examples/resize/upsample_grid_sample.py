"""upsample_grid_sample — MultiKernelBench resize: F.interpolate(x, scale_factor=2, bilinear, align_corners=False), then F.grid_sample of it at F.affine_grid(theta) (bilinear, zeros padding, align_corners=False), x (N, C, H, W), theta (N, 2, 3).

AscendCraft DSL: parsed, never executed. Work units are (image, channel) planes, split evenly over
the blocks, and the upsampled plane never leaves UB:

1. the input plane is loaded with one copy;
2. the 2x bilinear upsample is written into a UB plane row by row, as in bilinear_upsample: the
   column tables (byte offsets of each output column's two source columns and the weight pair) are
   scalar work once per block; per upsampled row two Gather() calls per source row and the blends;
3. grid sampling of the upsampled plane is grid_sample_affine's: the source coordinates are linear
   in the output pixel, so vector arithmetic on two index ramps gives them, a block of whole rows
   at a time; floor
   casts give the corners; a corner outside the image weighs 0 (valid = 1 - min(|i - clamp(i)|, 1));
   four Gather() calls read the corners, and the output plane is stored with one copy.
"""
from ascendcraft.dsl import *

KB = 512      # elements per vector block: whole output rows


SCALE = 2


@host
def upsample_grid_sample(x: gm[f32, N, C, HI, WI], theta: gm[f32, N, 2, 3], y: out[f32, N, C, HI * SCALE, WI * SCALE]):
    units = N * C
    H = HI * SCALE
    W = WI * SCALE
    wpi = align_up(WI, 8)
    wp = align_up(W, 8)
    kr = min(max(KB // wp, 1), H)
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(upsample_sample_kernel, blocks, x, theta, y, N * C, N, C, HI, WI, H, W, wpi, wp, kr, units, per_block)


@kernel
def upsample_sample_kernel(x: gm[f32, P, HI, WI], theta: gm[f32, N, 6], y: gm[f32, P, H, W], P: int, N: int, C: int,
                           HI: int, WI: int, H: int, W: int, wpi: int, wp: int, kr: int, units: int, per_block: int):
    xin = ub_in(f32, HI * wpi)
    plane = ub_buf(f32, H * wp)
    c0 = ub_buf(i32, wp)
    c1 = ub_buf(i32, wp)
    w0 = ub_buf(f32, wp)
    w1 = ub_buf(f32, wp)
    tin = ub_in(f32, 8)
    yout = ub_out(f32, H * wp)
    rx = ub_buf(f32, kr * wp)
    ry = ub_buf(f32, kr * wp)
    fx = ub_buf(f32, kr * wp)
    fy = ub_buf(f32, kr * wp)
    x0 = ub_buf(f32, kr * wp)
    y0 = ub_buf(f32, kr * wp)
    ex0 = ub_buf(f32, kr * wp)
    ex1 = ub_buf(f32, kr * wp)
    ey0 = ub_buf(f32, kr * wp)
    ey1 = ub_buf(f32, kr * wp)
    t = ub_buf(f32, kr * wp)
    ix = ub_buf(i32, kr * wp)
    iy = ub_buf(i32, kr * wp)
    o00 = ub_buf(i32, kr * wp)
    o01 = ub_buf(i32, kr * wp)
    o10 = ub_buf(i32, kr * wp)
    o11 = ub_buf(i32, kr * wp)
    a = ub_buf(f32, kr * wp)
    b = ub_buf(f32, kr * wp)
    with compute("tables"):
        dup(c0, 0, wp)
        dup(c1, 0, wp)
        dup(w0, 0.0, wp)
        dup(w1, 0.0, wp)
        for ox in range(W):
            s = max((ox + 0.5) * WI / W - 0.5, 0.0)
            i0 = int(s)
            f = s - i0
            set(c0, ox, i0 * 4)
            set(c1, ox, min(i0 + 1, WI - 1) * 4)
            set(w0, ox, 1.0 - f)
            set(w1, ox, f)
        iota(rx, 0.0, wp)
        dup(ry, 0.0, wp)
        for j in range(1, kr):
            copy(rx[j * wp], rx, wp)
            dup(ry[j * wp], j * 1.0, wp)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        n = u // C
        with copyin():
            load(tin, theta[n, 0 : 6])
            load(xin, x[u, 0 : HI, 0 : WI], pitch=wpi)
        with compute():
            # the 2x bilinear upsample, into the UB plane
            for uy in range(H):
                sy0 = max((uy + 0.5) * HI / H - 0.5, 0.0)
                iy0 = int(sy0)
                fy0 = sy0 - iy0
                iy1 = min(iy0 + 1, HI - 1)
                gather(a, xin[iy0 * wpi], c0, W)
                gather(b, xin[iy0 * wpi], c1, W)
                mul(a, a, w0, W)
                mul(b, b, w1, W)
                add(t, a, b, W)
                gather(a, xin[iy1 * wpi], c0, W)
                gather(b, xin[iy1 * wpi], c1, W)
                mul(a, a, w0, W)
                mul(b, b, w1, W)
                add(a, a, b, W)
                muls(t, t, 1.0 - fy0, W)
                muls(a, a, fy0, W)
                add(plane[uy * wp], t, a, W)
            t00 = get(tin, 0)
            t01 = get(tin, 1)
            t02 = get(tin, 2)
            t10 = get(tin, 3)
            t11 = get(tin, 4)
            t12 = get(tin, 5)
            sx = t01 * W / H
            sy = t10 * H / W
            cx = (t00 * (1.0 / W - 1.0) + t01 * (1.0 / H - 1.0) + t02 + 1.0) * W * 0.5 - 0.5
            cy = (t10 * (1.0 / W - 1.0) + t11 * (1.0 / H - 1.0) + t12 + 1.0) * H * 0.5 - 0.5
            for oy in range(0, H, kr):
                m = min(kr, H - oy) * wp
                # source coordinates, their floors and fractions
                muls(fx, rx, t00, m)
                axpy(fx, ry, sx, m)
                adds(fx, fx, cx + sx * oy, m)
                muls(fy, rx, sy, m)
                axpy(fy, ry, t11, m)
                adds(fy, fy, cy + t11 * oy, m)
                cast(ix, fx, m, round="floor")
                cast(iy, fy, m, round="floor")
                cast(x0, ix, m)
                cast(y0, iy, m)
                sub(fx, fx, x0, m)
                sub(fy, fy, y0, m)
                # weights with zero padding: a corner outside the image weighs 0
                maxs(t, x0, 0.0, m)
                mins(t, t, W - 1.0, m)
                sub(t, x0, t, m)
                abs(t, t, m)
                mins(t, t, 1.0, m)
                muls(ex0, fx, -1.0, m)
                adds(ex0, ex0, 1.0, m)
                muls(t, t, -1.0, m)
                adds(t, t, 1.0, m)
                mul(ex0, ex0, t, m)
                adds(t, x0, 1.0, m)
                maxs(a, t, 0.0, m)
                mins(a, a, W - 1.0, m)
                sub(t, t, a, m)
                abs(t, t, m)
                mins(t, t, 1.0, m)
                muls(t, t, -1.0, m)
                adds(t, t, 1.0, m)
                mul(ex1, fx, t, m)
                maxs(t, y0, 0.0, m)
                mins(t, t, H - 1.0, m)
                sub(t, y0, t, m)
                abs(t, t, m)
                mins(t, t, 1.0, m)
                muls(ey0, fy, -1.0, m)
                adds(ey0, ey0, 1.0, m)
                muls(t, t, -1.0, m)
                adds(t, t, 1.0, m)
                mul(ey0, ey0, t, m)
                adds(t, y0, 1.0, m)
                maxs(a, t, 0.0, m)
                mins(a, a, H - 1.0, m)
                sub(t, t, a, m)
                abs(t, t, m)
                mins(t, t, 1.0, m)
                muls(t, t, -1.0, m)
                adds(t, t, 1.0, m)
                mul(ey1, fy, t, m)
                # clamped byte offsets of the four corners
                maxs(o00, ix, 0, m)
                mins(o00, o00, W - 1, m)
                adds(o01, ix, 1, m)
                maxs(o01, o01, 0, m)
                mins(o01, o01, W - 1, m)
                muls(o00, o00, 4, m)
                muls(o01, o01, 4, m)
                maxs(o10, iy, 0, m)
                mins(o10, o10, H - 1, m)
                muls(o10, o10, wp * 4, m)
                adds(o11, iy, 1, m)
                maxs(o11, o11, 0, m)
                mins(o11, o11, H - 1, m)
                muls(o11, o11, wp * 4, m)
                add(ix, o10, o01, m)
                add(iy, o11, o01, m)
                add(o10, o10, o00, m)
                add(o11, o11, o00, m)
                # blend: ey0 * (ex0 * p00 + ex1 * p01) + ey1 * (ex0 * p10 + ex1 * p11)
                gather(a, plane, o10, m)
                gather(b, plane, ix, m)
                mul(a, a, ex0, m)
                mul(b, b, ex1, m)
                add(a, a, b, m)
                mul(t, a, ey0, m)
                gather(a, plane, o11, m)
                gather(b, plane, iy, m)
                mul(a, a, ex0, m)
                mul(b, b, ex1, m)
                add(a, a, b, m)
                mul(a, a, ey1, m)
                add(yout[oy * wp], t, a, m)
        with copyout():
            store(y[u, 0 : H, 0 : W], yout, pitch=wp)
