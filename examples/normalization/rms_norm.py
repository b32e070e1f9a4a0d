"""rms_norm — MultiKernelBench normalization: y = x / sqrt(mean(x ** 2, dim=1) + eps) on (128, 64, 512, 512).

AscendCraft DSL: parsed, never executed. The statistic runs over the CHANNEL axis (stride H * W):
every spatial position (n, h, w) has its own rms over the C channels. So a work item is a chunk
of up to 128 positions of one sample n, and one strided copy loads all C channels of it (C rows
of the chunk, 32 KB) — everything the item needs, so x is read once and y written once:

1. square the whole tile with one instruction and fold its rows in a tree (the upper half of
   the rows added onto the lower half until one row is left: a few long instructions, pairwise
   rounding);
2. r = 1 / sqrt(sum / C + eps) for the chunk's positions, on UB vectors;
3. y = x * r, one instruction per channel row.

The N * H * W positions are split evenly over the blocks in runs of 128 (512 bytes, so GM
addresses stay 512-byte aligned when H * W allows); a block's share may begin in one sample and
end in another, so the kernel walks the samples it touches and, in each, its chunks.
"""
from ascendcraft.dsl import *

CHUNK = 128    # positions per work item: 512-byte bursts
TILE = 8192    # elements per tile (C rows x chunk): 5 buffers of 32 KB
RUN = 128      # block shares are whole 512-byte runs of positions
LEVELS = 10    # tree folds: enough for the TILE // 8 = 1024 channels a tile can hold
EPS = 1e-5


@host
def rms_norm(x: gm[f32, N, C, H, W], y: out[f32, x]):
    assert C * 8 <= TILE, "up to 1024 channels: 8 positions of every channel must fit one tile"
    HW = H * W
    total = N * HW
    per_block = align_up(ceil_div(total, cores()), RUN)
    blocks = ceil_div(total, per_block)
    cw = min(CHUNK, TILE // C // 8 * 8, per_block, align_up(HW, 8))
    launch(rms_norm_kernel, blocks, x, y, N, C, HW, total, per_block, cw, 1.0 / C, EPS)


@kernel
def rms_norm_kernel(x: gm[f32, N, C, HW], y: gm[f32, N, C, HW], N: int, C: int, HW: int, total: int,
                    per_block: int, cw: int, inv_c: float, eps: float):
    xin = ub_in(f32, C * cw, bufs=2)
    yout = ub_out(f32, C * cw, bufs=2)
    sq = ub_buf(f32, C * cw)
    r = ub_buf(f32, cw)
    ones = ub_buf(f32, cw)
    with compute("ones"):
        dup(ones, 1.0, cw)
    o0 = block_idx() * per_block
    o1 = min(o0 + per_block, total)
    for s in range(o0 // HW, ceil_div(o1, HW)):
        p0 = max(o0 - s * HW, 0)
        p1 = min(o1 - s * HW, HW)
        for p in range(p0, p1, cw):
            n = min(cw, p1 - p)
            with copyin():
                load(xin, x[s, 0:C, p : p + n], pitch=cw)
            with compute("rms"):
                mul(sq, xin, xin, C * cw)
                m = C
                for level in range(LEVELS):
                    if m > 1:
                        h = m // 2
                        add(sq, sq, sq[(m - h) * cw], h * cw)
                        m = m - h
                muls(r, sq, inv_c, cw)
                adds(r, r, eps, cw)
                sqrt(r, r, cw)
                div(r, ones, r, cw)
                for c in range(C):
                    mul(yout[c * cw], xin[c * cw], r, cw)
            with copyout():
                store(y[s, 0:C, p : p + n], yout, pitch=cw)
