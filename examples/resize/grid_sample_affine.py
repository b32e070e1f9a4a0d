"""grid_sample_affine — MultiKernelBench resize: F.grid_sample(x, F.affine_grid(theta, x.size()), bilinear, zeros padding, align_corners=False), x (N, C, H, W), theta (N, 2, 3).

AscendCraft DSL: parsed, never executed. affine_grid puts output pixel (oy, ox) at the normalised
point (bx, by) = ((2 ox + 1) / W - 1, (2 oy + 1) / H - 1), maps it by theta, and grid_sample reads the
input at ix = ((gx + 1) W - 1) / 2, iy = ((gy + 1) H - 1) / 2. Along one output row both source
coordinates are linear in ox: ix = t00 ox + bx0 and iy = (t10 H / W) ox + by0, the intercepts being
scalar arithmetic on theta (read once per plane with GetValue). Work units are (image, channel)
planes, split evenly over the blocks:

1. the whole plane is loaded into UB with one copy (rows padded to 8 floats);
2. per output row (one compute stage walks the plane's rows), vector arithmetic turns an index ramp into ix and iy, floors them (Cast with
   floor), and makes the four corners' clamped byte offsets and their weights. A corner outside the
   image gets weight 0 (zero padding): valid = 1 - min(|i - clamp(i, 0, n - 1)|, 1) on the floored
   index, so no mask or branch is needed;
3. four Gather() calls read the corners from the plane in UB, and the blend is
   ey0 (ex0 a + ex1 b) + ey1 (ex0 c + ex1 d), written into the output plane in UB, stored with one copy.
"""
from ascendcraft.dsl import *


@host
def grid_sample_affine(x: gm[f32, N, C, H, W], theta: gm[f32, N, 2, 3], y: out[f32, x]):
    units = N * C
    wp = align_up(W, 8)
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(affine_kernel, blocks, x, theta, y, N * C, N, C, H, W, wp, units, per_block)


@kernel
def affine_kernel(x: gm[f32, P, H, W], theta: gm[f32, N, 6], y: gm[f32, P, H, W], P: int, N: int, C: int, H: int, W: int,
                  wp: int, units: int, per_block: int):
    plane = ub_in(f32, H * wp)
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
    with compute("ramp"):
        iota(ramp, 0.0, wp)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        n = u // C
        with copyin():
            load(tin, theta[n, 0 : 6])
            load(plane, x[u, 0 : H, 0 : W], pitch=wp)
        with compute():
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
