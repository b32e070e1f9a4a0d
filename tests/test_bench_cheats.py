"""The harness's self-test: every cheating kernel in tests/cheats/ is caught, each by its own verdict.

Each cheat is a hand-edited AscendC variant of the lowered relu kernel (see tests/cheats/README.md).
They all run through the benchmark's own path — `plan` + `execute`: one task process each, the
honesty scan, verification on the emulator under two poisons, and (where asked) the full-shape
trace — two at a time. The test fails if the harness passes any of them.
"""
import json
import os
import shutil
import tomllib
from pathlib import Path

import pytest

from ascendcraft import emu
from ascendcraft.bench import Progress, execute, plan
from ascendcraft.config import load_settings
from ascendcraft.emu import read_sources
from ascendcraft.report import RESULT_FILE, TaskResult
from ascendcraft.taskset import registry

CHEATS = Path(__file__).resolve().parent / "cheats"
MANIFEST = tomllib.loads((CHEATS / "cheats.toml").read_text())


def kernels_folder(root: Path, name: str, entry: dict) -> Path:
    "A kernels folder like examples/: activation/relu.py plus activation/relu.ascendc/<the cheat's files>."
    folder = root / "kernels" / name
    (folder / "activation").mkdir(parents=True)
    shutil.copy(CHEATS / "relu.py", folder / "activation" / "relu.py")
    shutil.copytree(CHEATS / entry.get("kernel", name), folder / "activation" / "relu.ascendc")
    return folder


@pytest.fixture(scope="module")
def caught(tmp_path_factory):
    "Run every cheat through the harness; return {name: TaskResult}."
    root = tmp_path_factory.mktemp("cheats")
    relu = registry(tasks=["relu"])
    base = load_settings().replace(trials=2)
    specs = {}
    for name, entry in MANIFEST.items():
        settings = base.replace(run_timeout=float(entry.get("run_timeout", 20)))
        spec, = plan(list(relu), kernels_folder(root, name, entry), root / "out" / name, size="small",
                     timing=bool(entry.get("timing", False)), source="expert", settings=settings,
                     task_timeout=float(entry.get("task_timeout", 300)))
        specs[name] = spec
    results = execute(list(specs.values()), jobs=2, progress=Progress(len(specs), enabled=False))
    return dict(zip(specs, results)), specs


@pytest.mark.parametrize("name", list(MANIFEST))
def test_cheat_is_caught(caught, name):
    results, specs = caught
    result, want = results[name], MANIFEST[name]
    assert result.status != "ok" and not result.correct, f"the harness PASSED the cheat {name}: {want['why']}"
    assert (result.status, result.detail) == (want["status"], want["detail"]), \
        f"{name} ({want['why']}) was caught as {result.status}/{result.detail}: {result.message}"
    kinds = {d["kind"] for d in result.diagnostics}
    assert set(want.get("also", [])) <= kinds, f"{name}: expected findings {want.get('also')}, got {sorted(kinds)}"
    folder = Path(specs[name].folder)
    assert (folder / RESULT_FILE).exists() and (folder / result.log).exists(), f"{name}: no log {result.log}"
    assert TaskResult.from_dict(json.loads((folder / RESULT_FILE).read_text())) == result


def test_cheat_verdicts_are_distinct(caught):
    "Different cheats are told apart: the manifest's verdicts are what the harness reported."
    results, _ = caught
    verdicts = {(r.status, r.detail) for r in results.values()}
    assert len(verdicts) >= 10


def test_honesty_findings_name_rule_and_line(caught):
    results, _ = caught
    for name in ("static_cache", "raw_pointer_fallback", "host_compute", "file_cache"):
        first = results[name].diagnostics[0]
        assert first["kind"] == results[name].detail
        assert ":" in first["where"] and first["where"].split(":")[1].isdigit(), first
        assert "^" in first["text"] or "|" in first["text"]          # rendered with the source line


def test_hang_past_task_limit_kills_the_emulator(caught):
    "The harness killed the whole process tree, the emulator's child (in its own session) included."
    results, specs = caught
    assert results["hang_past_task_limit"].status == "timeout"
    folder = Path(specs["hang_past_task_limit"].folder) / "pipeline" / "04_align"
    files = {k: v for k, v in read_sources(folder).items() if k.endswith((".cpp", ".h"))}
    binary = emu.build(files, entry="relu_custom").binary
    running = []
    inode = (os.stat(binary).st_dev, os.stat(binary).st_ino)   # the sandbox runs it from a read-only bind: same file
    for exe in Path("/proc").glob("[0-9]*/exe"):
        try:
            st = os.stat(exe)
            if os.readlink(exe) == str(binary) or (st.st_dev, st.st_ino) == inode: running.append(exe.parent.name)
        except OSError:
            pass
    assert not running, f"emulator processes of the hung kernel survived: {running}"


def test_wrapped_output_is_caught_by_exact_coverage(caught):
    "The wrapped kernel writes exactly the output's byte count; only the per-byte coverage of the trace catches it."
    results, _ = caught
    message = results["wrapped_output"].message
    assert "bytes are never written" in message and "over bytes it had already written" in message, message
