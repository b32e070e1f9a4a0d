"""mhc_post_grad_f32 — backward of mHC post-mixing with float32 streams, given G = dL/dY [T, S, C]:

    dh[t]          = sum_j H_post[t, j] * G[t, j]          dX[t, i] = sum_j H_res[t, i, j] * G[t, j]
    dH_post[t, j]  = <G[t, j], h[t]>                        dH_res[t, i, j] = <X[t, i], G[t, j]>

AscendCraft DSL: parsed, never executed. The tuned bf16 kernel (examples/mhc/mhc_post_grad.py, v4) with the
streams in float32: no widening or rounding casts; dh and the S rows of dX are built in their output tiles, the
S + S*S dot products are folded into 64-lane accumulators (fold_add) and reduced once per token (row_sum). The
coefficients arrive with every chunk as a copied-in tile. Chunks of 1024 elements (float32 tiles are twice the
bf16 ones). Requires C to be a multiple of 64.
"""
from ascendcraft.dsl import *

CHUNK = 1024   # hidden elements per chunk (a multiple of 64)


@host
def mhc_post_grad_f32(G: gm[f32, T, S, C], X: gm[f32, T, S, C], h: gm[f32, T, C], H_post: gm[f32, T, S],
                      H_res: gm[f32, T, S, S], dh: out[f32, T, C], dX: out[f32, T, S, C],
                      dH_post: out[f32, T, S], dH_res: out[f32, T, S, S]):
    assert S <= 8, "up to 8 streams"
    assert C % 64 == 0, "the hidden size must be a multiple of 64"
    ct = min(CHUNK, C)
    blocks = min(cores(), T)
    per_block = ceil_div(T, blocks)
    launch(mhc_post_grad_f32_kernel, blocks, G, X, h, H_post, H_res, dh, dX, dH_post, dH_res, T, S, C, ct, per_block)


@kernel
def mhc_post_grad_f32_kernel(G: gm[f32, T, S, C], X: gm[f32, T, S, C], h: gm[f32, T, C], H_post: gm[f32, T, S],
                             H_res: gm[f32, T, S, S], dh: gm[f32, T, C], dX: gm[f32, T, S, C], dH_post: gm[f32, T, S],
                             dH_res: gm[f32, T, S, S], T: int, S: int, C: int, ct: int, per_block: int):
    gin = ub_in(f32, S * ct, bufs=2)
    xin = ub_in(f32, S * ct, bufs=2)
    hin = ub_in(f32, ct, bufs=2)
    coef = ub_in(f32, 8 + 8 * 8, bufs=2)     # H_post[t] at 0, row i of H_res[t] at 8 + 8 i, with every chunk
    dhout = ub_out(f32, ct, bufs=2)
    dxout = ub_out(f32, S * ct, bufs=2)
    gradout = ub_out(f32, 8 + 8 * 8)         # dH_post[t] at 0, row i of dH_res[t] at 8 + 8 i
    lanes = ub_buf(f32, (8 + 8 * 8) * 64)    # 64-lane accumulator k for output k of the layout above
    acc = ub_buf(f32, ct)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, T)
    for t in range(t0, t1):
        with compute("token_start"):
            dup(lanes, 0.0, (8 + 8 * 8) * 64)
        for c0 in range(0, C, ct):
            n = min(ct, C - c0)
            with copyin():
                load(gin, G[t, 0 : S, c0 : c0 + n], pitch=ct)
                load(xin, X[t, 0 : S, c0 : c0 + n], pitch=ct)
                load(hin, h[t, c0 : c0 + n])
                load(coef, H_post[t, 0 : S])
                load(coef[8], H_res[t, 0 : S, 0 : S], pitch=8)
            with compute("chunk"):
                muls(dhout, gin, get(coef, 0), n)                    # dh = sum_j H_post[j] G_j
                for j in range(1, S):
                    axpy(dhout, gin[j * ct], get(coef, j), n)
                for i in range(S):                                   # dX_i = sum_j H_res[i, j] G_j
                    muls(dxout[i * ct], gin, get(coef, 8 + i * 8), n)
                    for j in range(1, S):
                        axpy(dxout[i * ct], gin[j * ct], get(coef, 8 + i * 8 + j), n)
                for j in range(S):                                   # lanes of <G_j, h>
                    mul(acc, gin[j * ct], hin, n)
                    fold_add(lanes[j * 64], acc, n)
                for i in range(S):                                   # lanes of <X_i, G_j>
                    for j in range(S):
                        mul(acc, xin[i * ct], gin[j * ct], n)
                        fold_add(lanes[(8 + i * 8 + j) * 64], acc, n)
            with copyout():
                store(dh[t, c0 : c0 + n], dhout)
                store(dX[t, 0 : S, c0 : c0 + n], dxout, pitch=ct)
        with compute("token_end"):
            row_sum(gradout, lanes, 8 + 8 * 8)
        with copyout():
            store(dH_post[t, 0 : S], gradout)
            store(dH_res[t, 0 : S, 0 : S], gradout[8], pitch=8)
