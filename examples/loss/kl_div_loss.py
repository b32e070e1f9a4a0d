"""kl_div_loss — MultiKernelBench loss/kl_div_loss: F.kl_div(log(predictions), targets, reduction="batchmean").

loss = sum(t * (log t - log p)) / batch_size, a 0-dim tensor.

AscendCraft DSL: parsed, never executed. A global sum across cores, like mse_loss:

1. every block streams its equal share of both tensors once and accumulates t * ln(t / p)
   lane-wise into a UB vector. One Div and one Ln per element instead of two Ln: cheaper, and
   more accurate, since ln(t) - ln(p) of two nearby probabilities cancels. The ratio is clamped
   to the smallest normal float so that t = 0 contributes 0 (as xlogy does) instead of 0 * -inf;
2. each block reduces its vector to one partial sum in its slot of a GM workspace; all blocks
   meet at sync_all();
3. block 0 adds the partial sums, divides by the batch size and writes the scalar.
"""
from ascendcraft.dsl import *

TILE = 8192                          # elements per tile: 2 x 2 input buffers + 1 accumulator of 32 KB each
TINY = 1.1754943508222875e-38        # smallest normal float32


@host
def kl_div_loss(predictions: gm[f32, ...], targets: gm[f32, ...], loss: out[f32]):
    N = numel(predictions)
    assert N == numel(targets), "predictions and targets must have the same number of elements"
    batch = dim(predictions, 0)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(kl_div_kernel, blocks, predictions, targets, loss, partials, N, per_block, TILE, blocks, 1.0 / batch)


@kernel
def kl_div_kernel(p: gm[f32], t: gm[f32], loss: gm[f32], partials: gm[f32], N: int, per_block: int,
                  tile: int, blocks: int, inv_batch: float):
    pin = ub_in(f32, tile, bufs=2)
    tin = ub_in(f32, tile, bufs=2)
    acc = ub_buf(f32, tile)
    slot = ub_out(f32, 8)
    every = ub_in(f32, blocks * 8)                  # all blocks' slots, for block 0
    start = block_idx() * per_block
    end = min(start + per_block, N)
    with compute("init"):
        dup(acc, 0.0, tile)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(pin, p[off : off + n])
            load(tin, t[off : off + n])
        with compute("accumulate"):       # in place on the loaded tiles
            div(pin, tin, pin, n)         # t / p
            maxs(pin, pin, TINY, n)
            ln(pin, pin, n)
            mul(pin, pin, tin, n)         # t * ln(t / p)
            add(acc, acc, pin, n)
    with compute("partial"):
        dup(slot, 0.0, 8)
        reduce_sum(slot, acc, acc, tile)    # acc doubles as the reduction's work space
    with copyout():
        store(partials[block_idx() * 8 : block_idx() * 8 + 8], slot)
    sync_all()
    if block_idx() == 0:
        with copyin():
            load(every, partials[0 : blocks * 8])
        with compute("total"):
            reduce_sum(slot, every, every, blocks * 8)   # the other lanes of each slot are 0
            muls(slot, slot, inv_batch, 1)
        with copyout():
            store(loss[0:1], slot)
