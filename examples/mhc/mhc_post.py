"""mhc_post — DeepSeek mHC post-mixing: Y[t, j, :] = H_post[t, j] * h[t, :] + sum_i H_res[t, i, j] * X[t, i, :].

AscendCraft DSL: parsed, never executed. The tuned kernel (variant v2 of examples/mhc/variants/,
where the case study examples/mhc_case_study.ipynb records how it came about). A work item is
one token — the hidden dimension in chunks of up to 2560 elements — and blocks take equal runs of
items. Per item: load the h row, the S stream rows of X (one strided copy) and the token's
S + S*S coefficients, all double-buffered; widen bf16 to f32; for each output stream j,
acc = H_post[j] * h + sum_i H_res[i, j] * X_i (note the transpose: entry [i, j] routes input
stream i to output stream j), accumulated in f32 and rounded once to bf16; store the S output
rows with one strided copy. At C = 2560 it is memory-bound: each byte of h, X and Y crosses HBM once.
"""
from ascendcraft.dsl import *

CHUNK = 2560   # hidden elements per work item


@host
def mhc_post(h: gm[bf16, T, C], X: gm[bf16, T, S, C], H_post: gm[f32, T, S], H_res: gm[f32, T, S, S],
             Y: out[bf16, T, S, C]):
    assert S <= 8, "up to 8 streams"
    ct = min(CHUNK, align_up(C, 16))
    chunks = ceil_div(C, ct)
    items = T * chunks
    blocks = min(cores(), items)
    per_block = ceil_div(items, blocks)
    launch(mhc_post_kernel, blocks, h, X, H_post, H_res, Y, T, S, C, ct, chunks, items, per_block)


@kernel
def mhc_post_kernel(h: gm[bf16, T, C], X: gm[bf16, T, S, C], H_post: gm[f32, T, S], H_res: gm[f32, T, S, S],
                    Y: gm[bf16, T, S, C], T: int, S: int, C: int, ct: int, chunks: int, items: int, per_block: int):
    hin = ub_in(bf16, ct, bufs=2)
    xin = ub_in(bf16, S * ct, bufs=2)
    coef = ub_in(f32, 8 + 8 * 8, bufs=2)   # H_post[t] at 0; row i of H_res[t] at 8 + 8 i
    yout = ub_out(bf16, S * ct, bufs=2)
    hf = ub_buf(f32, ct)
    xf = ub_buf(f32, S * ct)
    acc = ub_buf(f32, ct)
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
            cast(hf, hin, n)
            cast(xf, xin, S * ct)
            for j in range(S):
                muls(acc, hf, get(coef, j), n)
                for i in range(S):
                    axpy(acc, xf[i * ct], get(coef, 8 + i * 8 + j), n)
                cast(yout[j * ct], acc, n, round="rint")
        with copyout():
            store(Y[t, 0 : S, c0 : c0 + n], yout, pitch=ct)
