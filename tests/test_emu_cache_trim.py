"""The emulator's cache stays under `build_cache_mb` with real builds (nbs/10_emu_cache.ipynb has the rule itself).

The test works in a cache of its own: its `emu/` folder is new, with hard-linked copies of this machine's current
runtime library and precompiled header (so no 20 s runtime build), and the machine's seal key, so that those copies
verify. A limit of 1 MiB then pushes out every entry that was not used in the last ten minutes, and nothing of the
machine's cache is touched."""
import os
import subprocess
import time
from pathlib import Path

from ascendcraft import emu
from ascendcraft.config import load_settings
from ascendcraft.seal import KEY_FILE, _key

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
LONG_AGO = time.time() - 7200


def _own_cache(tmp_path: Path):
    machine = load_settings()
    lib = emu.runtime_library(machine)
    prelude = emu.precompiled_header(machine)
    _key(machine.cache_path)
    cache = tmp_path / "cache"
    (cache / "emu").mkdir(parents=True)
    (cache / KEY_FILE.parent).symlink_to(machine.cache_path / KEY_FILE.parent, target_is_directory=True)
    copies = [lib.parent, *([prelude.parent] if prelude else [])]
    subprocess.run(["cp", "-al", *map(str, copies), str(cache / "emu")], check=True)
    return machine.replace(cache_dir=str(cache), build_cache_mb=1), cache / "emu"


def _age(*paths: Path):
    for p in paths: os.utime(p, (LONG_AGO, LONG_AGO))


def test_a_hit_marks_its_build_used(tmp_path):
    settings, emu_dir = _own_cache(tmp_path)
    first = emu.build(KERNELS / "add_custom.cpp", settings=settings)
    assert first.ok and not first.cached and first.folder.parent.parent.parent == emu_dir
    _age(first.folder)
    hit = emu.build(KERNELS / "add_custom.cpp", settings=settings)
    assert hit.cached and hit.folder == first.folder
    assert time.time() - first.folder.stat().st_mtime < 60


def test_the_least_recently_used_build_goes_and_is_built_again(tmp_path):
    settings, emu_dir = _own_cache(tmp_path)
    old = emu.build(KERNELS / "add_custom.cpp", settings=settings)
    assert old.ok and not old.cached
    runtime = next(emu_dir.glob("runtime-*-sealed"))
    _age(old.folder, runtime, *emu_dir.glob("pch-*-sealed"))
    (emu_dir / "trim-stamp").unlink(missing_ok=True)       # the first build trimmed (nothing, all recent) a moment ago

    new = emu.build(KERNELS / "api_level0.cpp", settings=settings)   # a miss: made, then the cache is trimmed
    assert new.ok and not new.cached and new.folder.exists()
    assert not old.folder.exists()                         # last used two hours ago: pushed out
    assert runtime.exists()                                # the new build just linked against it: used, so kept
    assert not list(emu_dir.glob("trash-*"))

    again = emu.build(KERNELS / "add_custom.cpp", settings=settings)
    assert again.ok and not again.cached and again.folder == old.folder
    assert again.diagnostics == old.diagnostics


def test_no_limit_keeps_everything(tmp_path):
    settings, emu_dir = _own_cache(tmp_path)
    settings = settings.replace(build_cache_mb=0)
    first = emu.build(KERNELS / "add_custom.cpp", settings=settings)
    _age(first.folder)
    emu.build(KERNELS / "api_level0.cpp", settings=settings)
    assert first.folder.exists() and not (emu_dir / "trim-stamp").exists()
