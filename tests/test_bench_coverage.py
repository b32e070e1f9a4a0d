"""Exact coverage of full-shape outputs: the trace must write every byte of every output, not merely as many bytes.

The kernel under test is tests/cheats/wrapped_output: the lowered relu with one hand edit — past 2^24 elements its
destination offset wraps inside each block's share, the way a 32-bit index wraps past 2^31 elements. It verifies at
the small shapes (the wrap does not happen there), and at the full shapes it writes exactly the output's byte count:
half of every block's share twice, the other half never. Counting bytes (the old check) passes it; coverage does not.
"""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.bench import (EmulatedKernel, _coverage_failure, merge_intervals, output_coverage, write_intervals,
                               written_bytes)
from ascendcraft.bind import shape_bindings
from ascendcraft.launch import trace_kernel
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task
from ascendcraft.verify import verify

CHEATS = Path(__file__).resolve().parent / "cheats"


@pytest.fixture(scope="module")
def relu():
    return get_task("relu")


def full_trace(task, edit: str | None = None):
    pipe = Pipeline((CHEATS / "relu.py").read_text(), "relu.py", task=task)
    pipe.run_all()
    if edit:
        pipe.edit(pipe.steps[-1].index, {"relu_kernel.cpp": (CHEATS / edit / "relu_kernel.cpp").read_text()})
    assert all(s.status == "ok" for s in pipe.steps), [(s.name, s.status) for s in pipe.steps]
    full = shape_bindings(pipe.program, task, sizes=("full",))[0]
    return pipe, trace_kernel(pipe.steps[-1].build, pipe.program, full)


def test_wrapped_offsets_keep_the_byte_count_but_not_the_coverage(relu):
    pipe, trace = full_trace(relu, "wrapped_output")
    kernel = EmulatedKernel(pipe.steps[-1].build, pipe.program, relu)
    assert verify(relu, kernel, trials=1).passed                      # correct where the wrap does not happen
    need = sum(s.nbytes for s in relu.output_specs("full"))
    assert written_bytes(trace) == need                               # the byte count alone is fooled
    cov, = output_coverage(trace)
    assert (cov.tensor, cov.nbytes, cov.written) == ("y", need, need)
    assert not cov.complete and cov.missing == cov.rewritten > 0      # what is missing was written twice instead
    blocks = trace.block_dim
    assert cov.gap_count == blocks                                    # one hole per block: the back half of its share
    start, end = cov.gaps[0]
    per_block = -(-need // blocks)
    assert start > 0 and end <= per_block + 32 and end - start >= per_block // 2 - 32 * 1024
    d = _coverage_failure([cov], relu, "relu_kernel.cpp")
    assert d is not None and d.kind == "trace-output-coverage"
    assert f"{cov.missing:,} of {need:,} bytes are never written" in d.message
    assert f"elements {start // 4:,}" in d.message


def test_an_honest_kernel_covers_every_byte_once(relu):
    _, trace = full_trace(relu)
    cov, = output_coverage(trace)
    assert cov.complete and cov.rewritten == 0 and cov.gaps == [] and cov.written == cov.nbytes
    assert _coverage_failure([cov], relu, "relu_kernel.cpp") is None


def test_strided_writes_that_tile_a_matrix_merge_without_expanding():
    "Column tiles of a 4096 x 4096 float matrix, 256 rows per record: 16 M bursts, merged per stride group."
    rows, cols, chunk, band = 4096, 4096, 256, 256
    row_bytes = cols * 4
    r0, c0 = np.meshgrid(np.arange(0, rows, band), np.arange(0, cols, chunk), indexing="ij")
    offset = (r0 * row_bytes + c0 * 4).reshape(-1)
    n = len(offset)
    starts, ends = write_intervals(offset, np.full(n, chunk * 4), np.full(n, row_bytes), np.full(n, band))
    assert len(starts) <= n                                           # merged: no per-burst intervals
    a, b = merge_intervals(starts, ends)
    assert (a.tolist(), b.tolist()) == ([0], [rows * row_bytes])
    # Leave out one column tile of one band: exactly its bursts go missing.
    keep = np.ones(n, dtype=bool)
    keep[5] = False
    starts, ends = write_intervals(offset[keep], np.full(n - 1, chunk * 4), np.full(n - 1, row_bytes), np.full(n - 1, band))
    covered = np.zeros(rows * row_bytes // 4, dtype=bool)
    for s, e in zip(starts // 4, ends // 4): covered[s:e] = True
    assert (~covered).sum() == chunk * band
