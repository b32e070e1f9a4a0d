"""huber_loss — MultiKernelBench loss/huber_loss: smooth L1 (beta = 1), mean over all elements, a 0-dim tensor.

With d = |predictions - targets|: loss_i = 0.5 * d**2 if d < 1 else d - 0.5.

AscendCraft DSL: parsed, never executed. A global mean across cores, like mse_loss:

1. every block streams its equal share of both tensors once and accumulates the elementwise
   losses lane-wise into a UB vector; both branches come from one formula without a select:
   with q = min(d, 1), loss = q * (d - q / 2) (= d**2 / 2 below 1, d - 1/2 above);
2. each block reduces its vector to one partial sum in its slot of a GM workspace; all blocks
   meet at sync_all();
3. block 0 adds the partial sums, multiplies by 1/N and writes the scalar.
"""
from ascendcraft.dsl import *

TILE = 8192   # elements per tile: 2 x 2 input buffers + 1 accumulator of 32 KB each


@host
def huber_loss(predictions: gm[f32, ...], targets: gm[f32, ...], loss: out[f32]):
    N = numel(predictions)
    assert N == numel(targets), "predictions and targets must have the same number of elements"
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(huber_kernel, blocks, predictions, targets, loss, partials, N, per_block, TILE, blocks, 1.0 / N)


@kernel
def huber_kernel(p: gm[f32], t: gm[f32], loss: gm[f32], partials: gm[f32], N: int, per_block: int,
                 tile: int, blocks: int, inv_n: float):
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
            sub(pin, pin, tin, n)
            abs(pin, pin, n)              # d
            mins(tin, pin, 1.0, n)        # q = min(d, 1)
            axpy(pin, tin, -0.5, n)       # d - q / 2
            mul(pin, pin, tin, n)         # q * (d - q / 2)
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
            muls(slot, slot, inv_n, 1)
        with copyout():
            store(loss[0:1], slot)
