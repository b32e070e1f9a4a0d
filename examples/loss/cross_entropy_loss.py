"""cross_entropy_loss — MultiKernelBench loss/cross_entropy_loss: F.cross_entropy(logits, int64 class indices).

loss = mean_i(logsumexp(x_i) - x_i[target_i]), a 0-dim tensor; x is (32768, 4096).

AscendCraft DSL: parsed, never executed. A row of logits fits UB, so each row is read once.
Rows are split evenly over the blocks (the counts differ by at most one) and handled in groups
of GROUP rows:

1. the group's int64 targets are loaded once and kept in a scratch buffer; one strided copy
   brings as many whole rows as fit a tile;
2. per tile: the target logits x[target] are read with get() before the rows change; the row
   maxima go into the rows' 32-byte slots; then, row by row, the max is read back as a scalar
   (this waits for the vector unit, which is why tiles are small) and
   s = sum(exp(x - max)) goes into the row's slot of a second vector;
3. per group, gather() compacts both slot vectors and the losses ln(s) + (max - x[target]) of
   the whole group are finished with a few vector instructions and added lane-wise to a
   per-block total;
4. each block writes its total to a GM workspace slot; after sync_all() block 0 adds the slots
   and divides by the batch size.

Targets must be class indices in [0, C) (no ignore_index).
"""
from ascendcraft.dsl import *

TILE = 4096            # logits per load: whole rows, several when they are short. Small on purpose:
                       # reading a row's max back waits for the vector unit, and the next tile's
                       # copy is only issued when the stage ends, so a stage should hold little work
MAX_CLASSES = 16384    # the longest row a tile holds (64 KB)
GROUP = 64             # about this many rows (a whole number of tiles) are finished together


@host
def cross_entropy_loss(predictions: gm[f32, B, C], targets: gm[i64, B], loss: out[f32]):
    pitch = align_up(C, 8)                         # a row in UB, 32-byte aligned
    assert pitch <= MAX_CLASSES, "a row of logits must fit one tile (at most MAX_CLASSES classes)"
    rows_per_tile = max(1, min(TILE // pitch, GROUP))
    group = rows_per_tile * ceil_div(GROUP, rows_per_tile)
    blocks = min(cores(), B)
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(cross_entropy_kernel, blocks, predictions, targets, loss, partials, B, C, pitch,
           rows_per_tile, group, blocks, 1.0 / B)


@kernel
def cross_entropy_kernel(x: gm[f32, B, C], targets: gm[i64], loss: gm[f32], partials: gm[f32], B: int,
                         C: int, pitch: int, rows_per_tile: int, group: int, blocks: int, inv_b: float):
    width = align_up(group, 8)              # per-row vectors of the group, whole 32-byte blocks
    xin = ub_in(f32, rows_per_tile * pitch, bufs=2)
    tin = ub_in(i64, width)
    labels = ub_buf(i64, width)             # the current group's targets
    work = ub_buf(f32, align_up(ceil_div(C, 64) * 2, 8))   # ReduceMax work space
    max_slots = ub_buf(f32, group * 8)      # row j's max at 8 * j
    sum_slots = ub_buf(f32, group * 8)      # row j's sum(exp(x - max)) at 8 * j
    picked = ub_buf(f32, width)             # x[target] per row of the group
    row_max = ub_buf(f32, width)            # the group's statistics, compacted
    row_sum = ub_buf(f32, width)
    lanes = ub_buf(i32, width)              # gather offsets: 32 * j bytes
    total = ub_buf(f32, width)              # lane-wise sum of the block's row losses
    slot = ub_out(f32, 8)
    every = ub_in(f32, blocks * 8)          # all blocks' slots, for block 0
    r0 = block_idx() * B // block_num()
    r1 = (block_idx() + 1) * B // block_num()
    with compute("init"):
        iota(lanes, 0, width)
        muls(lanes, lanes, 32, width)
        dup(total, 0.0, width)
    for g0 in range(r0, r1, group):
        rows = min(group, r1 - g0)
        with copyin():
            load(tin, targets[g0 : g0 + rows])
        with compute("labels"):
            copy(labels, tin, align_up(rows, 4))
        for tile in range(ceil_div(rows, rows_per_tile)):
            t0 = tile * rows_per_tile
            k = min(rows_per_tile, rows - t0)
            with copyin():
                load(xin, x[g0 + t0 : g0 + t0 + k, 0 : C], pitch=pitch)
            with compute("rows"):
                for j in range(k):          # the target logits, before the rows change
                    set(picked, t0 + j, get(xin, j * pitch + get(labels, t0 + j)))
                for j in range(k):          # all row maxima
                    reduce_max(max_slots[(t0 + j) * 8], xin[j * pitch], work, C)
                for j in range(k):
                    m = get(max_slots, (t0 + j) * 8)
                    adds(xin[j * pitch], xin[j * pitch], -m, C)   # in place: the row is not needed again
                    exp(xin[j * pitch], xin[j * pitch], C)
                    reduce_sum(sum_slots[(t0 + j) * 8], xin[j * pitch], xin[j * pitch], C)
        with compute("losses"):
            gather(row_max, max_slots, lanes, rows)
            gather(row_sum, sum_slots, lanes, rows)
            sub(row_max, row_max, picked, rows)     # max - x[target]
            ln(row_sum, row_sum, rows)
            add(row_sum, row_sum, row_max, rows)    # ln(s) + max - x[target]
            add(total, total, row_sum, rows)
    with compute("partial"):
        dup(slot, 0.0, 8)
        reduce_sum(slot, total, total, width)
    with copyout():
        store(partials[block_idx() * 8 : block_idx() * 8 + 8], slot)
    sync_all()
    if block_idx() == 0:
        with copyin():
            load(every, partials[0 : blocks * 8])
        with compute("mean"):
            reduce_sum(slot, every, every, blocks * 8)   # the other lanes of each slot are 0
            muls(slot, slot, inv_b, 1)
        with copyout():
            store(loss[0:1], slot)
