"""lamb — MultiKernelBench optimizer/lamb: one LAMB-style step with GLOBAL norms, returning the updated parameter.

r = m / (sqrt(v) + eps);  trust = |param| / (|r| + eps) with L2 norms over the whole tensors;
param' = param - lr * trust * r.

AscendCraft DSL: parsed, never executed. The trust ratio depends on every element, so the
update waits for a cross-core reduction. The flat tensors are split into equal, 32-byte aligned
shares per block, and each block makes two passes over its share:

1. it accumulates p**2 and r**2 lane-wise in two UB vectors, reduces them to two partial sums
   and writes them to its slots of a GM workspace (p sums in the first half, r sums in the
   second); all blocks meet at sync_all();
2. every block reads all the partial sums, computes the two norms and the trust ratio itself
   (no second barrier), then streams its share again, recomputing r instead of storing it —
   the same traffic as writing r and reading it back, without an N-element workspace; at these
   sizes the second read mostly hits L2.
"""
from ascendcraft.dsl import *

TILE = 4096  # elements per tile: 3 x 2 input + 2 output buffers + 2 accumulators of 16 KB each


@host
def lamb(param: gm[f32, ...], m: gm[f32, ...], v: gm[f32, ...], new_param: out[f32, param],
         lr: float = 0.001, eps: float = 1e-6):
    N = numel(param)
    assert numel(m) == N and numel(v) == N, "param, m and v must have the same size"
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    sums = workspace(f32, 2 * blocks * 8)          # a 32-byte slot per block for each of the two sums
    launch(lamb_kernel, blocks, param, m, v, new_param, sums, N, per_block, TILE, blocks, lr, eps)


@kernel
def lamb_kernel(p: gm[f32], m: gm[f32], v: gm[f32], y: gm[f32], sums: gm[f32], N: int, per_block: int,
                tile: int, blocks: int, lr: float, eps: float):
    p_in = ub_in(f32, tile, bufs=2)
    m_in = ub_in(f32, tile, bufs=2)
    v_in = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    acc_p = ub_buf(f32, tile)             # lane-wise sums of p^2
    acc_r = ub_buf(f32, tile)             # lane-wise sums of r^2
    slots = ub_out(f32, 16)               # this block's partial sums: p^2 at 0, r^2 at 8
    every = ub_in(f32, 2 * blocks * 8)    # all blocks' partial sums
    norms = ub_buf(f32, 16)               # |p| at 0, |r| at 8
    start = block_idx() * per_block
    end = min(start + per_block, N)
    with compute("init"):
        dup(acc_p, 0.0, tile)
        dup(acc_r, 0.0, tile)
    # pass 1: sums of squares
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(p_in, p[off : off + n])
            load(m_in, m[off : off + n])
            load(v_in, v[off : off + n])
        with compute("squares"):                # in place on the loaded tiles
            sqrt(v_in, v_in, n)
            adds(v_in, v_in, eps, n)
            div(v_in, m_in, v_in, n)            # r
            mul(v_in, v_in, v_in, n)
            add(acc_r, acc_r, v_in, n)
            mul(p_in, p_in, p_in, n)
            add(acc_p, acc_p, p_in, n)
    with compute("partials"):
        dup(slots, 0.0, 16)
        reduce_sum(slots, acc_p, acc_p, tile)   # the accumulators double as work space
        reduce_sum(slots[8], acc_r, acc_r, tile)
    with copyout():
        store(sums[block_idx() * 8 : block_idx() * 8 + 8], slots)
        store(sums[(blocks + block_idx()) * 8 : (blocks + block_idx()) * 8 + 8], slots[8])
    sync_all()
    # every block: global norms and the trust ratio
    with copyin():
        load(every, sums[0 : 2 * blocks * 8])
    with compute("trust"):
        dup(norms, 0.0, 16)
        reduce_sum(norms, every, every, blocks * 8)          # the other lanes of each slot are 0
        reduce_sum(norms[8], every[blocks * 8], every[blocks * 8], blocks * 8)
        sqrt(norms, norms, 16)
        scale = -lr * get(norms, 0) / (get(norms, 8) + eps)  # -lr * trust
    # pass 2: param' = param + scale * r, recomputing r
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(p_in, p[off : off + n])
            load(m_in, m[off : off + n])
            load(v_in, v[off : off + n])
        with compute("update"):
            sqrt(v_in, v_in, n)
            adds(v_in, v_in, eps, n)
            div(yout, m_in, v_in, n)            # r
            muls(yout, yout, scale, n)
            add(yout, yout, p_in, n)
        with copyout():
            store(y[off : off + n], yout)
