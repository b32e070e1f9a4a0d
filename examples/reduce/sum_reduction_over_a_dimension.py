"""sum_reduction_over_a_dimension — MultiKernelBench reduce: torch.sum(x, dim=1, keepdim=True) on (128, 4096, 4096).

AscendCraft DSL: parsed, never executed. The reduced axis is the strided middle one, so the
kernel accumulates whole rows: a work item is (batch b, a chunk of columns); it loads several
consecutive rows of that chunk at once (one strided copy) and adds each row into a UB
accumulator, then writes the chunk of the (b, 1, :) output row. Work items are spread over the
blocks.
"""
from ascendcraft.dsl import *

CHUNK = 2048   # columns per work item
ROWS = 8       # rows per load


@host
def sum_reduction_over_a_dimension(x: gm[f32, B, N, C], dim: int, y: out[f32, B, 1, C]):
    assert dim == 1, "this kernel reduces the middle axis of a 3-D tensor"
    cw = min(CHUNK, align_up(C, 8))
    chunks = ceil_div(C, cw)
    items = B * chunks
    blocks = min(cores(), items)
    per_block = ceil_div(items, blocks)
    launch(sum_dim1_kernel, blocks, x, y, B, N, C, cw, chunks, items, per_block, ROWS)


@kernel
def sum_dim1_kernel(x: gm[f32, B, N, C], y: gm[f32, B, C], B: int, N: int, C: int, cw: int,
                    chunks: int, items: int, per_block: int, rows: int):
    xin = ub_in(f32, rows * cw, bufs=2)
    yout = ub_out(f32, cw, bufs=2)
    acc = ub_buf(f32, cw)
    i0 = block_idx() * per_block
    i1 = min(i0 + per_block, items)
    for item in range(i0, i1):
        b = item // chunks
        c = (item % chunks) * cw
        n = min(cw, C - c)
        with compute("clear"):
            dup(acc, 0.0, cw)
        for i in range(0, N, rows):
            k = min(rows, N - i)
            with copyin():
                load(xin, x[b, i : i + k, c : c + n], pitch=cw)
            with compute("accumulate"):
                for j in range(k):
                    add(acc, acc, xin[j * cw], n)
        with compute("emit"):
            copy(yout, acc, cw)
        with copyout():
            store(y[b, c : c + n], yout)
