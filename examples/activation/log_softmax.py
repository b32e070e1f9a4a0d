"""log_softmax — MultiKernelBench activation/log_softmax: y = x - logsumexp(x) along dim 1 of a (4096, 393216) tensor.

AscendCraft DSL: parsed, never executed. A row (1.5 MB) does not fit the 192 KB Unified Buffer,
so each row is read twice:

1. online statistics, lane by lane: for every lane of the tile width the kernel keeps a running
   max M and a running sum S of exp(x - M); each tile updates them with vector instructions
   only (M' = max(M, x), S' = S * exp(M - M') + exp(x - M')), so no scalar has to wait for the
   vector unit inside the loop and the next tile's copy overlaps the computation;
2. at the end of the row, the lanes are combined once: row_max = max(M) and
   log_sum = ln(sum(S * exp(M - row_max)));
3. per tile: y = (x - row_max) - log_sum, in this order (as PyTorch does), so that x - row_max
   stays exact near the maximum even when x is large.

Rows are split evenly over the blocks (the counts differ by at most one); a block handles whole
rows. The second read of a row follows the first at once: 1.5 MB per block, 72 MB for 48 blocks,
so it mostly comes from the 192 MB L2 rather than HBM.
"""
from ascendcraft.dsl import *

TILE = 6144                         # elements per tile: 2 input + 2 output + 3 statistics buffers of 24 KB
LOWEST = -3.4028234663852886e38     # the most negative float32: start of the running maxima (finite,
                                    # so that old - new never computes inf - inf)


@host
def log_softmax(x: gm[f32, R, C], y: out[f32, x], dim: int = 1):
    assert dim == 1 or dim == -1, "this kernel normalises along the last axis of a 2-D tensor"
    tile = min(TILE, align_up(C, 8))
    blocks = min(cores(), R)
    launch(log_softmax_kernel, blocks, x, y, R, C, tile)


@kernel
def log_softmax_kernel(x: gm[f32, R, C], y: gm[f32, R, C], R: int, C: int, tile: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    run_max = ub_buf(f32, tile)           # per lane: max of the row's elements seen so far
    run_sum = ub_buf(f32, tile)           # per lane: sum of exp(x - run_max)
    prev_max = ub_buf(f32, tile)
    work = ub_buf(f32, align_up(ceil_div(tile, 64) * 2, 8))   # ReduceMax work space
    red = ub_buf(f32, 8)
    lanes = min(tile, C)                  # lanes that see data
    r0 = block_idx() * R // block_num()
    r1 = (block_idx() + 1) * R // block_num()
    for r in range(r0, r1):
        with compute("clear"):
            dup(run_max, LOWEST, tile)
            dup(run_sum, 0.0, tile)
        # pass 1: online max and sum of exponentials, lane by lane
        for c in range(0, C, tile):
            n = min(tile, C - c)
            with copyin():
                load(xin, x[r, c : c + n])
            with compute("online"):
                copy(prev_max, run_max, tile)
                max(run_max, run_max, xin, n)
                sub(prev_max, prev_max, run_max, n)    # old max - new max <= 0
                exp(prev_max, prev_max, n)
                mul(run_sum, run_sum, prev_max, n)     # rescale the sums to the new max
                sub(xin, xin, run_max, n)              # in place: the loaded tile is not needed again
                exp(xin, xin, n)
                add(run_sum, run_sum, xin, n)
        # combine the lanes: row_max = max(run_max), log_sum = ln(sum(run_sum * exp(run_max - row_max)))
        with compute("row_stats"):
            reduce_max(red, run_max, work, lanes)
            row_max = get(red, 0)
            adds(run_max, run_max, -row_max, lanes)
            exp(run_max, run_max, lanes)
            mul(run_sum, run_sum, run_max, lanes)
            reduce_sum(red, run_sum, run_sum, lanes)
            ln(red, red, 1)
            log_sum = get(red, 0)
        # pass 2: subtract
        for c in range(0, C, tile):
            n = min(tile, C - c)
            with copyin():
                load(xin, x[r, c : c + n])
            with compute("normalise"):
                adds(yout, xin, -row_max, n)
                adds(yout, yout, -log_sum, n)
            with copyout():
                store(y[r, c : c + n], yout)
