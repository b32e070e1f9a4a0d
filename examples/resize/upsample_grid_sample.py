"""upsample_grid_sample — MultiKernelBench resize: F.interpolate(x, scale_factor=2, bilinear, align_corners=False), then F.grid_sample of it at F.affine_grid(theta) (bilinear, zeros padding, align_corners=False), x (N, C, H, W), theta (N, 2, 3).

AscendCraft DSL: parsed, never executed. Work units are (image, channel) planes, split evenly over
the blocks, and the upsampled plane never leaves UB:

1. the input plane is loaded with one copy;
2. the 2x bilinear upsample is written into a UB plane row by row, as in bilinear_upsample: the
   column tables (byte offsets of each output column's two source columns and the weight pair) are
   scalar work once per block; per upsampled row two Gather() calls per source row and the blends;
3. grid sampling of the upsampled plane is grid_sample_affine's: along one output row the source
   coordinates are linear in the column, so vector arithmetic on an index ramp gives them; floor
   casts give the corners; a corner outside the image weighs 0 (valid = 1 - min(|i - clamp(i)|, 1));
   four Gather() calls read the corners, and the output plane is stored with one copy.
"""
from ascendcraft.dsl import *


SCALE = 2


@host
def upsample_grid_sample(x: gm[f32, N, C, HI, WI], theta: gm[f32, N, 2, 3], y: out[f32, N, C, HI * SCALE, WI * SCALE]):
    units = N * C
    H = HI * SCALE
    W = WI * SCALE
    wpi = align_up(WI, 8)
    wp = align_up(W, 8)
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(upsample_sample_kernel, blocks, x, theta, y, N * C, N, C, HI, WI, H, W, wpi, wp, units, per_block)


@kernel
def upsample_sample_kernel(x: gm[f32, P, HI, WI], theta: gm[f32, N, 6], y: gm[f32, P, H, W], P: int, N: int, C: int,
                           HI: int, WI: int, H: int, W: int, wpi: int, wp: int, units: int, per_block: int):
    xin = ub_in(f32, HI * wpi)
    plane = ub_buf(f32, H * wp)
    c0 = ub_buf(i32, wp)
    c1 = ub_buf(i32, wp)
    w0 = ub_buf(f32, wp)
    w1 = ub_buf(f32, wp)
    tin = ub_in(f32, 8)
    yout = ub_out(f32, H * wp)
    ramp = ub_buf(f32, wp)
    fx = ub_buf(f32, wp)
    fy = ub_buf(f32, wp)
    x0 = ub_buf(f32, wp)
    y0 = ub_buf(f32, wp)
    ex0 = ub_buf(f32, wp)
    ex1 = ub_buf(f32, wp)
    ey0 = ub_buf(f32, wp)
    ey1 = ub_buf(f32, wp)
    t = ub_buf(f32, wp)
    ix = ub_buf(i32, wp)
    iy = ub_buf(i32, wp)
    o00 = ub_buf(i32, wp)
    o01 = ub_buf(i32, wp)
    o10 = ub_buf(i32, wp)
    o11 = ub_buf(i32, wp)
    a = ub_buf(f32, wp)
    b = ub_buf(f32, wp)
    with compute("tables"):
        iota(ramp, 0.0, wp)
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
                sy = max((uy + 0.5) * HI / H - 0.5, 0.0)
                iy0 = int(sy)
                fy0 = sy - iy0
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
            for oy in range(H):
                by = (2.0 * oy + 1.0) / H - 1.0
                bx0 = (t00 * (1.0 / W - 1.0) + t01 * by + t02 + 1.0) * W * 0.5 - 0.5
                by0 = (t10 * (1.0 / W - 1.0) + t11 * by + t12 + 1.0) * H * 0.5 - 0.5
                # source coordinates, their floors and fractions
                muls(fx, ramp, t00, W)
                adds(fx, fx, bx0, W)
                muls(fy, ramp, t10 * H / W, W)
                adds(fy, fy, by0, W)
                cast(ix, fx, W, round="floor")
                cast(iy, fy, W, round="floor")
                cast(x0, ix, W)
                cast(y0, iy, W)
                sub(fx, fx, x0, W)
                sub(fy, fy, y0, W)
                # weights with zero padding: a corner outside the image weighs 0
                maxs(t, x0, 0.0, W)
                mins(t, t, W - 1.0, W)
                sub(t, x0, t, W)
                abs(t, t, W)
                mins(t, t, 1.0, W)
                muls(ex0, fx, -1.0, W)
                adds(ex0, ex0, 1.0, W)
                muls(t, t, -1.0, W)
                adds(t, t, 1.0, W)
                mul(ex0, ex0, t, W)
                adds(t, x0, 1.0, W)
                maxs(a, t, 0.0, W)
                mins(a, a, W - 1.0, W)
                sub(t, t, a, W)
                abs(t, t, W)
                mins(t, t, 1.0, W)
                muls(t, t, -1.0, W)
                adds(t, t, 1.0, W)
                mul(ex1, fx, t, W)
                maxs(t, y0, 0.0, W)
                mins(t, t, H - 1.0, W)
                sub(t, y0, t, W)
                abs(t, t, W)
                mins(t, t, 1.0, W)
                muls(ey0, fy, -1.0, W)
                adds(ey0, ey0, 1.0, W)
                muls(t, t, -1.0, W)
                adds(t, t, 1.0, W)
                mul(ey0, ey0, t, W)
                adds(t, y0, 1.0, W)
                maxs(a, t, 0.0, W)
                mins(a, a, H - 1.0, W)
                sub(t, t, a, W)
                abs(t, t, W)
                mins(t, t, 1.0, W)
                muls(t, t, -1.0, W)
                adds(t, t, 1.0, W)
                mul(ey1, fy, t, W)
                # clamped byte offsets of the four corners
                maxs(o00, ix, 0, W)
                mins(o00, o00, W - 1, W)
                adds(o01, ix, 1, W)
                maxs(o01, o01, 0, W)
                mins(o01, o01, W - 1, W)
                muls(o00, o00, 4, W)
                muls(o01, o01, 4, W)
                maxs(o10, iy, 0, W)
                mins(o10, o10, H - 1, W)
                muls(o10, o10, wp * 4, W)
                adds(o11, iy, 1, W)
                maxs(o11, o11, 0, W)
                mins(o11, o11, H - 1, W)
                muls(o11, o11, wp * 4, W)
                add(ix, o10, o01, W)
                add(iy, o11, o01, W)
                add(o10, o10, o00, W)
                add(o11, o11, o00, W)
                # blend: ey0 * (ex0 * p00 + ex1 * p01) + ey1 * (ex0 * p10 + ex1 * p11)
                gather(a, plane, o10, W)
                gather(b, plane, ix, W)
                mul(a, a, ex0, W)
                mul(b, b, ex1, W)
                add(a, a, b, W)
                mul(t, a, ey0, W)
                gather(a, plane, o11, W)
                gather(b, plane, iy, W)
                mul(a, a, ex0, W)
                mul(b, b, ex1, W)
                add(a, a, b, W)
                mul(a, a, ey1, W)
                add(yout[oy * wp], t, a, W)
        with copyout():
            store(y[u, 0 : H, 0 : W], yout, pitch=wp)
