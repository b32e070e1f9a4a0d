"""bicubic_upsample — MultiKernelBench resize: F.interpolate(x, size=(256, 256), mode='bicubic', align_corners=True), x (N, C, 64, 64).

AscendCraft DSL: parsed, never executed. With align_corners=True the source coordinate of output o
is s = o (n - 1) / (m - 1); with i = floor(s) and t = s - i, PyTorch blends the four taps
i - 1 ... i + 2 (each clamped into the image) with the cubic convolution weights of A = -0.75:
w0 = ((A (t + 1) - 5 A) (t + 1) + 8 A) (t + 1) - 4 A, w1 = ((A + 2) t - (A + 3)) t^2 + 1,
w2 = the same of 1 - t, w3 = the first of 2 - t. Separable, with work units the (image, channel)
planes split evenly over the blocks:

1. once per block, the scalar unit writes the column tables: the byte offsets of each output
   column's four taps and their weights;
2. the plane is loaded with one copy; every source row is filtered along the row once (four
   Gather() calls, multiplied by the tap weights and summed) into a UB plane of filtered rows;
3. per band of output rows, each output row is four filtered rows times the row's tap weights
   (scalar arithmetic, Axpy), and the band is stored with one copy.
"""
from ascendcraft.dsl import *

SCALE = 4     # 64 -> 256: the file's fixed output size is 4 times its input
RB = 16       # output rows per store
A = -0.75


@host
def bicubic_upsample(x: gm[f32, N, C, H, W], y: out[f32, N, C, H * SCALE, W * SCALE]):
    OH = H * SCALE
    OW = W * SCALE
    wp = align_up(W, 8)
    owp = align_up(OW, 8)
    rb = min(RB, OH)
    bands = ceil_div(OH, rb)
    units = N * C
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(bicubic_kernel, blocks, x, y, N * C, H, W, OH, OW, wp, owp, rb, bands, units, per_block)


@kernel
def bicubic_kernel(x: gm[f32, P, H, W], y: gm[f32, P, OH, OW], P: int, H: int, W: int, OH: int, OW: int, wp: int,
                   owp: int, rb: int, bands: int, units: int, per_block: int):
    xin = ub_in(f32, H * wp)
    yout = ub_out(f32, rb * owp, bufs=2)
    rows = ub_buf(f32, H * owp)
    cols = ub_buf(i32, 4 * owp)
    wts = ub_buf(f32, 4 * owp)
    a = ub_buf(f32, owp)
    with compute("columns"):
        dup(cols, 0, 4 * owp)
        dup(wts, 0.0, 4 * owp)
        for ox in range(OW):
            s = ox * ((W - 1.0) / (OW - 1.0))
            i = int(s)
            t = s - i
            u = 1.0 - t
            set(cols, ox, max(i - 1, 0) * 4)
            set(cols, owp + ox, min(i, W - 1) * 4)
            set(cols, 2 * owp + ox, min(i + 1, W - 1) * 4)
            set(cols, 3 * owp + ox, min(i + 2, W - 1) * 4)
            set(wts, ox, ((A * (t + 1.0) - 5.0 * A) * (t + 1.0) + 8.0 * A) * (t + 1.0) - 4.0 * A)
            set(wts, owp + ox, ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0)
            set(wts, 2 * owp + ox, ((A + 2.0) * u - (A + 3.0)) * u * u + 1.0)
            set(wts, 3 * owp + ox, ((A * (u + 1.0) - 5.0 * A) * (u + 1.0) + 8.0 * A) * (u + 1.0) - 4.0 * A)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for p in range(u0, u1):
        with copyin():
            load(xin, x[p, 0 : H, 0 : W], pitch=wp)
        with compute("rows"):
            for r in range(H):
                gather(a, xin[r * wp], cols, OW)
                mul(rows[r * owp], a, wts, OW)
                for k in range(1, 4):
                    gather(a, xin[r * wp], cols[k * owp], OW)
                    mul(a, a, wts[k * owp], OW)
                    add(rows[r * owp], rows[r * owp], a, OW)
        for b in range(bands):
            oy0 = b * rb
            nb = min(rb, OH - oy0)
            with compute("band"):
                for j in range(nb):
                    s = (oy0 + j) * ((H - 1.0) / (OH - 1.0))
                    i = int(s)
                    t = s - i
                    u = 1.0 - t
                    muls(yout[j * owp], rows[max(i - 1, 0) * owp], ((A * (t + 1.0) - 5.0 * A) * (t + 1.0) + 8.0 * A) * (t + 1.0) - 4.0 * A, OW)
                    axpy(yout[j * owp], rows[min(i, H - 1) * owp], ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0, OW)
                    axpy(yout[j * owp], rows[min(i + 1, H - 1) * owp], ((A + 2.0) * u - (A + 3.0)) * u * u + 1.0, OW)
                    axpy(yout[j * owp], rows[min(i + 2, H - 1) * owp], ((A * (u + 1.0) - 5.0 * A) * (u + 1.0) + 8.0 * A) * (u + 1.0) - 4.0 * A, OW)
            with copyout():
                store(y[p, oy0 : oy0 + nb, 0 : OW], yout, pitch=owp)
