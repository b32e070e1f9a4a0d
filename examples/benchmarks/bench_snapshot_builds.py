"""What compiling a pipeline's snapshots costs: checked (`-fsyntax-only`) against built and linked.

    python examples/benchmarks/bench_snapshot_builds.py [--kernels 12]

Lowers the first N expert kernels through the four passes in a fresh build cache (the runtime library and the
precompiled header are made first and not counted), then compiles the same intermediate snapshots again as full
builds in a second fresh cache, the way every snapshot was compiled before `build(check_only=True)`. Reports the wall
time of each (this process waits for each g++; on a loaded machine compare the two side by side, not with other runs).
"""
import argparse
import tempfile
import time
from pathlib import Path

from ascendcraft import emu
from ascendcraft.config import load_settings
from ascendcraft.generate import expert_path
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task, registry


def fresh_settings(root: str):
    "Settings with a cache of their own, its runtime library and kernel header already made."
    s = load_settings().replace(cache_dir=root)
    emu.runtime_library(s, False)
    emu.precompiled_header(s, None)
    return s


def main(kernels: int):
    paths = sorted(p for p in map(expert_path, registry()) if p.exists())[:kernels]
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        s = fresh_settings(a)
        t0, snapshots = time.perf_counter(), []
        for p in paths:
            pipe = Pipeline(p.read_text(), p.name, task=get_task(p.stem), settings=s)
            pipe.run_all()
            assert pipe.final is not None, f"{p.stem}: {pipe.summary()}"
            snapshots += [(step.project.as_dict(), pipe.lowering.names.entry) for step in pipe.steps[1:-1]]
        lowered = time.perf_counter() - t0
        s = fresh_settings(b)
        t0 = time.perf_counter()
        for sources, entry in snapshots:
            assert emu.build(sources, entry, settings=s).ok
        linked = time.perf_counter() - t0
    print(f"{len(paths)} kernels lowered, every snapshot compiled (the {len(snapshots)} before the last checked): "
          f"{lowered:.1f} s wall")
    print(f"the same {len(snapshots)} intermediate snapshots built and linked instead: {linked:.1f} s wall more")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=int, default=12)
    main(ap.parse_args().kernels)
