"""frobenius_norm — MultiKernelBench normalization: y = x / sqrt(sum(x ** 2)) over the whole (128, 64, 512, 512) tensor.

AscendCraft DSL: parsed, never executed. A global reduction, then an elementwise pass; the flat
tensor is split into equal, 32-byte aligned shares per block:

1. every block accumulates x * x over its share lane-wise in a UB vector (small rounding
   error), reduces it to one partial sum and writes that to its 32-byte slot of a GM workspace
   (the rest of the slot is zero);
2. all blocks meet at sync_all();
3. every block loads all the slots and adds them with one reduce_sum (the zeros add nothing),
   takes the square root on a small UB vector (kernels have no scalar sqrt), and scales its own
   share by 1 / norm. All blocks compute the same total from the same slots in the same order,
   so no second barrier is needed to share it.

x is read twice (8 GiB do not stay on chip) and y written once.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile


@host
def frobenius_norm(x: gm[f32, ...], y: out[f32, x]):
    N = numel(x)
    per_block = align_up(ceil_div(N, cores()), 8)   # whole 32-byte blocks per core
    blocks = ceil_div(N, per_block)
    tile = min(TILE, per_block)
    partials = workspace(f32, blocks * 8)           # one 32-byte slot per block
    launch(frobenius_kernel, blocks, x, y, partials, N, per_block, tile, blocks * 8)


@kernel
def frobenius_kernel(x: gm[f32], y: gm[f32], partials: gm[f32], N: int, per_block: int, tile: int,
                     slots: int):
    xin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    acc = ub_buf(f32, tile)
    slot = ub_out(f32, 8)
    every = ub_in(f32, slots)                       # every block's slot
    red = ub_buf(f32, 8)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    with compute("clear"):
        dup(acc, 0.0, tile)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute("square_sum"):
            mul(xin, xin, xin, n)
            add(acc, acc, xin, n)
    with compute("partial"):
        dup(slot, 0.0, 8)
        reduce_sum(slot, acc, acc, tile)
    with copyout():
        store(partials[block_idx() * 8 : block_idx() * 8 + 8], slot)
    sync_all()
    with copyin():
        load(every, partials[0 : slots])
    with compute("norm"):
        reduce_sum(red, every, acc, slots)
        dup(red, get(red, 0), 8)
        sqrt(red, red, 8)
        scale = 1.0 / get(red, 0)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(xin, x[off : off + n])
        with compute("normalise"):
            muls(yout, xin, scale, n)
        with copyout():
            store(y[off : off + n], yout)
