"""The emulator's rule checks and its isolation: every deliberately broken kernel in
tests/emu_kernels/broken/ produces its specific diagnostic kind at the line marked `EXPECT: <kind>`;
crashes, hangs, runaway memory and floods of output come back as diagnostics while the test
process carries on; uninitialised UB shows up under two poison patterns; and the good kernels pass
ASan + UBSan with recovery disabled."""
import re
import time
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run, trace

HERE = Path(__file__).parent / "emu_kernels"
BROKEN = sorted((HERE / "broken").glob("*.cpp"))


def expectation(path: Path) -> tuple[str, int, int, float | None]:
    "(kind, line, blocks, timeout) from the EXPECT / BLOCKS / TIMEOUT comments of a broken kernel."
    text = path.read_text()
    marks = [(m[1], i + 1) for i, line in enumerate(text.splitlines()) if (m := re.search(r"EXPECT: ([\w-]+)", line))]
    assert len(marks) == 1, f"{path.name} must mark exactly one line with EXPECT: <kind>"
    blocks = int(m[1]) if (m := re.search(r"BLOCKS: (\d+)", text)) else 2
    timeout = float(m[1]) if (m := re.search(r"TIMEOUT: (\d+)", text)) else None
    return marks[0][0], marks[0][1], blocks, timeout


def standard_args():
    x = np.arange(4096, dtype=np.float32)
    return [GM("x", x), GM("y", np.empty_like(x), "out")]


def test_there_are_at_least_15_broken_kernels_with_distinct_kinds():
    kinds = {expectation(p)[0] for p in BROKEN}
    assert len(BROKEN) >= 15 and len(kinds) >= 15


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_kernel_reports_its_kind_at_its_line(path):
    kind, line, blocks, timeout = expectation(path)
    b = build({path.name: path.read_text()})
    if kind.startswith("compile"):
        assert not b.ok
        found = b.errors[0]
    else:
        assert b.ok, "\n".join(map(str, b.diagnostics))
        settings = load_settings().replace(run_timeout=timeout) if timeout else None
        t0 = time.perf_counter()
        r = run(b, standard_args(), block_dim=blocks, settings=settings)
        if timeout: assert time.perf_counter() - t0 < timeout + 5
        assert not r.ok and r.errors, f"{path.name} ran clean"
        found = r.errors[0]
        assert found.context.get("block") is not None and found.context["block"] >= 0 or kind == "syncall-mismatch"
    assert (found.kind, found.file, found.line) == (kind, path.name, line), str(found)
    assert found.message and found.source_line.strip() == path.read_text().splitlines()[line - 1].strip()
    if not kind.startswith(("compile", "timeout", "crash")):
        assert found.hint, f"{kind} has no hint"


def test_first_error_stops_the_run_and_names_the_block():
    path = HERE / "broken" / "gm_out_of_bounds.cpp"
    r = run(build(path), standard_args(), block_dim=4)
    assert [d.kind for d in r.errors] == ["gm-out-of-bounds"]
    # blocks 0..2 read inside x (offsets 1032 * block); block 3 reaches past the end
    assert r.errors[0].context["block"] == 3 and r.errors[0].context["buffer"] == "x"
    assert r.ub_bytes_used == [4096] * 3                                  # three blocks finished before it


def test_crash_and_hang_come_back_as_diagnostics_and_the_caller_carries_on():
    crash = run(build(HERE / "broken" / "segfault.cpp"), standard_args(), block_dim=2)
    assert [d.kind for d in crash.errors] == ["crash"] and crash.returncode < 0
    assert "SIGSEGV" in crash.errors[0].message or "SIGILL" in crash.errors[0].message
    t0 = time.perf_counter()
    hang = run(build(HERE / "broken" / "infinite_loop.cpp"), standard_args(), block_dim=2,
               settings=load_settings().replace(run_timeout=1.0))
    assert time.perf_counter() - t0 < 6
    assert [d.kind for d in hang.errors] == ["timeout"]
    # the process is fine: the next kernel runs normally
    ok = run(build(HERE / "good" / "uninit_read.cpp"), standard_args()[:1] + [GM("y", np.empty(4096, np.float32), "out")], block_dim=2)
    assert ok.ok


