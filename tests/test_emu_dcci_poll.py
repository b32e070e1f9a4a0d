"""A block that polls GM for other blocks' flags (DataCacheCleanAndInvalid, then GetValue, until the flag is set: the
asc-devkit gm_by_dcache example's WaitBlocksReady). On the NPU the blocks run at once; the emulator runs them one at a
time, so a clean-and-invalidate of GM hands over to the blocks that have not finished (they run first), and the
polling block then sees their writes instead of spinning until the run's time limit."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t LINE = 16;   // one 64-byte cache line of int32 per block's flag
extern "C" __global__ __aicore__ void poll_flags(GM_ADDR flags, GM_ADDR out)
{
    GlobalTensor<int32_t> flagGm, outGm;
    flagGm.SetGlobalBuffer((__gm__ int32_t *)flags, 4 * LINE);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    const int32_t me = GetBlockIdx();
    flagGm.SetValue(me * LINE, me + 1);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[me * LINE]);
    if (me != 0) return;
    int32_t sum = 0;
    for (int32_t b = 1; b < 4; ++b) {   // block 0 waits for blocks 1..3, which run after it here
        int32_t seen = 0;
        while (seen == 0) {
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[b * LINE]);
            seen = flagGm.GetValue(b * LINE);
        }
        sum += seen;
    }
    outGm.SetValue(0, sum);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(outGm);
}
'''


def test_a_block_polling_other_blocks_flags_sees_them(tmp_path):
    src = tmp_path / "poll_flags.cpp"
    src.write_text(KERNEL)
    b = build(src, entry="poll_flags")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("flags", np.zeros(64, np.int32), "inout"), GM("out", np.zeros(8, np.int32), "inout")], block_dim=4)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["out"][0] == 2 + 3 + 4
    assert list(r.outputs["flags"][::16]) == [1, 2, 3, 4]
    assert r.seconds < 60
