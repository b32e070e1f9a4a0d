"""A barrier of the kernel's own over GM without DataCacheCleanAndInvalid: each block copies a flag byte to its slot with
DataCopyPad, then copies all the slots into UB again and again until every block's flag is set (hicann ops-nn
index_fill's WaitForIndicesTask). MTE2 reads GM itself, so on the NPU the loop ends once the other cores have written.
The emulator runs the blocks one at a time: a block that reads the same range of an output or workspace buffer several
times in a row and finds it unchanged hands over to the blocks that have not finished, instead of spinning until the
run's time limit. After the barrier each block reads a value another block wrote before it."""
import numpy as np

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr uint8_t FLAG = 1;
extern "C" __global__ __aicore__ void gm_barrier(GM_ADDR flags, GM_ADDR vals, GM_ADDR out)
{
    const int32_t n = GetBlockNum(), me = GetBlockIdx();
    GlobalTensor<uint8_t> flagGm;
    GlobalTensor<int32_t> valGm, outGm;
    flagGm.SetGlobalBuffer((__gm__ uint8_t *)flags, n);
    valGm.SetGlobalBuffer((__gm__ int32_t *)vals, n * 8);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, n * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<int32_t> v = buf.Get<int32_t>();
    LocalTensor<uint8_t> f = buf.Get<uint8_t>()[512];

    Duplicate(v, (me + 1) * 10, 8);                       // this block's value, for the next block to read
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(valGm[me * 8], v, 8);
    f.SetValue(0, FLAG);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopyPad(flagGm[me], f, DataCopyExtParams{1, 1, 0, 0, 0});
    PipeBarrier<PIPE_ALL>();
    for (bool all = false; !all;) {                       // every block's flag, from GM, until all are set
        DataCopyPad(f, flagGm, DataCopyExtParams{1, static_cast<uint32_t>(n), 0, 0, 0}, DataCopyPadExtParams<uint8_t>{true, 0, 0, 0});
        SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
        all = true;
        for (int32_t b = 0; b < n; ++b) all = all && f.GetValue(b) == FLAG;
    }
    const int32_t next = (me + 1) % n;
    DataCopy(v, valGm[next * 8], 8);                      // the next block's value: written before its flag
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(outGm[me * 8], v, 8);
}
'''


def _run(tmp_path, run_timeout=None):
    src = tmp_path / "gm_barrier.cpp"
    src.write_text(KERNEL)
    b = build(src, entry="gm_barrier")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    settings = load_settings()
    if run_timeout: settings = settings.replace(run_timeout=run_timeout)
    n = 6
    return n, run(b, [GM("flags", np.zeros(n, np.uint8), "inout"), GM("vals", np.zeros(n * 8, np.int32), "inout"),
                      GM("out", np.zeros(n * 8, np.int32), "out")], block_dim=n, settings=settings)


def test_blocks_polling_gm_for_each_others_flags_pass_the_barrier(tmp_path):
    n, r = _run(tmp_path, run_timeout=30)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert list(r.outputs["flags"]) == [1] * n
    want = np.repeat([((b + 1) % n + 1) * 10 for b in range(n)], 8)
    np.testing.assert_array_equal(r.outputs["out"], want)
