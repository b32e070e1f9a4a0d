"""mean_reduction_over_a_dimension — MultiKernelBench reduce: torch.mean(x, dim=1) on (128, 4096, 4096).

AscendCraft DSL: parsed, never executed. The reduced axis is the strided middle one and the
output (B, C) drops it. The flat output is split evenly over the blocks in runs of 128 columns
(512 bytes, so GM addresses stay 512-byte aligned when C allows); a block's share may begin in
one batch row b and end in another, so the kernel walks the rows b it touches and, in each, its
columns in chunks. For a chunk it loads `rows` consecutive input rows at once (one strided copy
of up to 64 KB), folds them in a tree — the upper half of the rows added onto the lower half
until one row is left, a few long instructions instead of one per row — and adds that row into
a UB accumulator; the result is scaled by 1/N. The tree order also keeps the rounding error of
the 4096-term sums small. Each input element is read once.
"""
from ascendcraft.dsl import *

CHUNK = 512    # output columns per work item (2 KB of each input row)
TILE = 16384   # elements per loaded tile (rows x chunk): 64 KB
RUN = 128      # block shares are whole 512-byte runs of the output
LEVELS = 11    # tree folds: enough for the TILE // 8 = 2048 rows a tile can hold


@host
def mean_reduction_over_a_dimension(x: gm[f32, B, N, C], dim: int, y: out[f32, B, C]):
    assert dim == 1, "this kernel reduces the middle axis of a 3-D tensor"
    total = B * C
    per_block = align_up(ceil_div(total, cores()), RUN)
    blocks = ceil_div(total, per_block)
    cw = min(CHUNK, per_block, align_up(C, 8))
    rows = min(TILE // cw, N)
    launch(mean_dim1_kernel, blocks, x, y, B, N, C, total, per_block, cw, rows, 1.0 / N)


@kernel
def mean_dim1_kernel(x: gm[f32, B, N, C], y: gm[f32, B, C], B: int, N: int, C: int, total: int,
                     per_block: int, cw: int, rows: int, inv_n: float):
    xin = ub_in(f32, rows * cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    acc = ub_buf(f32, cw)
    o0 = block_idx() * per_block
    o1 = min(o0 + per_block, total)
    for b in range(o0 // C, ceil_div(o1, C)):
        c0 = max(o0 - b * C, 0)
        c1 = min(o1 - b * C, C)
        for c in range(c0, c1, cw):
            n = min(cw, c1 - c)
            with compute("clear"):
                dup(acc, 0.0, cw)
            for i in range(0, N, rows):
                k = min(rows, N - i)
                with copyin():
                    load(xin, x[b, i : i + k, c : c + n], pitch=cw)
                with compute("fold"):
                    m = k
                    for level in range(LEVELS):
                        if m > 1:
                            h = m // 2
                            add(xin, xin, xin[(m - h) * cw], h * cw)
                            m = m - h
                    add(acc, acc, xin, cw)
            with compute("emit"):
                muls(yout, acc, inv_n, cw)
            with copyout():
                store(y[b, c : c + n], yout)
