"""The bench's use of the reference block cache (`blockcache`, nbs/31_blockcache): the cap it sets from a task's memory
estimate, the context that installs and releases it around a full-shape verification, and the one place outside the
reference that takes memory the cap did not plan for (an input copied into its file) unmapping the kept blocks.

The allocator is per process and stays once installed, so everything that installs it runs in a child interpreter."""
import json
import subprocess
import sys
import textwrap

import pytest

from ascendcraft.bench import (EmulatedKernel, VERIFY_OVERHEAD_MB, VerifyMemory, block_cache_bytes, output_keep_mb,
                               verification_memory)
from ascendcraft.config import load_settings
from ascendcraft.taskset import registry

GiB, MiB = 1 << 30, 1 << 20


def _child(body: str, cache_dir) -> dict:
    script = textwrap.dedent(f"""
        import json, torch
        from ascendcraft import blockcache, bench, emu
        from ascendcraft.config import load_settings
        settings = load_settings().replace(cache_dir={str(cache_dir)!r})
        out = {{}}
    """) + textwrap.dedent(body) + "\nprint(json.dumps(out))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _phases(need: VerifyMemory) -> dict[str, int]:
    "What the process holds in each phase where the reference is not running (`VerifyMemory.peak`'s terms)."
    kept = need.outputs if output_keep_mb(need) else 0     # the first run's GM outputs, kept for the next trial
    copied = need.inputs + need.copied_input               # inputs below DRAW_LEAST; larger ones are drawn in their files
    return {"draw": need.draw + kept, "copy": copied + kept, "poison runs": need.inputs + 2 * need.outputs}


@pytest.mark.parametrize("need", [
    VerifyMemory(inputs=4 * GiB + (128 << 10), largest_input=4 * GiB, outputs=4, reference=8 * GiB, draw=4 * GiB + (128 << 10),
                 elements=0, copied_input=128 << 10),
    VerifyMemory(inputs=GiB, largest_input=GiB, outputs=GiB, reference=GiB, draw=GiB, elements=0),   # elementwise
    VerifyMemory(inputs=3 * GiB, largest_input=GiB, outputs=4, reference=4 * GiB, draw=3 * GiB, elements=0, copied_input=MiB - 4),
    VerifyMemory(inputs=512 * MiB, largest_input=512 * MiB, outputs=64 * MiB, reference=5 * GiB, draw=6 * GiB, elements=0),
], ids=["hinge-like", "elementwise", "kl-like", "draw-heavy"])
def test_the_cap_fits_beside_every_other_phase(need):
    cap = block_cache_bytes(need)
    core = need.peak - (VERIFY_OVERHEAD_MB << 20)
    assert cap >= 0 and cap % MiB == 0                               # in MiB, like the estimate
    for phase, held in _phases(need).items():
        assert held + cap < core + MiB, (phase, held, cap, core)     # rounded up: less than 1 MiB over the tensors' sum
    if cap: assert max(_phases(need).values()) + cap >= core         # all the room there is, not less


def test_the_cap_on_real_tasks():
    settings = load_settings()
    caps = {t.id: block_cache_bytes(verification_memory(t, settings))
            for t in registry(None, ["hinge_loss", "kl_div_loss", "relu"])}
    assert caps["hinge_loss"] == 8 * GiB       # two of the reference's 4 GiB temporaries: every call on kept pages
    assert caps["kl_div_loss"] >= GiB
    assert caps["relu"] == 0                   # its reference's output is all the room the poison runs leave


def test_the_context_installs_only_at_full_shapes_and_releases(tmp_path):
    out = _child("""
        hinge = next(iter(bench.registry(None, ["hinge_loss"])))
        record = {}
        with bench.reference_block_cache(hinge, settings, "small", record):
            pass
        out["small"] = dict(record)
        with bench.reference_block_cache(hinge, settings, "full", record):
            for _ in range(3):
                x = torch.ones(4 << 20)             # 16 MiB: the first mapped fresh, the next two on its pages
                del x
        out["full"] = record["block_cache"]
        out["cached_after"] = blockcache.BlockCache(blockcache._loaded[0], 0).stats().cached
    """, tmp_path)
    assert out["small"] == {}
    assert out["full"].startswith("2 of 3 large blocks on kept pages (32 MiB not faulted in again; 16 MiB fresh)"), out["full"]
    assert out["full"].endswith("at most 8.0 GiB kept"), out["full"]
    assert out["cached_after"] == 0


def test_an_input_copied_into_its_file_unmaps_the_kept_blocks(tmp_path):
    out = _child("""
        cache = blockcache.install(1 << 30, settings, threshold=8 << 20)
        x = torch.ones(4 << 20); del x                # 16 MiB kept
        out["kept"] = cache.stats().cached
        shared = emu.SharedInputs(settings)
        small = [torch.ones(1000)]                     # below DRAW_LEAST: copied, the kept blocks stay
        bench.EmulatedKernel._share(shared, small)
        out["after_small"] = cache.stats().cached
        inputs = [torch.arange(float(1 << 20))]        # 4 MiB drawn in this process's memory: copied into its file
        bench.EmulatedKernel._share(shared, inputs)
        out["after_copy"] = cache.stats().cached
        out["same_values"] = bool((inputs[0] == torch.arange(float(1 << 20))).all())
        out["in_a_file"] = shared.file_of(inputs[0].numpy()) is not None
        shared.close()
    """, tmp_path)
    assert out["kept"] == 16 * MiB
    assert out["after_small"] == 16 * MiB
    assert out["after_copy"] == 0
    assert out["same_values"] and out["in_a_file"]