def test_the_run_time_limit_grows_with_the_runs_gm_bytes(monkeypatch):
    "run_timeout covers a run over 1 GiB of GM; a full-shape run over more gets as many times as long (CPU: twice that)."
    from ascendcraft import sandbox
    s = load_settings().replace(run_timeout=120.0)
    assert sandbox.run_seconds(s, 100) == sandbox.run_seconds(s, 1 << 30) == 120.0 and sandbox.run_seconds(s, 4 << 30) == 480.0
    limits = sandbox.run_limits(s, 8 << 30)
    assert (limits.wall, limits.cpu) == (960.0, 1925)
    monkeypatch.setattr(sandbox, "RUN_TIMEOUT_GM_BYTES", 8192)   # standard_args hold 32 KiB of GM: 4 x run_timeout
    t0 = time.perf_counter()
    hang = run(build(HERE / "broken" / "infinite_loop.cpp"), standard_args(), block_dim=2,
               settings=load_settings().replace(run_timeout=0.5))
    took = time.perf_counter() - t0
    assert [d.kind for d in hang.errors] == ["timeout"] and 1.9 < took < 12, took
    assert "did not finish within 2 s" in hang.errors[0].message


def test_runaway_memory_is_stopped_by_the_limit():
    b = build(HERE / "misc" / "memory_hog.cpp")
    r = run(b, standard_args(), block_dim=1, settings=load_settings().replace(run_memory_mb=256, run_timeout=20))
    assert [d.kind for d in r.errors] == ["out-of-memory"], r.errors


def test_huge_output_is_truncated_with_a_marker():
    r = run(build(HERE / "misc" / "chatty.cpp"), standard_args(), block_dim=1)
    assert r.ok
    assert "bytes of output truncated" in r.stdout and len(r.stdout) < 200_000
    assert r.stdout.startswith("block 0 line 0:") and r.stdout.rstrip().endswith("line 199999: the quick brown fox jumps over the lazy dog")


def test_uninitialised_ub_changes_the_output_between_poison_patterns():
    b = build(HERE / "good" / "uninit_read.cpp")
    x = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    runs = [run(b, [GM("x", x), GM("y", np.empty_like(x), "out")], block_dim=2, poison=p) for p in (0x00, 0x3F)]
    for r in runs:
        assert r.ok
        notes = [d for d in r.diagnostics if d.kind == "ub-uninitialised"]
        assert len(notes) == 1 and notes[0].severity == "note" and "Muls" in notes[0].source_line
    a, c = (r.outputs["y"].reshape(2, 128) for r in runs)
    np.testing.assert_array_equal(a[:, :64], x.reshape(2, 128)[:, :64] * 2)   # the loaded half is right in both
    assert not np.array_equal(a[:, 64:], c[:, 64:])                             # the rest follows the poison


def test_trace_mode_reports_raw_gm_access():
    with pytest.raises(Exception) as e:
        trace(build(HERE / "broken" / "raw_write_input.cpp"),
              [GM("x", None, "in", shape=(4096,), dtype=np.float32), GM("y", None, "out", shape=(4096,), dtype=np.float32)], block_dim=1)
    assert e.value.kinds == ["trace-raw-gm"]


GOOD_FOR_SANITIZERS = ["add_custom", "softmax_rows", "sum_syncall", "pad_rows", "square_fp16", "bf16_strided", "level0_select",
                       "msopgen_host_tiling", "axpy_tiling_gm", "leaky_relu_scalars", "gather_activations"]


def test_good_kernels_pass_asan_and_ubsan():
    import test_emu_kernels as good
    cases = {c.__name__[5:]: c for c in good.CASES}
    for name in GOOD_FOR_SANITIZERS:
        source, args, launch, want, rtol = cases[name]()
        b = build(good.KERNELS / source, sanitize=True)
        assert b.ok and b.sanitize and "-fsanitize=address,undefined" in b.command, b.diagnostics
        r = run(b, args, **launch)
        assert r.ok, (name, r.diagnostics, r.stderr[-2000:])
        good.check_outputs(r, want, rtol)


def test_sanitizers_find_a_raw_out_of_bounds_write():
    b = build(HERE / "broken" / "segfault.cpp", sanitize=True)
    r = run(b, standard_args(), block_dim=1)
    assert [d.kind for d in r.errors] == ["sanitizer"]
    assert r.errors[0].message.startswith(("ASan:", "UBSan:"))
    assert (r.errors[0].file, r.errors[0].line) == ("segfault.cpp", 10)


