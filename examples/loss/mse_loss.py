"""mse_loss — MultiKernelBench loss/mse_loss: mean((predictions - targets) ** 2) as a 0-dim tensor.

AscendCraft DSL: parsed, never executed. A global reduction across cores:

1. every block squares the differences of its share tile by tile and accumulates them
   lane-wise into a UB vector (small rounding error), then reduces that vector to one partial
   sum, which it writes to its slot of a GM workspace;
2. all blocks meet at sync_all();
3. block 0 adds the partial sums, multiplies by 1/N and writes the scalar.
"""
from ascendcraft.dsl import *

TILE = 8192


@host
def mse_loss(predictions: gm[f32, ...], targets: gm[f32, ...], loss: out[f32]):
    N = numel(predictions)
    assert N == numel(targets), "predictions and targets must have the same number of elements"
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(mse_kernel, blocks, predictions, targets, loss, partials, N, per_block, TILE, 1.0 / N)


@kernel
def mse_kernel(p: gm[f32], t: gm[f32], loss: gm[f32], partials: gm[f32], N: int, per_block: int,
               tile: int, inv_n: float):
    pin = ub_in(f32, tile, bufs=2)
    tin = ub_in(f32, tile, bufs=2)
    acc = ub_buf(f32, tile)
    slot = ub_out(f32, 8)
    every = ub_in(f32, 64 * 8)                      # up to 64 blocks' partial sums
    start = block_idx() * per_block
    end = min(start + per_block, N)
    with compute("init"):
        dup(acc, 0.0, tile)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(pin, p[off : off + n])
            load(tin, t[off : off + n])
        with compute("accumulate"):
            sub(pin, pin, tin, n)          # in place on the loaded tile
            mul(pin, pin, pin, n)
            add(acc, acc, pin, n)
    with compute("partial"):
        dup(slot, 0.0, 8)
        reduce_sum(slot, acc, acc, tile)    # acc doubles as the reduction's work space
    with copyout():
        store(partials[block_idx() * 8 : block_idx() * 8 + 8], slot)
    sync_all()
    if block_idx() == 0:
        with copyin():
            load(every, partials[0 : block_num() * 8])
        with compute("total"):
            for b in range(1, block_num()):
                add(every, every, every[b * 8], 8)
            dup(slot, 0.0, 8)
            muls(slot, every, inv_n, 1)
        with copyout():
            store(loss[0:1], slot)
