"""softmax — MultiKernelBench activation/softmax: softmax over dim 1 of a (4096, 393216) tensor.

AscendCraft DSL: parsed, never executed. A row (1.5 MB) does not fit the 192 KB Unified Buffer,
so each row is read twice:

1. per tile t: m_t = max(tile), s_t = sum(exp(tile - m_t)), kept in two small UB vectors;
   then M = max_t m_t and S = sum_t s_t * exp(m_t - M) — the "online" combination, done
   with vector instructions over the per-tile statistics;
2. per tile: y = exp(x - M) * (1 / S).

Rows are spread over the blocks; a block handles whole rows.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile


@host
def softmax(x: gm[f32, R, C], y: out[f32, x]):
    blocks = min(cores(), R)
    rows_per_block = ceil_div(R, blocks)
    ntiles = ceil_div(C, TILE)
    stats = align_up(ntiles, 64)          # room for one statistic per tile, whole repeats
    launch(softmax_kernel, blocks, x, y, R, C, rows_per_block, TILE, ntiles, stats)


@kernel
def softmax_kernel(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, rows_per_block: int,
                   tile: int, ntiles: int, stats: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    work = ub_buf(f32, tile)
    tile_max = ub_buf(f32, stats)
    tile_sum = ub_buf(f32, stats)
    red = ub_buf(f32, 64)
    r0 = block_idx() * rows_per_block
    r1 = min(r0 + rows_per_block, R)
    for r in range(r0, r1):
        # pass 1: per-tile max and sum of exponentials
        for t in range(ntiles):
            c = t * tile
            n = min(tile, C - c)
            with copyin():
                load(xin, x[r, c : c + n])
            with compute("tile_stats"):
                reduce_max(red, xin, work, n)
                m = get(red, 0)
                adds(work, xin, -m, n)
                exp(work, work, n)
                reduce_sum(red, work, work, n)
                set(tile_max, t, m)
                set(tile_sum, t, get(red, 0))
        # combine: M = max m_t, S = sum s_t * exp(m_t - M)
        with compute("row_stats"):
            reduce_max(red, tile_max, work, ntiles)
            row_max = get(red, 0)
            adds(work, tile_max, -row_max, ntiles)
            exp(work, work, ntiles)
            mul(work, work, tile_sum, ntiles)
            reduce_sum(red, work, work, ntiles)
            scale = 1.0 / get(red, 0)
        # pass 2: normalise
        for t in range(ntiles):
            c = t * tile
            n = min(tile, C - c)
            with copyin():
                load(xin, x[r, c : c + n])
            with compute("normalise"):
                adds(yout, xin, -row_max, n)
                exp(yout, yout, n)
                muls(yout, yout, scale, n)
            with copyout():
                store(y[r, c : c + n], yout)
