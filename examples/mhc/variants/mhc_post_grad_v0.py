"""mhc_post_grad — backward of DeepSeek mHC post-mixing, given G = dL/dY [T, S, C]:

    dh[t]          = sum_j H_post[t, j] * G[t, j]          dX[t, i] = sum_j H_res[t, i, j] * G[t, j]
    dH_post[t, j]  = <G[t, j], h[t]>                        dH_res[t, i, j] = <X[t, i], G[t, j]>

AscendCraft DSL: parsed, never executed. The first, straightforward kernel, one output family
at a time. A work item is one token; the hidden dimension is walked in chunks, twice. Pass 1:
widen G to f32; dh and the S rows of dX are S-term combinations of the G rows (muls + axpy),
rounded to bf16 and stored. Pass 2 reads G again with X and h: each of the S + S*S dot products
is a mul and a reduce_sum whose result is added to a per-token scalar table in UB. After the last
chunk the table is stored as dH_post[t] and dH_res[t].
"""
from ascendcraft.dsl import *

CHUNK = 1024   # hidden elements per chunk


@host
def mhc_post_grad(G: gm[bf16, T, S, C], X: gm[bf16, T, S, C], h: gm[bf16, T, C], H_post: gm[f32, T, S],
                  H_res: gm[f32, T, S, S], dh: out[bf16, T, C], dX: out[bf16, T, S, C],
                  dH_post: out[f32, T, S], dH_res: out[f32, T, S, S]):
    assert S <= 8, "up to 8 streams"
    ct = min(CHUNK, align_up(C, 16))
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
    coef_in = ub_in(f32, 8 + 8 * 8)          # H_post[t] at 0, row i of H_res[t] at 8 + 8 i
    dhout = ub_out(bf16, ct, bufs=2)
    dxout = ub_out(bf16, S * ct, bufs=2)
    gradout = ub_out(f32, 8 + 8 * 8)         # dH_post[t] at 0, row i of dH_res[t] at 8 + 8 i
    coef = ub_buf(f32, 8 + 8 * 8)
    dots = ub_buf(f32, 8 + 8 * 8)            # running dot products, same layout
    gf = ub_buf(f32, S * ct)
    xf = ub_buf(f32, S * ct)
    hf = ub_buf(f32, ct)
    acc = ub_buf(f32, ct)
    red = ub_buf(f32, 64)
    t0 = block_idx() * per_block
    t1 = min(t0 + per_block, T)
    for t in range(t0, t1):
        with copyin():
            load(coef_in, H_post[t, 0 : S])
            load(coef_in[8], H_res[t, 0 : S, 0 : S], pitch=8)
        with compute("token_start"):
            copy(coef, coef_in, 8 + 8 * 8)
            dup(dots, 0.0, 8 + 8 * 8)
        for c0 in range(0, C, ct):
            n = min(ct, C - c0)
            with copyin():
                load(gin, G[t, 0 : S, c0 : c0 + n], pitch=ct)
            with compute("combine"):
                cast(gf, gin, S * ct)
                muls(acc, gf, get(coef, 0), n)                       # dh = sum_j H_post[j] G_j
                for j in range(1, S):
                    axpy(acc, gf[j * ct], get(coef, j), n)
                cast(dhout, acc, n, round="rint")
                for i in range(S):                                   # dX_i = sum_j H_res[i, j] G_j
                    muls(acc, gf, get(coef, 8 + i * 8), n)
                    for j in range(1, S):
                        axpy(acc, gf[j * ct], get(coef, 8 + i * 8 + j), n)
                    cast(dxout[i * ct], acc, n, round="rint")
            with copyout():
                store(dh[t, c0 : c0 + n], dhout)
                store(dX[t, 0 : S, c0 : c0 + n], dxout, pitch=ct)
        for c0 in range(0, C, ct):
            n = min(ct, C - c0)
            with copyin():
                load(gin, G[t, 0 : S, c0 : c0 + n], pitch=ct)
                load(xin, X[t, 0 : S, c0 : c0 + n], pitch=ct)
                load(hin, h[t, c0 : c0 + n])
            with compute("dots"):
                cast(gf, gin, S * ct)
                cast(xf, xin, S * ct)
                cast(hf, hin, n)
                for j in range(S):                                   # dH_post[j] += <G_j, h>
                    mul(acc, gf[j * ct], hf, n)
                    reduce_sum(red, acc, acc, n)
                    set(dots, j, get(dots, j) + get(red, 0))
                for i in range(S):                                   # dH_res[i, j] += <X_i, G_j>
                    for j in range(S):
                        mul(acc, xf[i * ct], gf[j * ct], n)
                        reduce_sum(red, acc, acc, n)
                        set(dots, 8 + i * 8 + j, get(dots, 8 + i * 8 + j) + get(red, 0))
        with compute("token_end"):
            copy(gradout, dots, 8 + 8 * 8)
        with copyout():
            store(dH_post[t, 0 : S], gradout)
            store(dH_res[t, 0 : S, 0 : S], gradout[8], pitch=8)
