"""average_pooling_1d — MultiKernelBench pooling: nn.AvgPool1d(8, stride=1, padding=4) on (64, 128, 65536).

AscendCraft DSL: parsed, never executed. count_include_pad=True: padding counts as zeros and
every window divides by kernel_size. The B * C rows are pooled independently, 64 rows side by
side (the technique of the cumsum example). A work item is a tile of 64 rows by 64 output
columns (a 65536-element row spans many tiles); items are spread evenly over the blocks.

1. One strided copy loads the tile's input columns: element i of a row holds input column
   c0 - 8 + i (c0 = the tile's first output column), so loads start on a 32-byte boundary of
   GM; columns left of 0 or right of the row come from DataCopyPad's zero padding. The window
   of output j covers elements j + 8 - padding ... j + 7 - padding + k.
2. One gather() transposes the tile: input column c becomes a contiguous vector of 64 row
   lanes at cols[c * 64]. A window shift is now a 256-byte aligned view, so the window sum is
   k - 1 long add() instructions over all 64 x 64 outputs at once, then one muls() by 1 / k.
3. A second gather() transposes the result back to rows.

Each output is written once; each input element is read once, plus the k + 7 - padding columns
of halo a tile's windows need (11 per 64 here).
"""
from ascendcraft.dsl import *

T = 64             # rows side by side (one 256-byte repeat of f32) = output columns per tile
MAX_KERNEL = 32


@host
def average_pooling_1d(x: gm[f32, B, C, L], kernel_size: int, stride: int, padding: int,
                       y: out[f32, B, C, L + 2 * padding - kernel_size + 1]):
    assert stride == 1, "this kernel handles stride 1"
    assert 2 <= kernel_size and kernel_size <= MAX_KERNEL, "windows of 2 to 32 elements"
    assert padding <= kernel_size // 2 and padding <= 8, "padding up to half the window and 8 elements"
    R = B * C
    OL = L + 2 * padding - kernel_size + 1
    cp = T + align_up(kernel_size + 7, 8)       # input columns per tile (the outputs' windows)
    chunks = ceil_div(OL, T)
    items = ceil_div(R, T) * chunks
    per_block = ceil_div(items, cores())
    blocks = ceil_div(items, per_block)
    launch(avg_pool_1d_kernel, blocks, x, y, R, L, OL, kernel_size, padding, cp, chunks, items,
           per_block, T, 1.0 / kernel_size)


@kernel
def avg_pool_1d_kernel(x: gm[f32, R, L], y: gm[f32, R, OL], R: int, L: int, OL: int, k: int, pad: int,
                       cp: int, chunks: int, items: int, per_block: int, t: int, inv_k: float):
    xin = ub_in(f32, t * cp, bufs=2)
    yout = ub_out(f32, t * t, bufs=2)
    cols = ub_buf(f32, t * cp)          # transposed input: column c at cols[c * t]
    wsum = ub_buf(f32, t * t)           # transposed window averages
    to_cols = ub_buf(i32, t * cp)       # gather byte offsets: rows -> columns
    to_rows = ub_buf(i32, t * t)        # and back
    with compute("tables"):
        for c in range(cp):
            iota(to_cols[c * t], 0, t)
            muls(to_cols[c * t], to_cols[c * t], cp * 4, t)
            adds(to_cols[c * t], to_cols[c * t], c * 4, t)
        for i in range(t):
            iota(to_rows[i * t], 0, t)
            muls(to_rows[i * t], to_rows[i * t], t * 4, t)
            adds(to_rows[i * t], to_rows[i * t], i * 4, t)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        r0 = (item // chunks) * t
        nr = min(t, R - r0)
        c0 = (item % chunks) * t
        n = min(t, OL - c0)
        lo = max(c0 - 8, 0)
        need = c0 + n - pad + k - 1     # one past the last input column the outputs use
        with copyin():
            load(xin, x[r0 : r0 + nr, lo : min(need, L)], pad_left=8 if c0 == 0 else 0,
                 pad_right=min(max(need - L, 0), pad), pad_value=0.0, pitch=cp)
        with compute("window"):
            gather(cols, xin, to_cols, t * cp)
            add(wsum, cols[(8 - pad) * t], cols[(9 - pad) * t], t * t)
            for w in range(2, k):
                add(wsum, wsum, cols[(8 - pad + w) * t], t * t)
            muls(wsum, wsum, inv_k, t * t)
            gather(yout, wsum, to_rows, t * t)
        with copyout():
            store(y[r0 : r0 + nr, c0 : c0 + n], yout, pitch=t)
