"""triplet_margin_loss — MultiKernelBench loss/triplet_margin_loss: nn.TripletMarginLoss(margin) with p = 2.

loss = mean_i max(|a_i - p_i + eps| - |a_i - n_i + eps| + margin, 0) with eps = 1e-6 added to
the differences (as pairwise_distance does); a 0-dim tensor. The inputs are (32768, 8192).

AscendCraft DSL: parsed, never executed. Rows are split evenly over the blocks (the counts
differ by at most one), and every input element is read once:

1. per row, the squared distances sum((a + eps - p)**2) and sum((a + eps - n)**2) are
   accumulated lane-wise over the row's tiles and reduced straight into the row's 32-byte slot
   of two UB vectors — no get(), so the scalar unit never waits for the vector unit and the
   next row's copies overlap this row's arithmetic;
2. every GROUP rows, one gather() per vector compacts the slots into consecutive lanes and the
   losses of the whole group are finished at once (two sqrt, sub, +margin, relu), then added
   lane-wise to a per-block total;
3. each block writes its total to a GM workspace slot; after sync_all() block 0 adds the slots
   and divides by the number of rows.
"""
from ascendcraft.dsl import *

TILE = 4096    # columns per tile: 3 x 2 input buffers + 2 accumulators, 16 KB each
GROUP = 64     # rows whose losses are finished together
EPS = 1e-6


@host
def triplet_margin_loss(anchor: gm[f32, B, D], positive: gm[f32, B, D], negative: gm[f32, B, D],
                        loss: out[f32], margin: float = 1.0):
    blocks = min(cores(), B)
    tile = min(TILE, align_up(D, 8))
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(triplet_kernel, blocks, anchor, positive, negative, loss, partials, B, D, tile, GROUP,
           blocks, margin, 1.0 / B)


@kernel
def triplet_kernel(anchor: gm[f32, B, D], positive: gm[f32, B, D], negative: gm[f32, B, D], loss: gm[f32],
                   partials: gm[f32], B: int, D: int, tile: int, group: int, blocks: int, margin: float,
                   inv_b: float):
    ain = ub_in(f32, tile, bufs=2)
    pin = ub_in(f32, tile, bufs=2)
    nin = ub_in(f32, tile, bufs=2)
    acc_ap = ub_buf(f32, tile)            # lane-wise sums of squares over one row
    acc_an = ub_buf(f32, tile)
    slots_ap = ub_buf(f32, group * 8)     # row j's sum of squares at 8 * j
    slots_an = ub_buf(f32, group * 8)
    dist_ap = ub_buf(f32, group)          # the group's sums, compacted, then its losses
    dist_an = ub_buf(f32, group)
    lanes = ub_buf(i32, group)            # gather offsets: 32 * j bytes
    total = ub_buf(f32, group)            # lane-wise sum of the block's row losses
    slot = ub_out(f32, 8)
    every = ub_in(f32, blocks * 8)        # all blocks' slots, for block 0
    r0 = block_idx() * B // block_num()
    r1 = (block_idx() + 1) * B // block_num()
    with compute("init"):
        iota(lanes, 0, group)
        muls(lanes, lanes, 32, group)
        dup(total, 0.0, group)
    for g0 in range(r0, r1, group):
        rows = min(group, r1 - g0)
        for j in range(rows):
            with compute("clear"):
                dup(acc_ap, 0.0, tile)
                dup(acc_an, 0.0, tile)
            for c in range(0, D, tile):
                n = min(tile, D - c)
                with copyin():
                    load(ain, anchor[g0 + j, c : c + n])
                    load(pin, positive[g0 + j, c : c + n])
                    load(nin, negative[g0 + j, c : c + n])
                with compute("accumulate"):       # in place on the loaded tiles
                    adds(ain, ain, EPS, n)
                    sub(pin, ain, pin, n)         # a + eps - p
                    mul(pin, pin, pin, n)
                    add(acc_ap, acc_ap, pin, n)
                    sub(nin, ain, nin, n)         # a + eps - n
                    mul(nin, nin, nin, n)
                    add(acc_an, acc_an, nin, n)
            with compute("row_sums"):
                reduce_sum(slots_ap[j * 8], acc_ap, acc_ap, tile)
                reduce_sum(slots_an[j * 8], acc_an, acc_an, tile)
        with compute("losses"):
            gather(dist_ap, slots_ap, lanes, rows)
            gather(dist_an, slots_an, lanes, rows)
            sqrt(dist_ap, dist_ap, rows)
            sqrt(dist_an, dist_an, rows)
            sub(dist_ap, dist_ap, dist_an, rows)
            adds(dist_ap, dist_ap, margin, rows)
            relu(dist_ap, dist_ap, rows)
            add(total, total, dist_ap, rows)
    with compute("partial"):
        dup(slot, 0.0, 8)
        reduce_sum(slot, total, total, group)
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
