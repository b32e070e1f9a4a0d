"""rmsprop — MultiKernelBench optimizer/rmsprop: one RMSprop step, returning the updated parameter.

v' = alpha * v + (1 - alpha) * grad**2;  param' = param - lr * grad / (sqrt(v') + eps).

AscendCraft DSL: parsed, never executed. Elementwise over three inputs: the flat tensors are
split into equal, 32-byte aligned shares per block, and each block streams its share through UB
in double-buffered tiles, reading every input once and writing param' once (the reference
returns only param'). The model is built without init arguments, so lr, alpha and eps take the
reference's defaults.
"""
from ascendcraft.dsl import *

TILE = 5120  # elements per tile: 3 x 2 input + 2 output buffers of 20 KB each


@host
def rmsprop(param: gm[f32, ...], grad: gm[f32, ...], v: gm[f32, ...], new_param: out[f32, param],
            lr: float = 0.001, alpha: float = 0.99, eps: float = 1e-8):
    N = numel(param)
    assert numel(grad) == N and numel(v) == N, "param, grad and v must have the same size"
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(rmsprop_kernel, blocks, param, grad, v, new_param, N, per_block, TILE, lr, alpha, 1.0 - alpha, eps)


@kernel
def rmsprop_kernel(p: gm[f32], g: gm[f32], v: gm[f32], y: gm[f32], N: int, per_block: int, tile: int,
                   lr: float, alpha: float, one_minus_alpha: float, eps: float):
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
            mul(yout, gin, gin, n)                   # v' = alpha * v + (1 - alpha) * grad^2
            muls(vin, vin, alpha, n)
            axpy(vin, yout, one_minus_alpha, n)
            sqrt(vin, vin, n)                        # sqrt(v') + eps
            adds(vin, vin, eps, n)
            muls(gin, gin, -lr, n)
            div(yout, gin, vin, n)                   # -lr * grad / (sqrt(v') + eps)
            add(yout, yout, pin, n)
        with copyout():
            store(y[off : off + n], yout)
