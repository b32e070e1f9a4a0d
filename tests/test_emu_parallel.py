"""Blocks in parallel (issue 17, setting `emu_threads`): a launch whose blocks cannot see each other's work runs on
several threads with the same outputs; anything whose result could depend on the blocks' order (a report, SyncAll,
atomic accumulation, blocks that share GM bytes, a crash) makes the runtime stop and the launch run again one block
at a time, so diagnostics, their order and the outputs are exactly the sequential ones."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, Workspace, build, emu_threads, run, trace

HERE = Path(__file__).parent / "emu_kernels"
HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'

# y[b*T:(b+1)*T] = x[...] + 1, each block on its own slice: order-free.
ADD_ONE = (Path(__file__).parent / "emu_kernels" / "misc" / "add_one.cpp").read_text()

# Block b > 0 reads the slice block b - 1 wrote, with no SyncAll: a running sum one after another, a race in
# parallel. (A bug on the NPU too, but the emulator must give the one-at-a-time answer every time.)
CHAIN = HEAD + r"""
extern "C" __global__ __aicore__ void chain(GM_ADDR x, GM_ADDR y, uint32_t tile)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, tile * sizeof(float));
    pipe.InitBuffer(b, tile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, tile * GetBlockNum());
    yGm.SetGlobalBuffer((__gm__ float *)y, tile * GetBlockNum());
    LocalTensor<float> s = a.Get<float>(), p = b.Get<float>();
    uint32_t me = GetBlockIdx() * tile;
    DataCopy(s, xGm[me], tile);
    if (GetBlockIdx() > 0) {
        DataCopy(p, yGm[me - tile], tile);
        PipeBarrier<PIPE_ALL>();
        Add(s, s, p, tile);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm[me], s, tile);
}
"""


def _settings(threads):
    return load_settings().replace(emu_threads=threads)


def _args(blocks, tile=64, x=None):
    x = np.arange(blocks * tile, dtype=np.float32) if x is None else x
    return [GM("x", x), GM("y", None, "out", shape=x.shape, dtype=np.float32), Scalar(tile)]


def test_the_default_is_this_machines_cores_and_the_setting_wins():
    import os
    assert emu_threads(load_settings().replace(emu_threads=0)) == len(os.sched_getaffinity(0))
    assert emu_threads(_settings(3)) == 3
    with pytest.raises(ValueError, match="emu_threads"):
        load_settings().replace(emu_threads=-1)


def test_independent_blocks_run_in_parallel_with_the_same_outputs():
    b = build({"add_one.cpp": ADD_ONE})
    one, four = (run(b, _args(16), block_dim=16, settings=_settings(t)) for t in (1, 4))
    assert one.ok and four.ok, (one.diagnostics, four.diagnostics)
    assert (one.threads, four.threads) == (1, 4)
    np.testing.assert_array_equal(four.outputs["y"], np.arange(16 * 64, dtype=np.float32) + 1)
    np.testing.assert_array_equal(four.outputs["y"], one.outputs["y"])
    assert four.ub_bytes_used == one.ub_bytes_used == [256] * 16
    t1, t4 = (trace(b, _args(16), block_dim=16, settings=_settings(t)) for t in (1, 4))
    assert np.array_equal(t1.records, t4.records)                         # block order kept in the trace


def test_a_block_reading_what_another_wrote_is_run_one_block_at_a_time():
    b = build({"chain.cpp": CHAIN})
    x = np.ones(8 * 64, np.float32)
    for _ in range(3):                                                    # a race would show now and then
        r = run(b, _args(8, x=x), block_dim=8, settings=_settings(4))
        assert r.ok and r.threads == 1, r.diagnostics
        np.testing.assert_array_equal(r.outputs["y"], np.repeat(np.arange(1, 9, dtype=np.float32), 64))


@pytest.mark.parametrize("name, blocks", [("gm_out_of_bounds", 4), ("gm_overlap", 2), ("segfault", 2),
                                          ("queue_leak", 3), ("syncall_mismatch", 2)])
def test_errors_are_exactly_the_sequential_ones(name, blocks):
    "The first error, its block and the blocks that finished before it, whatever thread got there first."
    b = build(HERE / "broken" / f"{name}.cpp")
    x = np.arange(4096, dtype=np.float32)
    args = [GM("x", x), GM("y", np.empty_like(x), "out")]
    one, many = (run(b, args, block_dim=blocks, settings=_settings(t)) for t in (1, 4))
    assert not one.ok and one.errors
    assert [d.render() for d in many.diagnostics] == [d.render() for d in one.diagnostics]
    assert [d.context.get("block") for d in many.errors] == [d.context.get("block") for d in one.errors]
    assert many.ub_bytes_used == one.ub_bytes_used and many.threads == 1


def test_syncall_and_atomic_accumulation_run_one_block_at_a_time():
    "Both results are the one-at-a-time ones to the last bit: the float sums are taken in block order."
    x = np.random.default_rng(1).standard_normal(4 * 256).astype(np.float32)
    r = run(build(HERE / "good" / "sum_syncall.cpp"),
            [GM("x", x), GM("y", np.empty(8, np.float32), "out"), Workspace(4 * 32), Scalar(x.size, "uint32_t")],
            block_dim=4, settings=_settings(4))
    assert r.ok and r.threads == 1, r.diagnostics
    assert r.outputs["y"][0] == pytest.approx(float(x.astype(np.float64).sum()), rel=1e-5)
    r = run(build(HERE / "good" / "atomic_bind.cpp"), [GM("x", x), GM("y", np.empty(256, np.float32), "out")],
            block_dim=4, settings=_settings(4))
    assert r.ok and r.threads == 1, r.diagnostics
    want = np.zeros(256, np.float32)
    for block in x.reshape(4, 256): want = want + block
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_large_inputs_are_written_in_slices_with_the_same_bytes(tmp_path):
    "A GM input over the threshold is written by several threads; the file holds exactly the array's bytes."
    from ascendcraft.emu import _PARALLEL_WRITE_BYTES, _write_input
    big = np.random.default_rng(2).standard_normal((3, _PARALLEL_WRITE_BYTES // 4 // 3 + 1001)).astype(np.float32)
    for array in (big, big.T, big[:, ::2], np.zeros(0, np.float32), np.arange(10, dtype=np.int16)):
        for threads in (1, 3):
            path = tmp_path / f"gm{threads}.bin"
            _write_input(path, array, threads)
            assert path.read_bytes() == np.ascontiguousarray(array).tobytes()
