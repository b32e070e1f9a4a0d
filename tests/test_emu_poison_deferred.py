"""Deferred poison: an out buffer's poison is written only where it is needed (emu_main.cpp, "Deferred poison"). The
kernel's range of the buffer stays unmapped while API writes land in a second mapping of the file; an API read of bytes
no API call wrote, atomic accumulation, or a raw pointer access makes the poison real first. These tests pin what a
kernel sees: exactly what it saw when the whole buffer was poisoned before the blocks ran."""
import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'
N, BLOCKS = 1024, 8

# writes its output, reads it back through DataCopy and writes it again: every byte read was written first
READ_BACK = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, n * 4); pipe.InitBuffer(b, n * 4);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x + n * GetBlockIdx(), n);
    yg.SetGlobalBuffer((__gm__ float *)y + n * GetBlockIdx(), n);
    LocalTensor<float> la = a.Get<float>(), lb = b.Get<float>();
    DataCopy(la, xg, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, la, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(lb, yg, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lb, n);
}
'''
# copies the second half of its output (never written) into the first half: through DataCopy, or a raw pointer
READ_UNWRITTEN = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, n * 4);
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y + 2 * n * GetBlockIdx(), 2 * n);
    LocalTensor<float> la = a.Get<float>();
    DataCopy(la, yg[n], n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, la, n);
}
'''
RAW_READ_UNWRITTEN = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, n * 4);
    __gm__ float *yp = (__gm__ float *)y + 2 * n * GetBlockIdx();
    LocalTensor<float> la = a.Get<float>();
    for (uint32_t i = 0; i < n; ++i) la.SetValue(i, yp[n + i]);
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(yp, 2 * n);
    DataCopy(yg, la, n);
}
'''
# accumulates x into an output nothing wrote before: the sum starts from the poison
ATOMIC_ONTO_POISON = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, n * 4);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x + n * GetBlockIdx(), n);
    yg.SetGlobalBuffer((__gm__ float *)y + n * GetBlockIdx(), n);
    LocalTensor<float> la = a.Get<float>();
    DataCopy(la, xg, n);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(yg, la, n);
    SetAtomicNone();
}
'''
# writes the first half of its output, then reads past the end of its input: the run stops with an error
FAILS_HALFWAY = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, n * 4);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, 2 * n);
    LocalTensor<float> la = a.Get<float>();
    DataCopy(la, xg, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, la, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(la, xg[n], n);
}
'''
# writes the first half of its output, then crashes (a null pointer store)
CRASHES_HALFWAY = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> a;
    pipe.InitBuffer(a, n * 4);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, 2 * n);
    LocalTensor<float> la = a.Get<float>();
    DataCopy(la, xg, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, la, n);
    PipeBarrier<PIPE_ALL>();
    volatile float *nowhere = nullptr;
    *nowhere = 1.0f;
}
'''


def _poison_float(byte: int) -> np.float32:
    return np.frombuffer(bytes([byte] * 4), np.float32)[0]


@pytest.fixture(scope="module")
def x():
    return np.random.default_rng(0).standard_normal(N * BLOCKS).astype(np.float32)


@pytest.mark.parametrize("threads", [1, 2])
def test_reading_back_what_the_kernel_wrote_needs_no_poison_and_stays_parallel(x, threads):
    r = run(build({"k.cpp": READ_BACK}), [GM("x", x), GM("y", None, "out", shape=x.shape, dtype=np.float32), Scalar(N)],
            block_dim=BLOCKS, settings=load_settings().replace(emu_threads=threads))
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert r.threads == threads          # no rerun one block at a time: every byte read had been written


@pytest.mark.parametrize("source", [READ_UNWRITTEN, RAW_READ_UNWRITTEN], ids=["datacopy", "raw-pointer"])
@pytest.mark.parametrize("threads", [1, 2])
def test_unwritten_output_bytes_read_as_the_poison(x, source, threads):
    b = build({"k.cpp": source})
    for poison in (0xA5, 0x3C):
        r = run(b, [GM("x", x), GM("y", None, "out", shape=(2 * N * BLOCKS,), dtype=np.float32), Scalar(N)], block_dim=BLOCKS,
                poison=poison, settings=load_settings().replace(emu_threads=threads))
        assert not r.errors, r.diagnostics
        y = r.outputs["y"].view(np.uint8)
        assert (y == poison).all()       # the copied half and the never-written half alike
        assert r.threads == 1            # blocks in parallel: the poison is made real one block at a time


def test_a_half_written_output_holds_the_poison_elsewhere(x):
    r = run(build({"k.cpp": READ_BACK}), [GM("x", x), GM("y", None, "out", shape=(2 * x.size,), dtype=np.float32), Scalar(N)],
            block_dim=BLOCKS, poison=0x3C, settings=load_settings().replace(emu_threads=2))
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:x.size], x)
    assert (r.outputs["y"][x.size:].view(np.uint8) == 0x3C).all()


@pytest.mark.parametrize("threads", [1, 2])
def test_atomic_accumulation_starts_from_the_poison(x, threads):
    r = run(build({"k.cpp": ATOMIC_ONTO_POISON}), [GM("x", x), GM("y", None, "out", shape=x.shape, dtype=np.float32), Scalar(N)],
            block_dim=BLOCKS, poison=0x3C, settings=load_settings().replace(emu_threads=threads))
    assert not r.errors, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x + _poison_float(0x3C))


def test_a_run_that_stops_with_an_error_leaves_the_poison_where_nothing_was_written(x):
    r = run(build({"k.cpp": FAILS_HALFWAY}), [GM("x", x[:N]), GM("y", None, "out", shape=(2 * N,), dtype=np.float32), Scalar(N)],
            block_dim=1, poison=0x3C)
    assert [d.kind for d in r.errors] == ["gm-out-of-bounds"], r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:N], x[:N])
    assert (r.outputs["y"][N:].view(np.uint8) == 0x3C).all()


def test_a_run_that_crashes_leaves_the_poison_where_nothing_was_written(x):
    r = run(build({"k.cpp": CRASHES_HALFWAY}), [GM("x", x[:N]), GM("y", None, "out", shape=(2 * N,), dtype=np.float32), Scalar(N)],
            block_dim=1, poison=0x3C)
    assert r.errors and not r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"][:N], x[:N])
    assert (r.outputs["y"][N:].view(np.uint8) == 0x3C).all()
