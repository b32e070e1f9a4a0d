"""index_copy — MultiKernelBench index/index_copy: y = x.index_copy(0, indices, src), x (R, D), indices (K,) int64, src (K, D).

AscendCraft DSL: parsed, never executed. Output row indices[i] becomes src row i. Work units are
(row band, column strip) pairs of the output, split evenly over the blocks; each unit is owned by
one block, so no two blocks write the same bytes and the order of the updates is kept:

1. the unit's band of x (RB rows by W columns, one strided copy) goes into a UB slab with one
   spare row;
2. the K indices are walked in order, a chunk at a time: the chunk's src strip is loaded with one
   strided copy, and for each update the scalar unit reads its row (GetValue) and a vector copy
   puts the src row into the slab at that row, or into the spare row when the row is outside the
   band (no data-dependent branch). The last of repeated indices wins, as on PyTorch's CPU;
3. the slab is stored once.
"""
from ascendcraft.dsl import *

W = 16        # columns per strip (64 bytes)
RB = 512      # output rows per band
KB = 256      # updates per chunk


@host
def index_copy(x: gm[f32, R, D], indices: gm[i64, K], src: gm[f32, K, D], y: out[f32, x]):
    rb = min(RB, R)
    strips = ceil_div(D, W)
    bands = ceil_div(R, rb)
    units = strips * bands
    per_block = ceil_div(units, cores())
    blocks = ceil_div(units, per_block)
    launch(index_copy_kernel, blocks, x, indices, src, y, R, D, K, rb, W, KB, bands, units, per_block)


@kernel
def index_copy_kernel(x: gm[f32, R, D], idx: gm[i64], src: gm[f32, K, D], y: gm[f32, R, D], R: int, D: int, K: int,
                      rb: int, w: int, kb: int, bands: int, units: int, per_block: int):
    xin = ub_in(f32, rb * w)
    iin = ub_in(i64, kb, bufs=2)
    sin = ub_in(f32, kb * w, bufs=2)
    yout = ub_out(f32, rb * w)
    slab = ub_buf(f32, (rb + 1) * w)
    pos = ub_buf(i32, kb)
    u0 = block_idx() * per_block
    u1 = min(u0 + per_block, units)
    for u in range(u0, u1):
        r0 = (u % bands) * rb
        c0 = (u // bands) * w
        nr = min(rb, R - r0)
        nc = min(w, D - c0)
        with copyin():
            load(xin, x[r0 : r0 + nr, c0 : c0 + nc], pitch=w)
        with compute("band"):
            copy(slab, xin, rb * w)
        for k0 in range(0, K, kb):
            n = min(kb, K - k0)
            with copyin():
                load(iin, idx[k0 : k0 + n])
                load(sin, src[k0 : k0 + n, c0 : c0 + nc], pitch=w)
            with compute("update"):
                cast(pos, iin, n)
                for j in range(n):
                    p = get(pos, j) - r0
                    q = p if p >= 0 and p < nr else rb
                    copy(slab[q * w], sin[j * w], w)
        with compute("out"):
            copy(yout, slab, rb * w)
        with copyout():
            store(y[r0 : r0 + nr, c0 : c0 + nc], yout, pitch=w)
