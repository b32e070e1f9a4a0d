"""A test's own cache folder that still finds this machine's emulator builds.

Tests that need a cache of their own (no earlier LLM replies, bench results or sessions) link the content-addressed
parts of the machine's cache into it: the emulator builds (`emu/`: the runtime library and every kernel, keyed by
their sources, flags and compiler), the eager and output-spec caches (keyed by the task text, SoC and code). A build is
used only when its seal verifies, and seals are made with the cache's key (`keys/seal.key`), so the key is linked
too: without it every build in the linked folder fails its seal, is compiled again (the runtime library alone takes
20-60 s) and is republished under the test's key, which the next ordinary run then refuses and rebuilds in turn."""
from __future__ import annotations

from pathlib import Path

from ascendcraft.config import load_settings
from ascendcraft.seal import KEY_FILE, _key

SHARED = ("emu", "eager", "specs")          # content-addressed: safe to share between caches


def share_builds(cache: Path) -> Path:
    "Create `cache` (a test's own cache folder) with the machine cache's builds and seal key linked in; return it."
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    machine = load_settings().cache_path
    _key(machine)                                                 # make sure the machine's key exists before linking it
    for name in (*SHARED, str(KEY_FILE.parent)):
        (machine / name).mkdir(parents=True, exist_ok=True)
        (cache / name).symlink_to(machine / name, target_is_directory=True)
    return cache
