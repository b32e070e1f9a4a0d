"""mhc_post_f32 — mHC post-mixing with float32 streams: Y[t, j, :] = H_post[t, j] * h[t, :] + sum_i H_res[t, i, j] * X[t, i, :].

AscendCraft DSL: parsed, never executed. The tuned bf16 kernel (examples/mhc/mhc_post.py) with the streams in
float32: no widening or rounding casts, the mix works on the copied-in rows and writes the output tile directly.
A work item is one token's hidden dimension in chunks of up to 2048 elements (float32 rows take twice the UB of
bf16 ones: the double-buffered h, X and Y tiles are 144 KB), blocks take equal runs of items.
"""
from ascendcraft.dsl import *

CHUNK = 2048   # hidden elements per work item


@host
def mhc_post_f32(h: gm[f32, T, C], X: gm[f32, T, S, C], H_post: gm[f32, T, S], H_res: gm[f32, T, S, S],
                 Y: out[f32, T, S, C]):
    assert S <= 8, "up to 8 streams"
    ct = min(CHUNK, align_up(C, 8))
    chunks = ceil_div(C, ct)
    items = T * chunks
    blocks = min(cores(), items)
    per_block = ceil_div(items, blocks)
    launch(mhc_post_f32_kernel, blocks, h, X, H_post, H_res, Y, T, S, C, ct, chunks, items, per_block)


@kernel
def mhc_post_f32_kernel(h: gm[f32, T, C], X: gm[f32, T, S, C], H_post: gm[f32, T, S], H_res: gm[f32, T, S, S],
                        Y: gm[f32, T, S, C], T: int, S: int, C: int, ct: int, chunks: int, items: int, per_block: int):
    hin = ub_in(f32, ct, bufs=2)
    xin = ub_in(f32, S * ct, bufs=2)
    coef = ub_in(f32, 8 + 8 * 8, bufs=2)   # H_post[t] at 0; row i of H_res[t] at 8 + 8 i
    yout = ub_out(f32, S * ct, bufs=2)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        t = item // chunks
        c0 = (item % chunks) * ct
        n = min(ct, C - c0)
        with copyin():
            load(hin, h[t, c0 : c0 + n])
            load(xin, X[t, 0 : S, c0 : c0 + n], pitch=ct)
            load(coef, H_post[t, 0 : S])
            load(coef[8], H_res[t, 0 : S, 0 : S], pitch=8)
        with compute("mix"):
            for j in range(S):
                muls(yout[j * ct], hin, get(coef, j), n)
                for i in range(S):
                    axpy(yout[j * ct], xin[i * ct], get(coef, 8 + i * 8 + j), n)
        with copyout():
            store(Y[t, 0 : S, c0 : c0 + n], yout, pitch=ct)
