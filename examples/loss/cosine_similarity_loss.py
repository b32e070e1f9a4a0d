"""cosine_similarity_loss — MultiKernelBench loss/cosine_similarity_loss: mean over rows of 1 - cos(p_i, t_i).

cos(p, t) = p.t / (max(|p|, eps) * max(|t|, eps)) along dim 1 (eps = 1e-8); the result is a 0-dim tensor.

AscendCraft DSL: parsed, never executed. Rows are split evenly over the blocks (the counts
differ by at most one), and every input element is read once:

1. per row, the three sums p.t, p.p and t.t are accumulated lane-wise over the row's tiles and
   reduced straight into the row's 32-byte slot of three UB vectors — no get(), so the scalar
   unit never waits for the vector unit and the next row's copies overlap this row's work;
2. every GROUP rows, one gather() per vector compacts the slots into consecutive lanes and the
   cosines of the whole group are finished at once (sqrt, clamp, product, division); 1 - cos is
   added lane-wise to a per-block total;
3. each block writes its total to a GM workspace slot; after sync_all() block 0 adds the slots
   and divides by the number of rows.
"""
from ascendcraft.dsl import *

TILE = 4096    # columns per tile: 2 x 2 input buffers + 3 accumulators + 1 product, 16 KB each
GROUP = 64     # rows whose cosines are finished together
EPS = 1e-8


@host
def cosine_similarity_loss(predictions: gm[f32, B, D], targets: gm[f32, B, D], loss: out[f32]):
    blocks = min(cores(), B)
    tile = min(TILE, align_up(D, 8))
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(cosine_kernel, blocks, predictions, targets, loss, partials, B, D, tile, GROUP, blocks,
           1.0 / B, EPS)


@kernel
def cosine_kernel(p: gm[f32, B, D], t: gm[f32, B, D], loss: gm[f32], partials: gm[f32], B: int, D: int,
                  tile: int, group: int, blocks: int, inv_b: float, eps: float):
    pin = ub_in(f32, tile, bufs=2)
    tin = ub_in(f32, tile, bufs=2)
    prod = ub_buf(f32, tile)
    acc_pt = ub_buf(f32, tile)            # lane-wise sums over one row
    acc_pp = ub_buf(f32, tile)
    acc_tt = ub_buf(f32, tile)
    slots_pt = ub_buf(f32, group * 8)     # row j's sums at 8 * j
    slots_pp = ub_buf(f32, group * 8)
    slots_tt = ub_buf(f32, group * 8)
    dots = ub_buf(f32, group)             # the group's sums, compacted
    norms_p = ub_buf(f32, group)
    norms_t = ub_buf(f32, group)
    lanes = ub_buf(i32, group)            # gather offsets: 32 * j bytes
    total = ub_buf(f32, group)            # lane-wise sum of 1 - cos over this block's rows
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
                dup(acc_pt, 0.0, tile)
                dup(acc_pp, 0.0, tile)
                dup(acc_tt, 0.0, tile)
            for c in range(0, D, tile):
                n = min(tile, D - c)
                with copyin():
                    load(pin, p[g0 + j, c : c + n])
                    load(tin, t[g0 + j, c : c + n])
                with compute("accumulate"):
                    mul(prod, pin, tin, n)
                    add(acc_pt, acc_pt, prod, n)
                    mul(pin, pin, pin, n)
                    add(acc_pp, acc_pp, pin, n)
                    mul(tin, tin, tin, n)
                    add(acc_tt, acc_tt, tin, n)
            with compute("row_sums"):
                reduce_sum(slots_pt[j * 8], acc_pt, acc_pt, tile)
                reduce_sum(slots_pp[j * 8], acc_pp, acc_pp, tile)
                reduce_sum(slots_tt[j * 8], acc_tt, acc_tt, tile)
        with compute("cosines"):
            gather(dots, slots_pt, lanes, rows)
            gather(norms_p, slots_pp, lanes, rows)
            gather(norms_t, slots_tt, lanes, rows)
            sqrt(norms_p, norms_p, rows)
            maxs(norms_p, norms_p, eps, rows)
            sqrt(norms_t, norms_t, rows)
            maxs(norms_t, norms_t, eps, rows)
            mul(norms_p, norms_p, norms_t, rows)
            div(dots, dots, norms_p, rows)          # cos
            muls(dots, dots, -1.0, rows)
            adds(dots, dots, 1.0, rows)             # 1 - cos
            add(total, total, dots, rows)
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
