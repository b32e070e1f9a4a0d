"""interpolate_dynamic — MultiKernelBench resize: F.interpolate(x, size=target_size, mode='bilinear', align_corners=False), x (N, C, H, W), target_size a tuple (OH, OW) passed to forward.

AscendCraft DSL: parsed, never executed. The tuple's elements arrive as the host scalars
target_size_0 and target_size_1 (the binding offers element i of a number tuple as <name>_<i>), and
they give the output's shape. PyTorch's source coordinate of output o is
s = max((o + 0.5) * n / m - 0.5, 0) for an input of n and an output of m; it blends source
i0 = floor(s) and i1 = min(i0 + 1, n - 1) with weights 1 - f and f, f = s - i0. Separable:

1. once per block, the scalar unit writes the column tables: the byte offsets of each output
   column's two source columns and the weight pair;
2. per output row (work units are (plane, output row) pairs, split evenly over the blocks) the
   row weights and the two source rows are scalar arithmetic; one copy loads both rows;
3. Gather() picks each row's two columns, and the blend is w0 * a + w1 * b along the row and then
   between the two rows.
"""
from ascendcraft.dsl import *



@host
def interpolate_dynamic(x: gm[f32, N, C, H, W], target_size_0: int, target_size_1: int,
                        y: out[f32, N, C, target_size_0, target_size_1]):
    OH = target_size_0
    OW = target_size_1
    wp = align_up(W, 8)
    owp = align_up(OW, 8)
    units = N * C * OH
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(bilinear_kernel, blocks, x, y, N * C, H, W, OH, OW, wp, owp, units, per_block)


@kernel
def bilinear_kernel(x: gm[f32, P, H, W], y: gm[f32, P, OH, OW], P: int, H: int, W: int, OH: int, OW: int, wp: int,
                    owp: int, units: int, per_block: int):
    xin = ub_in(f32, 2 * wp, bufs=2)
    yout = ub_out(f32, owp, bufs=2)
    c0 = ub_buf(i32, owp)
    c1 = ub_buf(i32, owp)
    w0 = ub_buf(f32, owp)
    w1 = ub_buf(f32, owp)
    a = ub_buf(f32, owp)
    b = ub_buf(f32, owp)
    top = ub_buf(f32, owp)
    with compute("columns"):
        dup(c0, 0, owp)
        dup(c1, 0, owp)
        dup(w0, 0.0, owp)
        dup(w1, 0.0, owp)
        for ox in range(OW):
            s = max((ox + 0.5) * W / OW - 0.5, 0.0)
            i0 = int(s)
            f = s - i0
            set(c0, ox, i0 * 4)
            set(c1, ox, min(i0 + 1, W - 1) * 4)
            set(w0, ox, 1.0 - f)
            set(w1, ox, f)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        p = u // OH
        oy = u % OH
        sy = max((oy + 0.5) * H / OH - 0.5, 0.0)
        iy0 = int(sy)
        fy = sy - iy0
        iy1 = min(iy0 + 1, H - 1)
        with copyin():
            load(xin, x[p, iy0 : iy0 + 1, 0 : W])
            load(xin[wp], x[p, iy1 : iy1 + 1, 0 : W])
        with compute():
            gather(a, xin, c0, OW)
            gather(b, xin, c1, OW)
            mul(a, a, w0, OW)
            mul(b, b, w1, OW)
            add(top, a, b, OW)
            gather(a, xin[wp], c0, OW)
            gather(b, xin[wp], c1, OW)
            mul(a, a, w0, OW)
            mul(b, b, w1, OW)
            add(a, a, b, OW)
            muls(top, top, 1.0 - fy, OW)
            muls(a, a, fy, OW)
            add(yout, top, a, OW)
        with copyout():
            store(y[p, oy, 0 : OW], yout)
