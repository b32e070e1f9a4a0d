"""gemm_relu_divide — MultiKernelBench fuse: y = relu(x @ W^T + b) / divisor, fp32.

AscendCraft DSL: parsed, never executed. A mixed kernel (AIC:AIV = 1:2) with the explicit hand-over: each cube core
computes its blocks of y (TM x TN) in the low-level form (GM -> L1 -> L0A/L0B, mmad into L0C in TK steps of K; W is
n x k, so its tiles are L0B's without a transpose), stores the block to its slot of a GM workspace with the fixpipe
and hands it over (`handover(READY)`: CrossCoreSetFlag<2, PIPE_FIX>). The two vector cores of its group wait for the
flag (`wait(READY)`: CrossCoreWaitFlag), each loads its half of the block's rows, adds the bias row, applies ReLU and
the scale, and stores its rows of y. Closing the load stage with `handover(FREE)` hands the slot back; the cube core
waits for both vector cores' hand-back before it stores its next block there.
"""
from ascendcraft.dsl import *

TM = 256   # rows of a block of y (whole fractals of 16; L0A 64 KB, L0C 128 KB at TK, TN)
TN = 128   # columns of a block: the row length of a workspace slot
TK = 64    # K step: 8 fp32 fractal columns (C0 = 8 for fp32)
HALF = 128  # TM / 2: the rows of a block each vector core of the group takes
READY = 0  # flag: the cube core stored a block in its workspace slot
FREE = 1   # flag: both vector cores have read the slot


@host
def gemm_relu_divide(x: gm[f32, M, K], linear_weight: gm[f32, N, K], linear_bias: gm[f32, N], divisor: float, y: out[f32, M, N]):
    tiles_n = ceil_div(N, TN)
    tiles = ceil_div(M, TM) * tiles_n
    blocks = min(cores() // 2, tiles)      # cube cores; each hands its blocks to two vector cores
    ws = workspace(f32, blocks * TM * TN)  # one block-sized slot per cube core
    launch(fused_kernel, blocks, x, linear_weight, linear_bias, y, ws, M, N, K, tiles_n, tiles, blocks * TM, 1.0 / divisor)


@kernel
def fused_kernel(x: gm[f32, M, K], w: gm[f32, N, K], bias: gm[f32, N], y: gm[f32, M, N], ws: gm[f32, R, TN], M: int,
                 N: int, K: int, tiles_n: int, tiles: int, R: int, inv: float):
    a1 = l1(f32, TM, TK, bufs=2)
    b1 = l1(f32, TN, TK, bufs=2)
    a2 = l0a(f32, TM, TK)
    b2 = l0b(f32, TK, TN)
    c1 = l0c(f32, TM, TN)
    cin = ub_in(f32, HALF * TN)
    bin = ub_in(f32, TN)
    yout = ub_out(f32, HALF * TN)
    slot = block_idx() * TM          # this group's slot: rows slot .. slot + TM of the workspace
    h0 = sub_block_idx() * HALF      # this vector core's first row of a block
    for t in range(block_idx(), tiles, block_num()):
        m0 = (t // tiles_n) * TM
        n0 = (t % tiles_n) * TN
        m = min(TM, M - m0)
        n = min(TN, N - n0)
        rows = max(0, min(HALF, m - h0))
        for k0 in range(0, K, TK):
            k = min(TK, K - k0)
            with copyl1():
                load(a1, x[m0 : m0 + m, k0 : k0 + k])
                load(b1, w[n0 : n0 + n, k0 : k0 + k])
            with split():
                load_l0(a2, a1)
                load_l0(b2, b1)
            with cube():
                mmad(c1, a2, b2, m, n, k, init=k0 == 0)
        with fixpipe():
            store(ws[slot : slot + m, 0 : n], c1)
            handover(READY)
            wait(FREE)
        with copyin():
            wait(READY)
            load(bin, bias[n0 : n0 + n])
            if rows > 0:
                load(cin, ws[slot + h0 : slot + h0 + rows, 0 : n], pitch=TN)
            handover(FREE)
        with compute():
            for r in range(rows):
                add(yout[r * TN], cin[r * TN], bin, n)
                relu(yout[r * TN], yout[r * TN], n)
                muls(yout[r * TN], yout[r * TN], inv, n)
        with copyout():
            if rows > 0:
                store(y[m0 + h0 : m0 + h0 + rows, n0 : n0 + n], yout, pitch=TN)