def test_the_uninitialised_note_names_the_first_unwritten_byte():
    "UB bytes written are a bitmap: the first unwritten byte is found inside a 64-bit word, on a word boundary and past "
    "written words; a read of UB written in two pieces with no hole has no note."
    b = build(HERE / "good" / "uninit_hole.cpp")
    x = np.random.default_rng(4).standard_normal(512).astype(np.float32)
    for a in (8, 16, 24, 200, 496):
        r = run(b, [GM("x", x), GM("y", None, "out", shape=(512,), dtype=np.float32), Scalar(a)], block_dim=1)
        notes = [d for d in r.diagnostics if d.kind == "ub-uninitialised"]
        assert r.ok and len(notes) == 1, (a, r.diagnostics)
        assert f"byte {a * 4} of the tensor" in notes[0].message, (a, notes[0].message)
        keep = np.r_[0:a, a + 8:512]
        np.testing.assert_array_equal(r.outputs["y"][keep], 2 * x[keep])
    r = run(b, [GM("x", x), GM("y", None, "out", shape=(512,), dtype=np.float32), Scalar(512)], block_dim=1)
    assert r.ok and not [d for d in r.diagnostics if d.kind == "ub-uninitialised"], r.diagnostics


GATHER_READS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void gather_reads(GM_ADDR x, GM_ADDR idx, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, ob, db;
    pipe.InitBuffer(ab, 128 * sizeof(float));
    pipe.InitBuffer(ob, 64 * sizeof(uint32_t));
    pipe.InitBuffer(db, 64 * sizeof(float));
    GlobalTensor<float> xg, yg;
    GlobalTensor<uint32_t> ig;
    xg.SetGlobalBuffer((__gm__ float *)x, 128);
    ig.SetGlobalBuffer((__gm__ uint32_t *)idx, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> a = ab.Get<float>(), d = db.Get<float>();
    LocalTensor<uint32_t> off = ob.Get<uint32_t>();
    DataCopy(a, xg, LOADED);
    DataCopy(off, ig, 64);
    PipeBarrier<PIPE_ALL>();
    Gather(d, a, off, 0, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d, 64);
}
'''


@pytest.mark.parametrize("loaded", [128, 64])
def test_gather_checks_every_lane_it_reads_for_initialised_ub(loaded):
    """Gather reads src at the offsets' lanes: with all of src loaded it matches NumPy with no note (the per-lane checks
    are skipped where the whole of src and srcOffset is written); with half of it loaded, the lanes that read the other
    half give the ub-uninitialised note at the Gather, and only those lanes follow the poison."""
    b = build({"gather_reads.cpp": f"#define LOADED {loaded}\n" + GATHER_READS})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.random.default_rng(5).standard_normal(128).astype(np.float32)
    idx = np.random.default_rng(6).permutation(128)[:64].astype(np.uint32)
    runs = [run(b, [GM("x", x), GM("idx", idx * 4), GM("y", np.empty(64, np.float32), "out")], block_dim=1, poison=p)
            for p in (0x00, 0x3F)]
    inside = idx < loaded
    assert 0 < inside.sum() < 64 or loaded == 128
    for r in runs:
        assert r.ok, [d.render() for d in r.errors]
        notes = [d for d in r.diagnostics if d.kind == "ub-uninitialised"]
        if loaded == 128:
            assert notes == []
        else:
            assert len(notes) == 1 and "Gather" in notes[0].source_line and "the src operand" in notes[0].message
        np.testing.assert_array_equal(r.outputs["y"][inside], x[idx[inside]])
    if loaded < 128: assert not np.array_equal(runs[0].outputs["y"][~inside], runs[1].outputs["y"][~inside])


@pytest.mark.parametrize("lane,offset,kind,text", [(3, 6, "ub-misaligned", "srcOffset[3] = 6 bytes is not a multiple"),
                                                   (5, 512, "ub-out-of-range", "srcOffset[5] = 512 bytes points past")])
def test_gather_stops_at_the_first_bad_offset(lane, offset, kind, text):
    "A misaligned or out-of-range srcOffset stops the run at its lane, with src and srcOffset all written (the tight loop)."
    b = build({"gather_reads.cpp": "#define LOADED 128\n" + GATHER_READS})
    idx = np.arange(64, dtype=np.uint32) * 4
    idx[lane] = offset
    r = run(b, [GM("x", np.ones(128, np.float32)), GM("idx", idx), GM("y", np.empty(64, np.float32), "out")], block_dim=1)
    assert [d.kind for d in r.errors] == [kind] and text in r.errors[0].message, [d.render() for d in r.errors]
    assert "Gather(d, a, off, 0, 64)" in r.errors[0].source_line
