"""GM files kept between runs (issue 17, setting `gm_keep_mb`): a build's next run writes over its last run's GM files
instead of creating new ones; nothing of an earlier run shows through, and an output array still alive is never
written over."""
from pathlib import Path

import numpy as np

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'

# y[b*T:(b+1)*T] = x[...] + 1, each block on its own slice
ADD_ONE = (Path(__file__).parent / "emu_kernels" / "misc" / "add_one.cpp").read_text()
TILE, N = 64, 512


def _run(b, x, blocks, settings=None):
    return run(b, [GM("x", x), GM("y", None, "out", shape=(N,), dtype=np.float32), Scalar(TILE)], block_dim=blocks,
               settings=settings)


def test_later_runs_reuse_the_files_and_see_nothing_of_earlier_runs():
    b = build({"k.cpp": ADD_ONE})
    assert b.ok, b.diagnostics
    x1 = np.arange(N, dtype=np.float32)
    r = _run(b, x1, N // TILE)                       # writes every byte of y
    assert r.ok and np.array_equal(r.outputs["y"], x1 + 1)
    del r                                            # its output array is gone: the file is free again
    x2 = np.full(N, 7, np.float32)
    r = _run(b, x2, N // TILE // 2)                  # writes the first half of y only
    assert r.ok, r.diagnostics
    assert b.gm_files.placed == 2                    # the input and the output file were both reused
    y = r.outputs["y"]
    assert np.array_equal(y[:N // 2], x2[:N // 2] + 1)
    assert (y[N // 2:].view(np.uint8) == 0xA5).all()  # the poison, not the first run's x1 + 1


def test_an_output_array_still_alive_is_never_written_over():
    b = build({"k.cpp": ADD_ONE})
    x1, x2 = np.arange(N, dtype=np.float32), -np.arange(N, dtype=np.float32)
    first = _run(b, x1, N // TILE)
    view = first.outputs["y"][::2]                   # a view keeps the mapping alive as well
    second = _run(b, x2, N // TILE)
    third = _run(b, x1 * 3, N // TILE)
    assert np.array_equal(first.outputs["y"], x1 + 1) and np.array_equal(view, (x1 + 1)[::2])
    assert np.array_equal(second.outputs["y"], x2 + 1) and np.array_equal(third.outputs["y"], x1 * 3 + 1)
    del first
    fourth = _run(b, x2 * 5, N // TILE)
    assert np.array_equal(view, (x1 + 1)[::2]) and np.array_equal(fourth.outputs["y"], x2 * 5 + 1)


def test_keeping_is_off_at_zero_and_bounded_by_the_setting():
    b = build({"k.cpp": ADD_ONE})
    x = np.arange(N, dtype=np.float32)
    off = load_settings().replace(gm_keep_mb=0)
    for _ in range(2): assert _run(b, x, N // TILE, off).ok
    assert b.gm_files is None
    r = _run(b, x, N // TILE)
    assert 0 < b.gm_files.kept_bytes() <= b.gm_files.limit
    assert b.gm_files.kept_bytes() == 2 * N * 4      # the input and the output (still held by r)


# y = x * 2 over `total` floats, each block a contiguous part in 8192-float tiles
DOUBLE = HEAD + r"""
extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, uint32_t total)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192 * sizeof(float));
    uint32_t per = total / GetBlockNum();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + per * GetBlockIdx(), per);
    yGm.SetGlobalBuffer((__gm__ float *)y + per * GetBlockIdx(), per);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t off = 0; off < per; off += 8192) {
        DataCopy(t, xGm[off], 8192);
        PipeBarrier<PIPE_ALL>();
        Muls(t, t, 2.0f, 8192);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[off], t, 8192);
        PipeBarrier<PIPE_ALL>();
    }
}
"""


def test_a_large_input_changed_in_one_element_is_written_again():
    "A kept input file is written again on every run: an array changed in place in one element is seen."
    b = build({"k.cpp": DOUBLE})
    assert b.ok, b.diagnostics
    n = 1 << 22                                      # 16 MiB of floats
    x = np.arange(n, dtype=np.float32)
    args = lambda x: [GM("x", x), GM("y", None, "out", shape=(n,), dtype=np.float32), Scalar(n)]
    assert np.array_equal(run(b, args(x), block_dim=8).outputs["y"], x * 2)
    assert np.array_equal(run(b, args(x), block_dim=8).outputs["y"], x * 2)      # the same bytes again
    x[n // 2 + 3] = -1.0                              # changed in place, in one element
    y = run(b, args(x), block_dim=8).outputs["y"]
    assert y[n // 2 + 3] == -2.0 and np.array_equal(y, x * 2)
    assert b.gm_files.placed >= 4


def test_a_large_output_is_poisoned_to_its_last_byte_on_one_thread_and_on_two():
    "Outputs of 1 MiB and more are poisoned with streaming stores (runtime fill_bytes): same bytes, odd lengths too."
    b = build({"k.cpp": ADD_ONE})
    tile, n = 8192, 3_000_001                        # 12 MB + 4 bytes: neither slice a multiple of 64 bytes
    x = np.arange(2 * tile, dtype=np.float32)
    for threads, poison in ((1, 0x5A), (2, 0xC3)):
        r = run(b, [GM("x", x), GM("y", None, "out", shape=(n,), dtype=np.float32), Scalar(tile)], block_dim=2,
                poison=poison, settings=load_settings().replace(emu_threads=threads, gm_keep_mb=0))
        assert r.ok, r.diagnostics
        y = r.outputs["y"]
        assert np.array_equal(y[:2 * tile], x + 1)
        assert (y[2 * tile:].view(np.uint8) == poison).all(), threads


def test_kept_input_files_are_written_through_mappings_kept_with_them():
    "From its second write on, a kept input file is written through this process's own mapping of it, kept with the file."
    b = build({"k.cpp": ADD_ONE})
    writers = []
    for k in range(1, 6):
        x = np.arange(N, dtype=np.float32) * k
        r = _run(b, x, N // TILE)
        assert r.ok and np.array_equal(r.outputs["y"], x + 1), r.diagnostics   # the kernel read what went through the mapping
        del r
        writers.append({key: id(m) for key, m in b.gm_files._writers.items()})
    assert writers[0] == {} and writers[1]                      # a new file is written with pwrite, a kept one mapped
    assert len(writers[-1]) <= 2                                # at most one per kept file (two: x and y)
    assert set(writers[-1].items()) <= set(writers[-2].items()) | set(writers[-3].items())   # reused, not made again
    for path, _ in list(b.gm_files._free):                     # files that are gone (a kernel could delete them)
        path.unlink()
    b.gm_files._free.clear()
    b.gm_files.prune()
    assert b.gm_files._writers == {}                            # no mapping holds the pages of a deleted file
