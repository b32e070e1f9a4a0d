"""group_norm — MultiKernelBench normalization: nn.GroupNorm(8, 64) on (128, 64, 512, 512).

AscendCraft DSL: parsed, never executed. Statistics per (sample, group of channels) over the
group's channels and H * W — a contiguous run of D = (C / groups) * H * W elements — eps 1e-5,
then a per-channel affine transform with the module's parameters `gn.weight` and `gn.bias`
(bound by name). The 1024 groups are spread evenly over the blocks; a block normalises whole
groups, each in two passes:

1. moments of x - K, where the shift K is the group's first element: lane-wise sums of x - K
   and (x - K)² in two UB vectors, reduced at the end. Then mean = K + S1 / D and
   var = S2 / D - (S1 / D)²; the shift keeps E[x²] - E[x]² from cancelling catastrophically
   when |mean| is large against the spread;
2. channel by channel: scale_c = rstd * weight[c] (one vector instruction for the group's
   channels), then y = (x - mean) * scale_c + bias[c], tile by tile.

x is read twice (an 8 MB group does not stay on chip) and y written once.
"""
from ascendcraft.dsl import *

TILE = 6144   # elements per tile: xin, yout (2 each), acc, acc2 = 6 buffers of 24 KB
EPS = 1e-5


@host
def group_norm(x: gm[f32, N, C, H, W], num_groups: int, gn_weight: gm[f32, C], gn_bias: gm[f32, C],
               y: out[f32, x]):
    assert C % num_groups == 0, "the channels must split evenly into the groups"
    assert C // num_groups <= 2048, "up to 2048 channels per group (their weights stay in UB)"
    G = N * num_groups              # groups in the tensor
    cpg = C // num_groups           # channels per group
    HW = H * W
    D = cpg * HW                    # elements per group
    per_block = ceil_div(G, cores())
    blocks = ceil_div(G, per_block)
    tile = min(TILE, align_up(D, 8))
    launch(group_norm_kernel, blocks, x, gn_weight, gn_bias, y, G, num_groups, cpg, HW, D, per_block,
           tile, align_up(cpg, 8), 1.0 / D, EPS)


@kernel
def group_norm_kernel(x: gm[f32, G, D], w: gm[f32], b: gm[f32], y: gm[f32, G, D], G: int, groups: int,
                      cpg: int, HW: int, D: int, per_block: int, tile: int, cpad: int, inv_d: float,
                      eps: float):
    head = ub_in(f32, 8)
    win = ub_in(f32, cpad)
    bin = ub_in(f32, cpad)
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    acc = ub_buf(f32, tile)
    acc2 = ub_buf(f32, tile)
    scale = ub_buf(f32, cpad)       # rstd * weight, per channel of the group
    bias = ub_buf(f32, cpad)
    red = ub_buf(f32, 8)
    g0 = block_idx() * per_block
    g1 = min(g0 + per_block, G)
    for g in range(g0, g1):
        c0 = (g % groups) * cpg     # first channel of the group
        with copyin():
            load(head, x[g, 0:1])
            load(win, w[c0 : c0 + cpg])
            load(bin, b[c0 : c0 + cpg])
        with compute("clear"):
            shift = get(head, 0)
            dup(acc, 0.0, tile)
            dup(acc2, 0.0, tile)
            copy(scale, win, cpad)
            copy(bias, bin, cpad)
        for c in range(0, D, tile):
            n = min(tile, D - c)
            with copyin():
                load(xin, x[g, c : c + n])
            with compute("moments"):
                adds(xin, xin, -shift, n)
                add(acc, acc, xin, n)
                mul(xin, xin, xin, n)
                add(acc2, acc2, xin, n)
        with compute("stats"):
            reduce_sum(red, acc, acc, tile)
            d = get(red, 0) * inv_d
            reduce_sum(red, acc2, acc2, tile)
            var = max(get(red, 0) * inv_d - d * d, 0.0)
            mean = shift + d
            dup(red, var + eps, 8)
            sqrt(red, red, 8)
            muls(scale, scale, 1.0 / get(red, 0), cpad)
        for ch in range(cpg):
            for c in range(ch * HW, (ch + 1) * HW, tile):
                n = min(tile, (ch + 1) * HW - c)
                with copyin():
                    load(xin, x[g, c : c + n])
                with compute("normalise"):
                    adds(yout, xin, -mean, n)
                    muls(yout, yout, get(scale, ch), n)
                    adds(yout, yout, get(bias, ch), n)
                with copyout():
                    store(y[g, c : c + n], yout)
