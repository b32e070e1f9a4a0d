"""nearest_neighbor_upsample — MultiKernelBench resize: F.interpolate(x, scale_factor=4.0, mode='nearest'), x (N, C, H, W).

AscendCraft DSL: parsed, never executed. Output pixel (oy, ox) copies input pixel (oy * H // OH,
ox * W // OW) (PyTorch's floor(o / 4) for a scale of 4). Work units are (plane, band of output
rows) pairs, split evenly over the blocks:

1. once per block, the scalar unit writes the column table: the byte offset of each output
   column's source column;
2. per band, one strided copy loads the source rows the band needs; the band's gather table is the
   column table plus each output row's source-row offset (one adds() per row);
3. one Gather() builds the whole band, stored with one strided copy.

Every output element is written once; each input row is read once per band that needs it.
"""
from ascendcraft.dsl import *

SCALE = 4
BAND = 8192   # output elements per band


@host
def nearest_neighbor_upsample(x: gm[f32, N, C, H, W], y: out[f32, N, C, H * SCALE, W * SCALE]):
    OH = H * SCALE
    OW = W * SCALE
    wp = align_up(W, 8)
    owp = align_up(OW, 8)
    rb = max(min(OH, BAND // owp), 1)
    srows = (rb * H) // OH + 2
    bands = ceil_div(OH, rb)
    units = N * C * bands
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(nearest_kernel, blocks, x, y, N * C, H, W, OH, OW, wp, owp, rb, srows, bands, units, per_block)


@kernel
def nearest_kernel(x: gm[f32, P, H, W], y: gm[f32, P, OH, OW], P: int, H: int, W: int, OH: int, OW: int, wp: int, owp: int,
                   rb: int, srows: int, bands: int, units: int, per_block: int):
    xin = ub_in(f32, srows * wp, bufs=2)
    yout = ub_out(f32, rb * owp, bufs=2)
    cols = ub_buf(i32, owp)
    tab = ub_buf(i32, rb * owp)
    with compute("columns"):
        dup(cols, 0, owp)
        for ox in range(OW):
            set(cols, ox, ((ox * W) // OW) * 4)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        p = u // bands
        oy0 = (u % bands) * rb
        nb = min(rb, OH - oy0)
        iy0 = (oy0 * H) // OH
        nr = ((oy0 + nb - 1) * H) // OH - iy0 + 1
        with copyin():
            load(xin, x[p, iy0 : iy0 + nr, 0 : W], pitch=wp)
        with compute():
            for j in range(nb):
                adds(tab[j * owp], cols, (((oy0 + j) * H) // OH - iy0) * wp * 4, owp)
            gather(yout, xin, tab, nb * owp)
        with copyout():
            store(y[p, oy0 : oy0 + nb, 0 : OW], yout, pitch=owp)
