"""grid_sample_affine — MultiKernelBench resize: F.grid_sample(x, F.affine_grid(theta, x.size()), bilinear, zeros padding, align_corners=False), x (N, C, H, W), theta (N, 2, 3).

AscendCraft DSL: parsed, never executed. affine_grid puts output pixel (oy, ox) at the normalised
point (bx, by) = ((2 ox + 1) / W - 1, (2 oy + 1) / H - 1), maps it by theta, and grid_sample reads the
input at ix = ((gx + 1) W - 1) / 2, iy = ((gy + 1) H - 1) / 2. Both source
coordinates are linear in the output pixel: ix = t00 ox + (t01 W / H) oy + cx and
iy = (t10 H / W) ox + t11 oy + cy, the coefficients being scalar arithmetic on theta (read once per
plane with GetValue). Work units are (image, channel)
planes, split evenly over the blocks:

1. the whole plane is loaded into UB with one copy (rows padded to 8 floats);
2. per block of whole output rows (KB elements; one compute stage walks the plane's blocks), vector
   arithmetic turns two index ramps (column, row) into ix and iy, floors them (Cast with
   floor), and makes the four corners' clamped byte offsets and their weights. A corner outside the
   image gets weight 0 (zero padding): valid = 1 - min(|i - clamp(i, 0, n - 1)|, 1) on the floored
   index, so no mask or branch is needed;
3. four Gather() calls read the corners from the plane in UB, and the blend is
   ey0 (ex0 a + ex1 b) + ey1 (ex0 c + ex1 d), written into the output plane in UB, stored with one copy.
"""
from ascendcraft.dsl import *

KB = 512      # elements per vector block: whole output rows


@host
def grid_sample_affine(x: gm[f32, N, C, H, W], theta: gm[f32, N, 2, 3], y: out[f32, x]):
    units = N * C
    wp = align_up(W, 8)
    kr = min(max(KB // wp, 1), H)
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(affine_kernel, blocks, x, theta, y, N * C, N, C, H, W, wp, kr, units, per_block)


@kernel
def affine_kernel(x: gm[f32, P, H, W], theta: gm[f32, N, 6], y: gm[f32, P, H, W], P: int, N: int, C: int, H: int, W: int,
                  wp: int, kr: int, units: int, per_block: int):
    plane = ub_in(f32, H * wp)
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
    with compute("ramps"):
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
            load(plane, x[u, 0 : H, 0 : W], pitch=wp)
        with compute():
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
