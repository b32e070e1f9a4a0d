"""matrix_scalar_multiplication — MultiKernelBench math: C = A * s for A (65536, 16384) and a Python float s.

AscendCraft DSL: parsed, never executed. Elementwise, like relu: the flat matrix is split into
equal, 32-byte aligned shares per block; each block streams its share through UB in
double-buffered tiles and scales them with one muls() each. The scalar s is a forward argument,
so it arrives as a host `float` parameter and is passed to the kernel as a scalar.
"""
from ascendcraft.dsl import *

TILE = 8192  # elements per tile: 2 input + 2 output buffers of 32 KB each


@host
def matrix_scalar_multiplication(A: gm[f32, ...], s: float, C: out[f32, A]):
    N = numel(A)
    blocks = min(cores(), ceil_div(N, TILE))
    per_block = align_up(ceil_div(N, blocks), 8)   # whole 32-byte blocks per core
    launch(scale_kernel, blocks, A, C, N, per_block, TILE, s)


@kernel
def scale_kernel(a: gm[f32], c: gm[f32], N: int, per_block: int, tile: int, s: float):
    ain = ub_in(f32, tile, bufs=2)
    cout = ub_out(f32, tile, bufs=2)
    start = block_idx() * per_block
    end = min(start + per_block, N)
    for off in range(start, end, tile):
        n = min(tile, end - off)
        with copyin():
            load(ain, a[off : off + n])
        with compute():
            muls(cout, ain, s, n)
        with copyout():
            store(c[off : off + n], cout)
