"""Raw GM writes: a kernel that stores its output through a raw `__gm__` pointer instead of the AscendC
copy API bypasses the instruction trace, and so the cost model. After an execute-mode run the
emulator compares every out / inout / workspace buffer with what API calls (DataCopy, DataCopyPad,
SetValue, InitGlobalMemory) wrote and reports `gm-raw-write` naming the buffer and the first offset.
Raw *reads* cannot be seen in execute mode; in trace mode GM is not mapped, so they fault
(`trace-raw-gm`, tested in test_emu_rules.py)."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, RunRules, Scalar, build, run

MISC = Path(__file__).parent / "emu_kernels" / "misc"


def test_output_written_through_a_raw_pointer_loop_is_caught():
    x = np.arange(1, 513, dtype=np.float32)
    r = run(build(MISC / "raw_write_output.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(512)], block_dim=4)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)          # the numbers are right; the route is not
    assert not r.ok and [d.kind for d in r.errors] == ["gm-raw-write"]
    d = r.errors[0]
    assert d.context["buffer"] == "y" and d.context["offset"] == 0 and "'y'" in d.message
    assert d.file == "raw_write_output.cpp" and d.hint
    # the run cannot say which store wrote 'y'; the diagnostic points at the kernel's raw __gm__ store, caret on its pointer
    assert d.line == 10 and "dst[i] = 2.0f * src[i]" in d.source_line and d.col == d.source_line.index("dst[i]") + 1
    assert "through 'dst'" in d.message


def test_the_first_raw_byte_is_named_when_only_a_tail_is_raw():
    x = np.arange(1, 257, dtype=np.float32)
    r = run(build(MISC / "raw_write_tail.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(256)], block_dim=1)
    assert [d.kind for d in r.errors] == ["gm-raw-write"]
    assert r.errors[0].context["offset"] == (256 - 8) * 4


def test_a_kernel_that_writes_only_through_the_api_is_not_flagged():
    x = np.arange(1, 257, dtype=np.float32)
    acc = np.full(8, 10.0, dtype=np.float32)
    r = run(build(MISC / "api_writes_only.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), GM("acc", acc, "inout"), Scalar(256)],
            block_dim=1)
    assert r.ok, r.diagnostics
    assert not [d for d in r.diagnostics if d.kind == "gm-raw-write"]
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert r.outputs["acc"][0] == 11.0 and (r.outputs["acc"][1:] == 10.0).all()


def test_one_raw_byte_inside_a_large_api_written_output_is_found():
    "The check skips fully API-written stretches a word of its bitmap at a time; one raw byte at an odd offset is still named."
    n = 1 << 16                                        # written by DataCopy but for the 32 bytes around element k
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    b = build(MISC / "raw_write_one_byte.cpp")
    for k in (0, 12345, n - 1):
        r = run(b, [GM("x", x), GM("y", None, "out", shape=(n,), dtype=np.float32), Scalar(n), Scalar(k)], block_dim=1)
        assert [d.kind for d in r.errors] == ["gm-raw-write"], r.diagnostics
        assert r.errors[0].context["offset"] == k * 4 + 1
        tile = slice(k // 8 * 8, k // 8 * 8 + 8)
        assert (r.outputs["y"][:tile.start] == x[:tile.start]).all() and (r.outputs["y"][tile.stop:] == x[tile.stop:]).all()


def test_outputs_map_the_kernels_file_and_can_be_written(tmp_path):
    "Run.outputs are writable arrays over the output file's pages: a write changes the array only, and a file the kernel "
    "shortened gives a shorter array (no fault); a symbolic link is refused."
    from ascendcraft.emu import _map_output
    data = np.arange(1000, dtype=np.float32)
    data.tofile(tmp_path / "y.bin")
    a = _map_output(tmp_path, "y.bin", np.float32)
    np.testing.assert_array_equal(a, data)
    a[3] = -1.0                                        # private: copy on write
    np.testing.assert_array_equal(np.fromfile(tmp_path / "y.bin", np.float32), data)
    (tmp_path / "y.bin").unlink()                      # the run folder is deleted after the run
    assert a[999] == 999.0 and a[3] == -1.0
    (tmp_path / "short.bin").write_bytes(data.tobytes()[:4 * 10 + 2])
    assert _map_output(tmp_path, "short.bin", np.float32).size == 10
    (tmp_path / "empty.bin").write_bytes(b"")
    assert _map_output(tmp_path, "empty.bin", np.float32).size == 0
    assert _map_output(tmp_path, "missing.bin", np.float32) is None
    (tmp_path / "link.bin").symlink_to(tmp_path / "short.bin")
    assert _map_output(tmp_path, "link.bin", np.float32) is None


def test_raw_bytes_are_found_around_whole_chunk_writes():
    "The check keeps a bit per 4 KiB chunk an API call wrote whole and byte bits only for the chunks written in part: a "
    "raw byte is found in a skipped tile that starts inside a chunk, in the short last tile and in the first copy; an "
    "honest run with the same layout is not flagged."
    n, head, tile = 3 * 2048 + 8 + 24, 8, 2048          # tiles of 8 KiB starting 32 bytes into a chunk, a 96-byte tail
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    b = build(MISC / "raw_write_big_tiles.cpp")
    for k in (3, head + 1000, head + 2048 + 1023, n - 1):
        r = run(b, [GM("x", x), GM("y", None, "out", shape=(n,), dtype=np.float32), Scalar(n), Scalar(k), Scalar(head), Scalar(tile)],
                block_dim=1)
        assert [d.kind for d in r.errors] == ["gm-raw-write"], (k, r.diagnostics)
        assert r.errors[0].context["offset"] == k * 4 + 1, k     # the rest of the skipped tile still holds the poison
    r = run(b, [GM("x", x), GM("y", None, "out", shape=(n,), dtype=np.float32), Scalar(n), Scalar(n), Scalar(head), Scalar(tile)],
            block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x)


def test_raw_gm_writes_warning_keeps_the_run_and_its_output():
    "CANN's kernels may store to GM through a raw pointer (the NPU's scalar unit does it): with RunRules(raw_gm_writes='warning') "
    "the run goes on, the output is what the kernel stored, and the report is a warning naming the buffer and offset."
    x = np.arange(1, 513, dtype=np.float32)
    b = build(MISC / "raw_write_output.cpp")
    r = run(b, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(512)], block_dim=4, rules=RunRules(raw_gm_writes="warning"))
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
    [d] = [d for d in r.diagnostics if d.kind == "gm-raw-write"]
    assert not d.is_error and d.context["buffer"] == "y" and d.context["offset"] == 0
    assert "modelled time leaves them out" in d.message


def test_the_run_rules_take_only_their_modes_and_name_their_two_sets():
    from dataclasses import replace

    import pytest
    from ascendcraft.emu import CHIP, JUDGE
    with pytest.raises(ValueError, match=r"raw_gm_writes must be one of \('error', 'warning'\), not 'off'"):
        RunRules(raw_gm_writes="off")
    with pytest.raises(ValueError, match="replace\\(CHIP, gm_padding=...\\)"):   # the message says how to change one rule
        replace(CHIP, gm_padding="cuda")
    assert JUDGE == RunRules() and JUDGE.name == "judge" and CHIP.name == "chip"
    assert replace(CHIP, ub_overrun="error").name == ("raw_gm_writes warning, ub_overrun error, vector_mask warning, "
                                                      "gm_padding torch_npu, extra_deque warning")
    # run's default is the judge's rules: the raw store that is a warning above stops the run
    x = np.arange(1, 65, dtype=np.float32)
    r = run(build(MISC / "raw_write_output.cpp"), [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(64)], block_dim=1)
    assert not r.ok and any(d.kind == "gm-raw-write" and d.severity == "error" for d in r.diagnostics)
