"""The run limit of an emulated launch counts from the start and again from each block that finishes: a kernel whose
blocks each take a while (LLM4AscendC's scalar convolutions: a minute and more per block at their own shapes, 96
blocks) is not stopped as a hang while its blocks keep finishing; a block that never ends is still a `timeout` error,
`run_timeout` after the last block that finished, naming the block."""
import numpy as np

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, build, run

SLOW_BLOCKS = r'''#include "kernel_operator.h"
#include <chrono>
using namespace AscendC;

// each block spins for its own number of milliseconds of wall time, then writes its index + 1
extern "C" __global__ __aicore__ void slow_blocks(GM_ADDR spin_ms, GM_ADDR y)
{
    GlobalTensor<int32_t> spin, out;
    spin.SetGlobalBuffer((__gm__ int32_t *)spin_ms, 8);
    out.SetGlobalBuffer((__gm__ int32_t *)y + 8 * GetBlockIdx(), 8);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(spin.GetValue(GetBlockIdx()));
    while (std::chrono::steady_clock::now() < until) {
    }
    out.SetValue(0, static_cast<int32_t>(GetBlockIdx()) + 1);
}
'''


def _run(spins):
    settings = load_settings(run_timeout=1.0, emu_threads=1)
    b = build({"slow_blocks.cpp": SLOW_BLOCKS}, settings=settings)
    assert b.ok, [d.render() for d in b.diagnostics]
    spin = np.array(spins + [0] * (8 - len(spins)), np.int32)
    return run(b, [GM("spin_ms", spin, "in"), GM("y", np.zeros(8 * len(spins), np.int32), "out")],
               block_dim=len(spins), settings=settings)


def test_a_launch_whose_blocks_keep_finishing_runs_past_the_limit_of_one():
    r = _run([700, 700, 700, 700])          # 2.8 s in all, each block well within the 1 s limit
    assert r.ok, [d.render() for d in r.diagnostics]
    assert list(r.outputs["y"][::8]) == [1, 2, 3, 4]


def test_a_block_that_never_finishes_is_a_timeout_after_the_last_block_that_did():
    r = _run([300, 300, 10 ** 8, 300])
    assert not r.ok
    d = next(d for d in r.diagnostics if d.is_error)
    assert d.kind == "timeout" and "no block finished within 1 s of the last one (2 had finished)" in d.message
    assert "block 2" in d.message
