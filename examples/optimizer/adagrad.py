"""adagrad — MultiKernelBench optimizer/adagrad: one Adagrad step, returning the updated parameter.

accum' = accum + grad**2;  param' = param - lr * grad / (sqrt(accum') + eps).

AscendCraft DSL: parsed, never executed. Elementwise over three inputs: the flat tensors are
split into equal, 32-byte aligned shares per block, and each block streams its share through UB
in double-buffered tiles, reading every input once and writing param' once (the reference
returns only param'). The model is built without init arguments, so lr and eps take the
reference's defaults.
"""
from ascendcraft.dsl import *

TILE = 5120  # elements per tile: 3 x 2 input + 2 output buffers of 20 KB each


@host
def adagrad(param: gm[f32, ...], grad: gm[f32, ...], accum: gm[f32, ...], new_param: out[f32, param],
            lr: float = 0.01, eps: float = 1e-10):
    N = numel(param)
    assert numel(grad) == N and numel(accum) == N, "param, grad and accum must have the same size"
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(adagrad_kernel, blocks, param, grad, accum, new_param, N, per_block, TILE, lr, eps)


@kernel
def adagrad_kernel(p: gm[f32], g: gm[f32], acc: gm[f32], y: gm[f32], N: int, per_block: int, tile: int,
                   lr: float, eps: float):
    pin = ub_in(f32, tile, bufs=2)
    gin = ub_in(f32, tile, bufs=2)
    ain = ub_in(f32, tile, bufs=2)
    yout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(pin, p[off : off + n])
            load(gin, g[off : off + n])
            load(ain, acc[off : off + n])
        with compute():
            mul(yout, gin, gin, n)           # accum' = accum + grad^2
            add(ain, ain, yout, n)
            sqrt(ain, ain, n)                # sqrt(accum') + eps
            adds(ain, ain, eps, n)
            muls(gin, gin, -lr, n)
            div(yout, gin, ain, n)           # -lr * grad / (sqrt(accum') + eps)
            add(yout, yout, pin, n)
        with copyout():
            store(y[off : off + n], yout)
