"""hinge_loss — MultiKernelBench loss/hinge_loss: mean(clamp(1 - predictions * targets, min=0)), a 0-dim tensor.

predictions is (N, M) = (32768, 32768); targets has M elements and broadcasts along the LAST
dimension: target j multiplies column j.

AscendCraft DSL: parsed, never executed. A work unit is one row of one column chunk; units are
numbered chunk by chunk and split evenly over the blocks, so a block works on a contiguous run
of rows in one or two chunks:

1. per chunk it touches, a block loads the chunk's targets once and keeps -targets in UB;
2. it streams the rows of its run in bands of ROWS rows (one strided copy per band); each row
   becomes relu(1 - p * t) in place, the band's rows are summed into its first row and that sum
   is added lane-wise to a per-block accumulator (fewer additions into the long-running sum);
3. each block writes its total to a GM workspace slot; after sync_all() block 0 adds the slots
   and divides by N * M.

predictions is read exactly once.
"""
from ascendcraft.dsl import *

CHUNK = 4096   # columns per chunk
ROWS = 4       # rows per strided load: 2 x 64 KB band buffers, 3 chunk-wide buffers of 16 KB


@host
def hinge_loss(predictions: gm[f32, N, M], targets: gm[f32, M], loss: out[f32]):
    cw = min(CHUNK, align_up(M, 8))
    chunks = ceil_div(M, cw)
    units = chunks * N                     # (chunk, row) pairs, chunk-major
    blocks = min(cores(), units)
    partials = workspace(f32, blocks * 8)  # one 32-byte slot per block
    launch(hinge_kernel, blocks, predictions, targets, loss, partials, N, M, cw, units, ROWS, blocks,
           1.0 / (N * M))


@kernel
def hinge_kernel(p: gm[f32, N, M], t: gm[f32], loss: gm[f32], partials: gm[f32], N: int, M: int, cw: int,
                 units: int, rows: int, blocks: int, inv_count: float):
    pin = ub_in(f32, rows * cw, bufs=2)
    tin = ub_in(f32, cw)
    neg_t = ub_buf(f32, cw)               # -targets of the current chunk
    acc = ub_buf(f32, cw)
    slot = ub_out(f32, 8)
    every = ub_in(f32, blocks * 8)        # all blocks' slots, for block 0
    u0 = block_idx() * units // block_num()
    u1 = (block_idx() + 1) * units // block_num()
    with compute("init"):
        dup(acc, 0.0, cw)
    for chunk in range(u0 // N, (u1 - 1) // N + 1):
        c = chunk * cw
        n = min(cw, M - c)
        ra = max(u0 - chunk * N, 0)       # this block's rows of the chunk
        rb = min(u1 - chunk * N, N)
        with copyin():
            load(tin, t[c : c + n])
        with compute("targets"):
            muls(neg_t, tin, -1.0, n)
        for r in range(ra, rb, rows):
            k = min(rows, rb - r)
            with copyin():
                load(pin, p[r : r + k, c : c + n], pitch=cw)
            with compute("hinge"):
                for j in range(k):
                    mul(pin[j * cw], pin[j * cw], neg_t, n)     # -p * t
                    adds(pin[j * cw], pin[j * cw], 1.0, n)
                    relu(pin[j * cw], pin[j * cw], n)
                for j in range(1, k):
                    add(pin, pin, pin[j * cw], n)
                add(acc, acc, pin, n)
    with compute("partial"):
        dup(slot, 0.0, 8)
        reduce_sum(slot, acc, acc, cw)
    with copyout():
        store(partials[block_idx() * 8 : block_idx() * 8 + 8], slot)
    sync_all()
    if block_idx() == 0:
        with copyin():
            load(every, partials[0 : blocks * 8])
        with compute("mean"):
            reduce_sum(slot, every, every, blocks * 8)   # the other lanes of each slot are 0
            muls(slot, slot, inv_count, 1)
        with copyout():
            store(loss[0:1], slot)
