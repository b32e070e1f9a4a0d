"""trilinear_upsample — MultiKernelBench resize: F.interpolate(x, scale_factor=(2, 2, 2), mode='trilinear', align_corners=True), x (N, C, D, H, W).

AscendCraft DSL: parsed, never executed. With align_corners=True the source coordinate of output o
is s = o * (n - 1) / (out - 1); it blends i0 = floor(s) and i1 = min(i0 + 1, n - 1) with weights
1 - f and f. Separable:

1. once per block, the scalar unit writes the column tables (the byte offsets of each output
   column's two source columns, and the weight pair);
2. work units are (volume, output depth, output row) triples, split evenly over the blocks; per unit
   the depth and row weights and the four source rows are scalar arithmetic, and one copy each
   loads the four rows;
3. Gather() picks each row's two columns; the blend runs along the row, then between rows, then
   between depths.
"""
from ascendcraft.dsl import *

SCALE = 2


@host
def trilinear_upsample(x: gm[f32, N, C, D, H, W], y: out[f32, N, C, D * SCALE, H * SCALE, W * SCALE]):
    OD = D * SCALE
    OH = H * SCALE
    OW = W * SCALE
    wp = align_up(W, 8)
    owp = align_up(OW, 8)
    units = N * C * OD * OH
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(trilinear_kernel, blocks, x, y, N * C * D, D, H, W, N * C * OD, OD, OH, OW, wp, owp, units, per_block)


@kernel
def trilinear_kernel(x: gm[f32, PD, H, W], y: gm[f32, PO, OH, OW], PD: int, D: int, H: int, W: int, PO: int, OD: int,
                     OH: int, OW: int, wp: int, owp: int, units: int, per_block: int):
    xin = ub_in(f32, 4 * wp, bufs=2)
    yout = ub_out(f32, owp, bufs=2)
    c0 = ub_buf(i32, owp)
    c1 = ub_buf(i32, owp)
    w0 = ub_buf(f32, owp)
    w1 = ub_buf(f32, owp)
    a = ub_buf(f32, owp)
    b = ub_buf(f32, owp)
    r0 = ub_buf(f32, owp)
    r1 = ub_buf(f32, owp)
    with compute("columns"):
        dup(c0, 0, owp)
        dup(c1, 0, owp)
        dup(w0, 0.0, owp)
        dup(w1, 0.0, owp)
        for ox in range(OW):
            s = ox * (W - 1) / max(OW - 1, 1)
            i0 = int(s)
            f = s - i0
            set(c0, ox, i0 * 4)
            set(c1, ox, min(i0 + 1, W - 1) * 4)
            set(w0, ox, 1.0 - f)
            set(w1, ox, f)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        oy = u % OH
        od = (u // OH) % OD
        v = u // (OH * OD)
        sd = od * (D - 1) / max(OD - 1, 1)
        d0 = int(sd)
        fd = sd - d0
        d1 = min(d0 + 1, D - 1)
        sy = oy * (H - 1) / max(OH - 1, 1)
        h0 = int(sy)
        fy = sy - h0
        h1 = min(h0 + 1, H - 1)
        with copyin():
            load(xin, x[v * D + d0, h0 : h0 + 1, 0 : W])
            load(xin[wp], x[v * D + d0, h1 : h1 + 1, 0 : W])
            load(xin[2 * wp], x[v * D + d1, h0 : h0 + 1, 0 : W])
            load(xin[3 * wp], x[v * D + d1, h1 : h1 + 1, 0 : W])
        with compute():
            for k in range(4):
                gather(a, xin[k * wp], c0, OW)
                gather(b, xin[k * wp], c1, OW)
                mul(a, a, w0, OW)
                mul(b, b, w1, OW)
                if k % 2 == 0:
                    add(r0, a, b, OW)
                    muls(r0, r0, 1.0 - fy, OW)
                else:
                    add(r1, a, b, OW)
                    muls(r1, r1, fy, OW)
                    add(r1, r0, r1, OW)
                    if k == 1:
                        muls(yout, r1, 1.0 - fd, OW)
                    else:
                        axpy(yout, r1, fd, OW)
        with copyout():
            store(y[u // OH, oy, 0 : OW], yout)
