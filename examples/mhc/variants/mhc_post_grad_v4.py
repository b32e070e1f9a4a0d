"""mhc_post_grad, v4 — v3 without the scalar waits.

v3 copied the token's coefficients (H_post[t], H_res[t]) from their queue into a work buffer with a
vector copy, then read them with get() between the vector instructions of every chunk. A scalar read
of a buffer the vector unit wrote must first wait for the vector unit to finish (V -> S), so each of
the S + S*S reads per chunk drained the vector pipeline and stopped the scalar unit from issuing
ahead. v4 loads the coefficients with each chunk as a copied-in tile (288 bytes next to the chunk's
G, X and h) and reads them from there: one MTE2 -> S wait per chunk, no vector copy, and the
vector instructions of a chunk issue back to back. Requires C to be a multiple of 64.
"""
from ascendcraft.dsl import *

CHUNK = 1280   # hidden elements per chunk (a multiple of 64)


@host
def mhc_post_grad(G: gm[bf16, T, S, C], X: gm[bf16, T, S, C], h: gm[bf16, T, C], H_post: gm[f32, T, S],
                  H_res: gm[f32, T, S, S], dh: out[bf16, T, C], dX: out[bf16, T, S, C],
                  dH_post: out[f32, T, S], dH_res: out[f32, T, S, S]):
    assert S <= 8, "up to 8 streams"
    assert C % 64 == 0, "the hidden size must be a multiple of 64"
    ct = min(CHUNK, C)
    blocks = min(cores(), T)
    per_block = ceil_div(T, blocks)
    launch(mhc_post_grad_kernel, blocks, G, X, h, H_post, H_res, dh, dX, dH_post, dH_res, T, S, C, ct, per_block)


@kernel
def mhc_post_grad_kernel(G: gm[bf16, T, S, C], X: gm[bf16, T, S, C], h: gm[bf16, T, C], H_post: gm[f32, T, S],
                         H_res: gm[f32, T, S, S], dh: gm[bf16, T, C], dX: gm[bf16, T, S, C], dH_post: gm[f32, T, S],
                         dH_res: gm[f32, T, S, S], T: int, S: int, C: int, ct: int, per_block: int):
    gin = ub_in(bf16, S * ct, bufs=2)
    xin = ub_in(bf16, S * ct, bufs=2)
    hin = ub_in(bf16, ct, bufs=2)
    coef = ub_in(f32, 8 + 8 * 8, bufs=2)     # H_post[t] at 0, row i of H_res[t] at 8 + 8 i, with every chunk
    dhout = ub_out(bf16, ct, bufs=2)
    dxout = ub_out(bf16, S * ct, bufs=2)
    gradout = ub_out(f32, 8 + 8 * 8)         # dH_post[t] at 0, row i of dH_res[t] at 8 + 8 i
    lanes = ub_buf(f32, (8 + 8 * 8) * 64)    # 64-lane accumulator k for output k of the layout above
    gf = ub_buf(f32, S * ct)
    xf = ub_buf(f32, S * ct)
    hf = ub_buf(f32, ct)
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
                cast(gf, gin, S * ct)
                cast(xf, xin, S * ct)
                cast(hf, hin, n)
                muls(acc, gf, get(coef, 0), n)                       # dh = sum_j H_post[j] G_j
                for j in range(1, S):
                    axpy(acc, gf[j * ct], get(coef, j), n)
                cast(dhout, acc, n, round="rint")
                for i in range(S):                                   # dX_i = sum_j H_res[i, j] G_j
                    muls(acc, gf, get(coef, 8 + i * 8), n)
                    for j in range(1, S):
                        axpy(acc, gf[j * ct], get(coef, 8 + i * 8 + j), n)
                    cast(dxout[i * ct], acc, n, round="rint")
                for j in range(S):                                   # lanes of <G_j, h>
                    mul(acc, gf[j * ct], hf, n)
                    fold_add(lanes[j * 64], acc, n)
                for i in range(S):                                   # lanes of <X_i, G_j>
                    for j in range(S):
                        mul(acc, xf[i * ct], gf[j * ct], n)
                        fold_add(lanes[(8 + i * 8 + j) * 64], acc, n)
            with copyout():
                store(dh[t, c0 : c0 + n], dhout)
                store(dX[t, 0 : S, c0 : c0 + n], dxout, pitch=ct)
        with compute("token_end"):
            row_sum(gradout, lanes, 8 + 8 * 8)
        with copyout():
            store(dH_post[t, 0 : S], gradout)
            store(dH_res[t, 0 : S, 0 : S], gradout[8], pitch=8)
