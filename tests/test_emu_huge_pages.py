"""GM files on a tmpfs with 2 MiB pages (issue 17, setting `gm_huge_pages`): the same outputs, poison and GM bounds as
on /dev/shm, for buffers of 2 MiB and more (their address ranges start on a 2 MiB boundary)."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, HUGE_GM_ROOT, RunRules, Scalar, SharedInputs, build, gm_root, run

ADD_ONE = (Path(__file__).parent / "emu_kernels" / "misc" / "add_one.cpp").read_text()
TILE, BLOCKS = 8192, 130              # 130 tiles of 32 KiB: 4.06 MiB, not a whole number of 2 MiB pages
N = TILE * BLOCKS

# reads one float past the end of x through the kernel's raw pointer: the page after the buffer is a guard page
READS_PAST_END = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void past_end(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    volatile float v = ((__gm__ float *)x)[n];
    ((__gm__ float *)y)[0] = v;
}
'''

SETTINGS = {"auto": load_settings().replace(gm_huge_pages="auto"), "off": load_settings().replace(gm_huge_pages="off")}


@pytest.mark.parametrize("mode", ["auto", "off"])
def test_outputs_and_poison_are_the_same_on_either_root(mode):
    s = SETTINGS[mode]
    b = build({"k.cpp": ADD_ONE})
    assert b.ok, b.diagnostics
    x = np.random.default_rng(3).standard_normal(N, dtype=np.float32)
    args = [GM("x", x), GM("y", None, "out", shape=(N,), dtype=np.float32), Scalar(TILE)]
    r = run(b, args, block_dim=BLOCKS, settings=s)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
    del r
    half = run(b, args, block_dim=BLOCKS // 2, settings=s, poison=0x5A)   # the kept files again: half written
    assert half.ok, half.diagnostics
    np.testing.assert_array_equal(half.outputs["y"][:N // 2], x[:N // 2] + 1)
    assert (half.outputs["y"][N // 2:].view(np.uint8) == 0x5A).all()
    shared = SharedInputs(s)
    xs = shared.empty((N,), np.float32)
    xs[:] = x
    r = run(b, [GM("x", xs), *args[1:]], block_dim=BLOCKS, settings=s, inputs=shared)
    assert r.ok and shared.linked == 1
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
    if mode == "off" or gm_root(s) != HUGE_GM_ROOT:
        assert str(shared.scratch.path.parent) != HUGE_GM_ROOT
    else:
        assert str(shared.scratch.path.parent) == HUGE_GM_ROOT
    shared.close()


@pytest.mark.parametrize("mode", ["auto", "off"])
def test_a_read_past_the_end_of_a_large_buffer_still_faults(mode):
    b = build({"k.cpp": READS_PAST_END})
    assert b.ok, b.diagnostics
    n = 1 << 20                                      # 4 MiB: ends on a page boundary, the next page is the guard
    r = run(b, [GM("x", np.ones(n, np.float32)), GM("y", None, "out", shape=(1,), dtype=np.float32), Scalar(n)],
            block_dim=1, settings=SETTINGS[mode], rules=RunRules(raw_gm_writes="warning"))
    assert not r.ok and [d.kind for d in r.errors] == ["gm-out-of-bounds"], r.diagnostics
    assert "byte offset 4194304" in r.errors[0].message
