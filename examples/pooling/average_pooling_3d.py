"""average_pooling_3d — MultiKernelBench pooling: nn.AvgPool3d(3, stride=2, padding=1) on (16, 32, 128, 128, 256).

AscendCraft DSL: parsed, never executed. count_include_pad=True: padding counts as zeros and
every window divides by kernel_size ** 3 (27), also where it overlaps the padding. A work item
is a band of output rows (oh) of one (n, c) volume, for every output depth od; items are spread
evenly over the blocks. In UB a band holds the input rows its windows cover, each row padded
with zeros on both sides by DataCopyPad (`pitch` elements per row). Per output depth:

1. depth: the window's planes are added into `acc`, one strided copy per plane. Consecutive
   windows share k - s planes; their sum was kept in `carry` by the previous window, so each
   input plane is loaded once (this needs k <= 2s). Planes outside the volume are skipped, which
   is what zero padding means. The loop starts one window early (od = -1) so that `carry`
   holds the planes window 0 shares with it;
2. height: each output row adds the k band rows under it (rows are 32-byte aligned views);
3. width: the k taps of every window, with stride s, are gather()ed through precomputed offset
   tables (one per tap) and added; the sums are scaled by 1 / k³.

Each input element is read once (plus the k - s rows a band shares with the next) and each
output written once.
"""
from ascendcraft.dsl import *

BAND = 16          # output rows per work item
ROWS = 6144        # elements per band buffer (input rows x pitch): 24 KB


@host
def average_pooling_3d(x: gm[f32, N, C, D, H, W], kernel_size: int, stride: int, padding: int,
                       y: out[f32, N, C, (D + 2 * padding - kernel_size) // stride + 1,
                              (H + 2 * padding - kernel_size) // stride + 1,
                              (W + 2 * padding - kernel_size) // stride + 1]):
    k = kernel_size
    s = stride
    p = padding
    assert k >= 2 and s >= 1 and k <= 2 * s, "windows of at least 2 that overlap by at most one stride"
    assert p <= k // 2 and p <= 8, "padding up to half the window and 8 elements"
    OD = (D + 2 * p - k) // s + 1
    OH = (H + 2 * p - k) // s + 1
    OW = (W + 2 * p - k) // s + 1
    V = N * C                                   # volumes
    pitch = align_up(W + 2 * p, 8)              # a padded input row in UB
    opitch = align_up(OW, 8)                    # an output row in UB
    assert k * pitch <= ROWS, "the k input rows of one output row must fit a band buffer"
    band = min(BAND, (ROWS // pitch - k) // s + 1, ceil_div(V * OH, cores()))
    ib = (band - 1) * s + k                     # input rows under a band
    bands = ceil_div(OH, band)
    items = V * bands
    per_block = ceil_div(items, cores())
    blocks = ceil_div(items, per_block)
    launch(avg_pool_3d_kernel, blocks, x, y, V, D, H, W, OD, OH, OW, k, s, p, pitch, opitch, band, ib,
           bands, items, per_block, 1.0 / (k * k * k))


@kernel
def avg_pool_3d_kernel(x: gm[f32, V * D, H, W], y: gm[f32, V * OD, OH, OW], V: int, D: int, H: int,
                       W: int, OD: int, OH: int, OW: int, k: int, s: int, p: int, pitch: int,
                       opitch: int, band: int, ib: int, bands: int, items: int, per_block: int,
                       inv_volume: float):
    pin = ub_in(f32, ib * pitch, bufs=2)        # one input plane of the band
    yout = ub_out(f32, band * opitch, bufs=2)
    acc = ub_buf(f32, ib * pitch)               # sum over the window's planes
    carry = ub_buf(f32, ib * pitch)             # sum over the planes the next window shares
    rsum = ub_buf(f32, band * pitch + 8 * s)    # after the height sums (+ slack for unused lanes)
    part = ub_buf(f32, band * opitch)
    taps = ub_buf(i32, k * band * opitch)       # tap t: byte offsets (r * pitch + j * s + t) * 4
    with compute("tables"):
        for t in range(k):
            for r in range(band):
                o = (t * band + r) * opitch
                iota(taps[o], 0, opitch)
                muls(taps[o], taps[o], s * 4, opitch)
                adds(taps[o], taps[o], (r * pitch + t) * 4, opitch)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        v = item // bands
        oh0 = (item % bands) * band
        nb = min(band, OH - oh0)
        first = oh0 * s - p                     # input row under band row 0
        lo = max(first, 0)
        hi = min(first + (nb - 1) * s + k, H)
        top = lo - first                        # zero rows above the image
        with compute("clear"):
            dup(carry, 0.0, ib * pitch)
        for od in range(-1, OD):
            a = od * s - p                      # first plane of the window
            with compute("open"):
                copy(acc, carry, ib * pitch)
                dup(carry, 0.0, ib * pitch)
            for t in range(max(k - s, 0), k):   # the planes new to this window
                d = a + t
                if d >= 0 and d < D:
                    with copyin():
                        load(pin[top * pitch], x[v * D + d, lo : hi, 0 : W], pad_left=p, pad_right=p,
                             pad_value=0.0, pitch=pitch)
                    with compute("depth"):
                        add(acc[top * pitch], acc[top * pitch], pin[top * pitch], (hi - lo) * pitch)
                        if t >= s:
                            add(carry[top * pitch], carry[top * pitch], pin[top * pitch], (hi - lo) * pitch)
            if od >= 0:
                with compute("rows_cols"):
                    for r in range(nb):
                        add(rsum[r * pitch], acc[r * s * pitch], acc[(r * s + 1) * pitch], pitch)
                        for t in range(2, k):
                            add(rsum[r * pitch], rsum[r * pitch], acc[(r * s + t) * pitch], pitch)
                    gather(yout, rsum, taps, band * opitch)
                    for t in range(1, k):
                        gather(part, rsum, taps[t * band * opitch], band * opitch)
                        add(yout, yout, part, band * opitch)
                    muls(yout, yout, inv_volume, band * opitch)
                with copyout():
                    store(y[v * OD + od, oh0 : oh0 + nb, 0 : OW], yout, pitch=opitch)
