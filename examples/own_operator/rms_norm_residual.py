"""rms_norm_residual — hand-written AscendCraft DSL for tiny_llama.RMSNormResidual.

h = x + residual; y = h * (1 / sqrt(mean(h ** 2) + eps)) * weight, per row of the last dimension.
AscendCraft DSL: parsed, never executed. Rows (batch x seq) are split evenly over the blocks; a row
(up to 4096 floats, 16 KB) fits the Unified Buffer, so each row is read once and both outputs are
written once: h from the add, y from the scaled product. The weight row is loaded once per block.
"""
from ascendcraft.dsl import *

MAX_D = 4096   # elements per row the buffers hold (5 row buffers x 2 + 2 scratch rows of 16 KB)


@host
def rms_norm_residual(x: gm[f32, B, S, D], residual: gm[f32, B, S, D], weight: gm[f32, D],
                      y: out[f32, x], h: out[f32, x], eps: float = 1e-6):
    assert D <= MAX_D, "a row must fit one UB buffer (up to 4096 floats)"
    rows = B * S
    per_block = ceil_div(rows, cores())
    blocks = ceil_div(rows, per_block)
    cols = align_up(D, 8)
    launch(rms_norm_residual_kernel, blocks, x, residual, weight, y, h, rows, D, cols, per_block, 1.0 / D, eps)


@kernel
def rms_norm_residual_kernel(x: gm[f32, R, D], residual: gm[f32, R, D], weight: gm[f32, D], y: gm[f32, R, D],
                             h: gm[f32, R, D], R: int, D: int, cols: int, per_block: int, inv_d: float, eps: float):
    xin = ub_in(f32, cols, bufs=2)
    rin = ub_in(f32, cols, bufs=2)
    win = ub_in(f32, cols, bufs=1)
    hout = ub_out(f32, cols, bufs=2)
    yout = ub_out(f32, cols, bufs=2)
    w = ub_buf(f32, cols)
    sq = ub_buf(f32, cols)
    red = ub_buf(f32, 8)
    with copyin():
        load(win, weight[0:D])
    with compute("weight"):
        copy(w, win, cols)
    r0 = block_idx() * per_block
    r1 = min(r0 + per_block, R)
    for r in range(r0, r1):
        with copyin():
            load(xin, x[r, 0:D])
            load(rin, residual[r, 0:D])
        with compute("norm"):
            add(hout, xin, rin, D)
            mul(sq, hout, hout, D)
            reduce_sum(red, sq, sq, D)
            dup(red, get(red, 0) * inv_d + eps, 8)
            sqrt(red, red, 8)
            scale = 1.0 / get(red, 0)
            muls(yout, hout, scale, D)
            mul(yout, yout, w, D)
        with copyout():
            store(h[r, 0:D], hout)
            store(y[r, 0:D], yout)
