"""max_pooling_2d — MultiKernelBench pooling: nn.MaxPool2d(4, stride=1, padding=1) on (32, 64, 512, 512).

AscendCraft DSL: parsed, never executed. Padding is -inf (it never wins a window). A work item
is a band of output rows of one (n, c) plane:

1. one strided copy brings the input rows the band needs, each padded left and right with
   -inf by DataCopyPad; rows above or below the image are filled with -inf;
2. vertical max: each output row takes the max of the k input rows under it;
3. horizontal max: the k shifted windows of a row are not 32-byte aligned, so they are
   fetched with gather() through precomputed byte-offset tables (one per shift), then maxed.
"""
from ascendcraft.dsl import *

BAND = 8   # output rows per work item


@host
def max_pooling_2d(x: gm[f32, N, C, H, W], kernel_size: int, stride: int, padding: int,
                   y: out[f32, N, C, H + 2 * padding - kernel_size + 1, W + 2 * padding - kernel_size + 1]):
    assert stride == 1, "this kernel handles stride 1"
    assert kernel_size <= 8 and padding <= 8 and padding < kernel_size, "windows and padding up to 8 elements"
    OH = H + 2 * padding - kernel_size + 1
    OW = W + 2 * padding - kernel_size + 1
    pitch = align_up(W + 2 * padding, 8)      # a padded input row in UB
    opitch = align_up(OW, 8)                  # an output row in UB
    bands = ceil_div(OH, BAND)
    items = N * C * bands
    blocks = min(cores(), items)
    per_block = ceil_div(items, blocks)
    launch(max_pool_kernel, blocks, x, y, N * C, H, W, OH, OW, kernel_size, padding, pitch, opitch,
           bands, items, per_block, BAND)


@kernel
def max_pool_kernel(x: gm[f32, P, H, W], y: gm[f32, P, OH, OW], P: int, H: int, W: int, OH: int,
                    OW: int, k: int, pad: int, pitch: int, opitch: int, bands: int, items: int,
                    per_block: int, band: int):
    xin = ub_in(f32, (band + 7) * pitch, bufs=2)
    yout = ub_out(f32, band * opitch, bufs=2)
    vmax = ub_buf(f32, band * pitch)
    shifted = ub_buf(f32, opitch)
    offsets = ub_buf(i32, 7 * opitch)          # byte offsets of the shifted windows, one table per shift
    with compute("tables"):
        for s in range(1, k):
            iota(offsets[(s - 1) * opitch], s, opitch)
            muls(offsets[(s - 1) * opitch], offsets[(s - 1) * opitch], 4, opitch)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        p = item // bands
        oh0 = (item % bands) * band
        rb = min(band, OH - oh0)
        first = oh0 - pad                       # input row under tile row 0
        lo = max(first, 0)
        hi = min(first + rb + k - 1, H)
        with copyin():
            load(xin[(lo - first) * pitch], x[p, lo : hi, 0 : W], pad_left=pad, pad_right=pad,
                 pad_value=-inf, pitch=pitch)
        with compute("window"):
            for t in range(lo - first):          # rows above the image
                dup(xin[t * pitch], -inf, pitch)
            for t in range(hi - first, rb + k - 1):   # rows below the image
                dup(xin[t * pitch], -inf, pitch)
            for r in range(rb):
                copy(vmax[r * pitch], xin[r * pitch], pitch)
                for t in range(1, k):
                    max(vmax[r * pitch], vmax[r * pitch], xin[(r + t) * pitch], pitch)
            for r in range(rb):
                copy(yout[r * opitch], vmax[r * pitch], opitch)
                for s in range(1, k):
                    gather(shifted, vmax[r * pitch], offsets[(s - 1) * opitch], OW)
                    max(yout[r * opitch], yout[r * opitch], shifted, OW)
        with copyout():
            store(y[p, oh0 : oh0 + rb, 0 : OW], yout, pitch=opitch)
