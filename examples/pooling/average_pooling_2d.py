"""average_pooling_2d — MultiKernelBench pooling: nn.AvgPool2d(11) on (16, 64, 512, 512).

AscendCraft DSL: parsed, never executed. The stride is the kernel size (stride=None) and there
is no padding: windows tile the plane without overlap, and the rows and columns that do not fill
a whole window at the far edge are dropped (512 = 46 * 11 + 6). A work item is a band of output
rows of one (n, c) plane; the band's k * rows input rows are one contiguous range of GM, loaded
with one copy. Items are spread evenly over the blocks.

1. vertical sums: each output row adds the k input rows under it (whole rows, k - 1 adds);
2. horizontal sums: one gather() through a precomputed offset table "unfolds" the summed rows,
   laying out the k columns of every window as k contiguous blocks (block t holds column t of
   every window), so the k blocks are added with k - 1 long adds;
3. the sums are scaled by 1 / k².

Each input element is read once (the dropped edge columns too, since rows are copied whole) and
each output written once.
"""
from ascendcraft.dsl import *

BAND = 12288   # input elements per tile (k rows of every output row in the band): 48 KB


@host
def average_pooling_2d(x: gm[f32, N, C, H, W], kernel_size: int,
                       y: out[f32, N, C, H // kernel_size, W // kernel_size]):
    k = kernel_size
    assert k >= 2 and H >= k and W >= k, "windows of at least 2 x 2 that fit the plane"
    OH = H // k
    OW = W // k
    pitch = align_up(W, 8)                    # an input row in UB
    opitch = align_up(OW, 8)                  # an output row in UB
    assert k * pitch <= BAND, "the k rows of one output row must fit a tile"
    band = min(BAND // (k * pitch), OH, ceil_div(N * C * OH, cores()))   # output rows per work item
    bands = ceil_div(OH, band)
    items = N * C * bands
    per_block = ceil_div(items, cores())
    blocks = ceil_div(items, per_block)
    # the summed rows, with slack for the reads of unused lanes; the checker also wants a gather
    # source to hold as many elements as the gather writes
    rows_size = max(band * pitch + 8 * k, k * band * opitch)
    launch(avg_pool_2d_kernel, blocks, x, y, N * C, H, W, OH, OW, k, pitch, opitch, band, bands, items,
           per_block, rows_size, 1.0 / (k * k))


@kernel
def avg_pool_2d_kernel(x: gm[f32, P, H, W], y: gm[f32, P, OH, OW], P: int, H: int, W: int, OH: int,
                       OW: int, k: int, pitch: int, opitch: int, band: int, bands: int, items: int,
                       per_block: int, rows_size: int, inv_area: float):
    xin = ub_in(f32, band * k * pitch, bufs=2)
    yout = ub_out(f32, band * opitch, bufs=2)
    rows = ub_buf(f32, rows_size)             # vertical sums, row r at rows[r * pitch]
    unfolded = ub_buf(f32, k * band * opitch) # block t: column t of every window
    unfold = ub_buf(i32, k * band * opitch)   # gather byte offsets: (r * pitch + j * k + t) * 4
    with compute("table"):
        for t in range(k):
            for r in range(band):
                o = (t * band + r) * opitch
                iota(unfold[o], 0, opitch)
                muls(unfold[o], unfold[o], k * 4, opitch)
                adds(unfold[o], unfold[o], (r * pitch + t) * 4, opitch)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        p = item // bands
        oh0 = (item % bands) * band
        nb = min(band, OH - oh0)
        with copyin():
            load(xin, x[p, oh0 * k : (oh0 + nb) * k, 0 : W], pitch=pitch)
        with compute("window"):
            for r in range(nb):
                add(rows[r * pitch], xin[r * k * pitch], xin[(r * k + 1) * pitch], pitch)
                for t in range(2, k):
                    add(rows[r * pitch], rows[r * pitch], xin[(r * k + t) * pitch], pitch)
            gather(unfolded, rows, unfold, k * band * opitch)
            for t in range(1, k):
                add(unfolded, unfolded, unfolded[t * band * opitch], band * opitch)
            muls(yout, unfolded, inv_area, band * opitch)
        with copyout():
            store(y[p, oh0 : oh0 + nb, 0 : OW], yout, pitch=opitch)
