"""batch_norm — MultiKernelBench normalization: nn.BatchNorm2d(64) in training mode on (64, 64, 512, 512).

AscendCraft DSL: parsed, never executed. Statistics per channel over (N, H, W) — the batch mean
and the biased variance, eps 1e-5 — then the affine transform with the module's parameters
`bn.weight` and `bn.bias` (bound by name). With 64 channels for 48 cores a whole channel is too
coarse a work item, so the work items are the N * C (sample, channel) planes, in channel-major
order, spread evenly over the blocks:

1. per plane, the moments of x - K_c: lane-wise sums of x - K_c and (x - K_c)² in two UB
   vectors, reduced to S1 and S2 and written to the plane's 32-byte slot in each of two GM
   workspaces (the rest of a slot is zero). The shift K_c = x[0, c, 0, 0] is the same for every
   plane of a channel, so the planes' sums add up; it keeps E[x²] - E[x]² from cancelling
   catastrophically when |mean| is large against the spread;
2. all blocks meet at sync_all();
3. per plane, y = (x - mean_c) * (rstd_c * weight[c]) + bias[c], tile by tile. When a block
   reaches a channel it has no statistics for yet, it loads the channel's N slots from each
   workspace and adds them with one reduce_sum per chunk of slots (the zeros add nothing).

x is read twice (4 GiB do not stay on chip) and y written once.
"""
from ascendcraft.dsl import *

TILE = 6144     # elements per tile: xin, yout (2 each), acc, acc2 = 6 buffers of 24 KB
SLOTS = 4096    # workspace floats added per reduce_sum (512 planes' slots)
EPS = 1e-5


@host
def batch_norm(x: gm[f32, N, C, H, W], bn_weight: gm[f32, C], bn_bias: gm[f32, C], y: out[f32, x]):
    HW = H * W
    items = C * N                       # planes, channel-major: item = c * N + sample
    per_block = ceil_div(items, cores())
    blocks = ceil_div(items, per_block)
    tile = min(TILE, align_up(HW, 8))
    chunk = min(SLOTS, N * 8)
    sums = workspace(f32, items * 8)    # S1 of each plane, one 32-byte slot each
    squares = workspace(f32, items * 8) # S2 of each plane
    launch(batch_norm_kernel, blocks, x, bn_weight, bn_bias, y, sums, squares, N, C, HW, items,
           per_block, tile, chunk, 1.0 / (N * HW), EPS)


@kernel
def batch_norm_kernel(x: gm[f32, N * C, HW], w: gm[f32], b: gm[f32], y: gm[f32, N * C, HW],
                      sums: gm[f32], squares: gm[f32], N: int, C: int, HW: int, items: int,
                      per_block: int, tile: int, chunk: int, inv_m: float, eps: float):
    head = ub_in(f32, 8)
    win = ub_in(f32, 8)
    bin = ub_in(f32, 8)
    xin = ub_in(f32, tile, bufs=2)
    s1in = ub_in(f32, chunk)
    s2in = ub_in(f32, chunk)
    yout = ub_out(f32, tile, bufs=2)
    slots = ub_out(f32, 16)             # S1 slot, S2 slot
    acc = ub_buf(f32, tile)
    acc2 = ub_buf(f32, tile)
    red = ub_buf(f32, 8)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    # phase 1: shifted moments of every plane
    for item in range(i0, i1):
        c = item // N
        plane = (item % N) * C + c
        with copyin():
            load(head, x[c, 0:1])
        with compute("clear"):
            shift = get(head, 0)
            dup(acc, 0.0, tile)
            dup(acc2, 0.0, tile)
        for off in range(0, HW, tile):
            n = min(tile, HW - off)
            with copyin():
                load(xin, x[plane, off : off + n])
            with compute("moments"):
                adds(xin, xin, -shift, n)
                add(acc, acc, xin, n)
                mul(xin, xin, xin, n)
                add(acc2, acc2, xin, n)
        with compute("partial"):
            dup(slots, 0.0, 16)
            reduce_sum(slots, acc, acc, tile)
            reduce_sum(slots[8], acc2, acc2, tile)
        with copyout():
            store(sums[item * 8 : item * 8 + 8], slots)
            store(squares[item * 8 : item * 8 + 8], slots[8])
    sync_all()
    # phase 2: normalise every plane with its channel's statistics
    for item in range(i0, i1):
        c = item // N
        plane = (item % N) * C + c
        if item == i0 or item % N == 0:
            s1 = 0.0
            s2 = 0.0
            for m in range(c * N * 8, (c + 1) * N * 8, chunk):
                k = min(chunk, (c + 1) * N * 8 - m)
                with copyin():
                    load(s1in, sums[m : m + k])
                    load(s2in, squares[m : m + k])
                with compute("channel_sums"):
                    reduce_sum(red, s1in, s1in, k)
                    s1 = s1 + get(red, 0)
                    reduce_sum(red, s2in, s2in, k)
                    s2 = s2 + get(red, 0)
            with copyin():
                load(head, x[c, 0:1])
                load(win, w[c : c + 1])
                load(bin, b[c : c + 1])
            with compute("channel_stats"):
                d = s1 * inv_m
                var = max(s2 * inv_m - d * d, 0.0)
                mean = get(head, 0) + d
                dup(red, var + eps, 8)
                sqrt(red, red, 8)
                scale = get(win, 0) / get(red, 0)
                beta = get(bin, 0)
        for off in range(0, HW, tile):
            n = min(tile, HW - off)
            with copyin():
                load(xin, x[plane, off : off + n])
            with compute("normalise"):
                adds(yout, xin, -mean, n)
                muls(yout, yout, scale, n)
                adds(yout, yout, beta, n)
            with copyout():
                store(y[plane, off : off + n], yout)
