"""layer_norm — MultiKernelBench normalization/layer_norm: nn.LayerNorm((64, 256, 256)) on (64, 64, 256, 256).

AscendCraft DSL: parsed, never executed. Each sample (4,194,304 elements) is normalised by one
block, in two passes over it:

1. lane-wise sums of x and x*x in two UB vectors (small rounding error), reduced at the end to
   the mean and the (biased) variance;
2. y = (x - mean) * rstd * weight + bias, tile by tile.

weight and bias are the module's parameters `ln.weight` and `ln.bias` (bound by name).
"""
from ascendcraft.dsl import *

TILE = 4096
EPS = 1e-5


@host
def layer_norm(x: gm[f32, B, F, H, W], ln_weight: gm[f32, F, H, W], ln_bias: gm[f32, F, H, W],
               y: out[f32, x]):
    D = F * H * W
    blocks = min(cores(), B)
    per_block = ceil_div(B, blocks)
    launch(layer_norm_kernel, blocks, x, ln_weight, ln_bias, y, B, D, per_block, TILE, 1.0 / D, EPS)


@kernel
def layer_norm_kernel(x: gm[f32, B, D], w: gm[f32], b: gm[f32], y: gm[f32, B, D], B: int, D: int,
                      per_block: int, tile: int, inv_d: float, eps: float):
    xin = ub_in(f32, tile, bufs=2)
    win = ub_in(f32, tile, bufs=2)
    bin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    acc = ub_buf(f32, tile)
    acc2 = ub_buf(f32, tile)
    red = ub_buf(f32, 64)
    s0 = block_idx() * per_block
    s1 = min(s0 + per_block, B)
    for s in range(s0, s1):
        with compute("clear"):
            dup(acc, 0.0, tile)
            dup(acc2, 0.0, tile)
        for c in range(0, D, tile):
            n = min(tile, D - c)
            with copyin():
                load(xin, x[s, c : c + n])
            with compute("moments"):
                add(acc, acc, xin, n)
                mul(xin, xin, xin, n)
                add(acc2, acc2, xin, n)
        with compute("stats"):
            reduce_sum(red, acc, acc, tile)
            mean = get(red, 0) * inv_d
            reduce_sum(red, acc2, acc2, tile)
            var = get(red, 0) * inv_d - mean * mean
            dup(red, var + eps, 8)
            sqrt(red, red, 8)
            rstd = 1.0 / get(red, 0)
        for c in range(0, D, tile):
            n = min(tile, D - c)
            with copyin():
                load(xin, x[s, c : c + n])
                load(win, w[c : c + n])
                load(bin, b[c : c + n])
            with compute("normalise"):
                adds(yout, xin, -mean, n)
                muls(yout, yout, rstd, n)
                mul(yout, yout, win, n)
                add(yout, yout, bin, n)
            with copyout():
                store(y[s, c : c + n], yout)
