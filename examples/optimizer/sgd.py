"""sgd — MultiKernelBench optimizer/sgd: one SGD-with-momentum step, returning the updated parameter.

velocity' = momentum * velocity + grad;  param' = param - lr * velocity'.

AscendCraft DSL: parsed, never executed. Elementwise over three inputs: the flat tensors are
split into equal, 32-byte aligned shares per block, and each block streams its share through UB
in double-buffered tiles, reading every input once and writing param' once. The model is built
without init arguments, so momentum and lr take the reference's defaults.
"""
from ascendcraft.dsl import *

TILE = 5120  # elements per tile: 3 x 2 input + 2 output buffers of 20 KB each


@host
def sgd(param: gm[f32, ...], grad: gm[f32, ...], velocity: gm[f32, ...], new_param: out[f32, param],
        momentum: float = 0.9, lr: float = 0.01):
    N = numel(param)
    assert numel(grad) == N and numel(velocity) == N, "param, grad and velocity must have the same size"
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(sgd_kernel, blocks, param, grad, velocity, new_param, N, per_block, TILE, momentum, lr)


@kernel
def sgd_kernel(p: gm[f32], g: gm[f32], v: gm[f32], y: gm[f32], N: int, per_block: int, tile: int,
               momentum: float, lr: float):
    pin = ub_in(f32, tile, bufs=2)
    gin = ub_in(f32, tile, bufs=2)
    vin = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(pin, p[off : off + n])
            load(gin, g[off : off + n])
            load(vin, v[off : off + n])
        with compute():
            muls(vin, vin, momentum, n)      # velocity' = momentum * velocity + grad
            add(vin, vin, gin, n)
            muls(yout, vin, -lr, n)          # param' = param - lr * velocity'
            add(yout, yout, pin, n)
        with copyout():
            store(y[off : off + n], yout)
