"""Traces are kept in the build cache by content (`emu.trace_key`): timing an unchanged kernel again (the workbench's
Time after a reload, a variant compared twice, the same task in two runs) runs nothing, and anything the trace can
depend on gives a trace of its own. A kept trace that fails its seal is recorded again."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft import emu
from ascendcraft.cache_trim import cache_entries
from ascendcraft.config import load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.seal import KEY_FILE
from ascendcraft.emu import GM, Scalar, build, trace

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "leaky_relu_scalars.cpp"


def args(n: int = 4096, tile: int = 512, alpha: float = 0.2):
    return [GM("x", None, "in", shape=(n,), dtype=np.float32), GM("y", None, "out", shape=(n,), dtype=np.float32),
            Scalar(n, "uint32_t"), Scalar(alpha, "float"), Scalar(tile, "int32_t")]


@pytest.fixture(scope="module")
def machine_builds():
    "The kernel built in the machine's cache (with the runtime library and the precompiled header it needs)."
    assert build(KERNEL).ok
    return load_settings().cache_path


@pytest.fixture
def cache(machine_builds, tmp_path, monkeypatch):
    """A cache of the test's own for traces, with the machine's builds, runtime library, headers and seal key linked in
    (as tests/_cache.py's share_builds does, but for emu/traces)."""
    cache = tmp_path / "cache"
    (cache / "emu").mkdir(parents=True)
    (cache / KEY_FILE.parent).symlink_to(machine_builds / KEY_FILE.parent, target_is_directory=True)
    for part in (machine_builds / "emu").iterdir():
        if part.name != "traces": (cache / "emu" / part.name).symlink_to(part)
    monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(cache))
    return cache


def records(t) -> bytes:
    return np.ascontiguousarray(t.records).tobytes()


def test_the_same_kernel_and_launch_is_traced_once(cache, monkeypatch):
    b = build(KERNEL)
    launches = []
    real = emu._launch
    monkeypatch.setattr(emu, "_launch", lambda *a, **k: launches.append(k.get("mode")) or real(*a, **k))
    first = trace(b, args(), block_dim=4)
    again = trace(b, args(), block_dim=4)
    assert launches == ["trace"] and "cached" not in first.meta and again.meta["cached"] is True
    assert records(again) == records(first) and again.block_dim == first.block_dim and again.op_names == first.op_names
    assert again.meta["seconds"] == first.meta["seconds"] and again.meta["notes"] == first.meta["notes"]
    assert [e.path.parent.parent.name for e in cache_entries(cache / "emu")].count("traces") == 1   # trimmed like builds
    [kept] = [e.path for e in cache_entries(cache / "emu") if e.path.parent.parent.name == "traces"]
    before = (kept / "entry.json").stat()
    sealed = []
    real_seal = emu.seal.seal_file
    monkeypatch.setattr(emu.seal, "seal_file", lambda *a, **k: sealed.append(a[0]) or real_seal(*a, **k))
    trace(b, args(), block_dim=4, reuse=False)                      # a benchmark of trace mode: recorded afresh
    assert launches == ["trace", "trace"] and sealed == []          # its records not copied and sealed again
    after = (kept / "entry.json").stat()                            # and the entry kept as it was, not stored again
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


@pytest.mark.parametrize("change", ["shape", "scalar", "float scalar", "blocks", "ub", "kernel"])
def test_what_a_trace_depends_on_gives_a_trace_of_its_own(cache, change, tmp_path):
    b = build(KERNEL)
    base = trace(b, args(), block_dim=4)
    other = dict(shape=lambda: trace(b, args(n=8192), block_dim=4),
                 scalar=lambda: trace(b, args(tile=256), block_dim=4),
                 **{"float scalar": lambda: trace(b, args(alpha=0.3), block_dim=4)},
                 blocks=lambda: trace(b, args(), block_dim=2),
                 ub=lambda: trace(b, args(), block_dim=4, ub_bytes=65536),
                 kernel=lambda: trace(build({"k.cpp": KERNEL.read_text() + "\n// another build\n"}, "leaky_relu"),
                                      args(), block_dim=4))[change]()
    assert "cached" not in other.meta
    if change in ("shape", "scalar", "blocks"): assert records(other) != records(base)


def test_a_kept_trace_that_fails_its_seal_is_recorded_again(cache):
    b = build(KERNEL)
    first = trace(b, args(), block_dim=4)
    [kept] = [e.path for e in cache_entries(cache / "emu") if e.path.parent.parent.name == "traces"]
    data = bytearray((kept / "trace.bin").read_bytes())
    data[-1] ^= 0xFF                                                 # a record changed behind the cache's back
    (kept / "trace.bin").write_bytes(bytes(data))
    again = trace(b, args(), block_dim=4)
    assert "cached" not in again.meta and records(again) == records(first)
    third = trace(b, args(), block_dim=4)                            # the recording replaced the spoilt entry
    assert third.meta["cached"] is True and records(third) == records(first)


def test_a_trace_that_fails_is_not_kept(cache):
    b = build(Path(__file__).parent / "emu_kernels" / "broken" / "gm_out_of_bounds.cpp")
    for _ in range(2):
        with pytest.raises(AscendCraftError) as e:
            trace(b, [GM("x", None, "in", shape=(4096,), dtype=np.float32), GM("y", None, "out", shape=(4096,), dtype=np.float32)],
                  block_dim=4)
        assert e.value.kinds == ["gm-out-of-bounds"]
    assert not [e for e in cache_entries(cache / "emu") if e.path.parent.parent.name == "traces"]
