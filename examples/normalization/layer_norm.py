"""layer_norm — MultiKernelBench normalization/layer_norm: nn.LayerNorm((64, 256, 256)) on (64, 64, 256, 256).

AscendCraft DSL: parsed, never executed. A sample (4,194,304 elements, 16 MB) is far larger than
UB, so x is read twice: once for the statistics, once to normalise. The work is split by
COLUMNS, not by samples: block k owns columns [c0, c1) of every sample. That keeps all 48 cores
busy with 64 samples, and it lets each block load its slice of weight and bias once and apply
it to all 64 samples (splitting by samples would re-read the 32 MB of parameters per sample).

1. moments: for every sample, lane-wise sums of x and x*x over the block's columns, reduced to
   one partial sum and one partial sum of squares per sample (kept in UB, then written to the
   block's slot of a GM workspace);
2. sync_all(); every block loads all the slots, adds them up per sample and computes mean and
   rstd = 1 / sqrt(var + eps) for every sample at once, as short vectors;
3. normalise: for each column tile, weight and bias are loaded once, then every sample's tile
   becomes y = (x - mean) * rstd * weight + bias.

weight and bias are the module's parameters `ln.weight` and `ln.bias` (bound by name).
"""
from ascendcraft.dsl import *

TILE = 4096
EPS = 1e-5


@host
def layer_norm(x: gm[f32, B, F, H, W], ln_weight: gm[f32, F, H, W], ln_bias: gm[f32, F, H, W],
               y: out[f32, x]):
    D = F * H * W
    assert B <= 256, "the per-sample statistics of all samples are kept in UB: at most 256 samples"
    Bp = align_up(B, 8)                               # samples, padded to whole 32-byte blocks
    per_block = align_up(ceil_div(D, cores()), 8)     # columns per block
    blocks = ceil_div(D, per_block)
    tile = min(TILE, per_block)
    partials = workspace(f32, blocks * 2 * Bp)        # per block: Bp sums, then Bp sums of squares
    launch(layer_norm_kernel, blocks, x, ln_weight, ln_bias, y, partials, B, D, Bp, per_block, tile,
           blocks * 2 * Bp, 1.0 / D, EPS)


@kernel
def layer_norm_kernel(x: gm[f32, B, D], w: gm[f32], b: gm[f32], y: gm[f32, B, D], partials: gm[f32],
                      B: int, D: int, Bp: int, per_block: int, tile: int, slots: int, inv_d: float, eps: float):
    xin = ub_in(f32, tile, bufs=2)
    win = ub_in(f32, tile)
    bin = ub_in(f32, tile)
    yout = ub_out(f32, tile, bufs=2)
    wt = ub_buf(f32, tile)          # pass 1: lane-wise sum of x; pass 3: this block's weight tile
    bt = ub_buf(f32, tile)          # pass 1: lane-wise sum of x*x; pass 3: its bias tile
    red = ub_buf(f32, 64)
    part = ub_buf(f32, 2 * Bp)      # this block's partial sums, then partial sums of squares
    slot = ub_out(f32, 2 * Bp)
    every = ub_in(f32, slots)       # every block's partials
    tot = ub_buf(f32, 2 * Bp)
    mean = ub_buf(f32, Bp)
    rstd = ub_buf(f32, Bp)
    c0 = block_idx() * per_block
    c1 = min(c0 + per_block, D)
    with compute("clear_part"):
        dup(part, 0.0, 2 * Bp)
    for r in range(B):
        with compute("clear"):
            dup(wt, 0.0, tile)
            dup(bt, 0.0, tile)
        for c in range(c0, c1, tile):
            n = min(tile, c1 - c)
            with copyin():
                load(xin, x[r, c : c + n])
            with compute("moments"):
                add(wt, wt, xin, n)
                mul(xin, xin, xin, n)
                add(bt, bt, xin, n)
        with compute("partial"):
            reduce_sum(red, wt, wt, tile)
            set(part, r, get(red, 0))
            reduce_sum(red, bt, bt, tile)
            set(part, Bp + r, get(red, 0))
    with compute("pack"):
        copy(slot, part, 2 * Bp)
    with copyout():
        store(partials[block_idx() * 2 * Bp : block_idx() * 2 * Bp + 2 * Bp], slot)
    sync_all()
    with copyin():
        load(every, partials[0 : slots])
    with compute("stats"):
        dup(tot, 0.0, 2 * Bp)
        for k in range(0, slots, 2 * Bp):
            add(tot, tot, every[k], 2 * Bp)
        muls(mean, tot, inv_d, Bp)                 # E[x]
        muls(rstd, tot[Bp], inv_d, Bp)             # E[x^2]
        mul(tot, mean, mean, Bp)
        sub(rstd, rstd, tot, Bp)                   # var = E[x^2] - E[x]^2
        adds(rstd, rstd, eps, Bp)
        sqrt(rstd, rstd, Bp)
        dup(tot, 1.0, Bp)
        div(rstd, tot, rstd, Bp)                   # 1 / sqrt(var + eps)
    for c in range(c0, c1, tile):
        n = min(tile, c1 - c)
        with copyin():
            load(win, w[c : c + n])
            load(bin, b[c : c + n])
        with compute("params"):
            copy(wt, win, align_up(n, 8))
            copy(bt, bin, align_up(n, 8))
        for r in range(B):
            with copyin():
                load(xin, x[r, c : c + n])
            with compute("normalise"):
                adds(yout, xin, -get(mean, r), n)
                muls(yout, yout, get(rstd, r), n)
                mul(yout, yout, wt, n)
                add(yout, yout, bt, n)
            with copyout():
                store(y[r, c : c + n], yout)
