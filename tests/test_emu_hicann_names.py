"""Names the public CANN operators (hicann ops-nn) take from kernel_operator.h on A2: the cross-core flag ids of the
system's own synchronisation (SYNC_AIC_FLAG = 11 ... SYNC_AIV_ONLY_ALL = 14; flag ids 0..15 in modes 0, 1 and 2 per
the CrossCoreSetFlag page), and TransDataTo5HDParams as a literal type (a constexpr instance)."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

static_assert(SYNC_AIC_FLAG == 11 && SYNC_AIV_FLAG == 12 && SYNC_AIC_AIV_FLAG == 13 && SYNC_AIV_ONLY_ALL == 14, "ids");
constexpr TransDataTo5HDParams PARA_ONE(false, false, 1, 0, 0);
static_assert(PARA_ONE.repeatTimes == 1 && !PARA_ONE.dstHighHalf, "a literal type");

// every vector core publishes its 8 values, all wait on THE_FLAG_ID (mode 0), then each reads its neighbour's
extern "C" __global__ __aicore__ void rotate_named(GM_ADDR x, GM_ADDR ws, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32);
    const int32_t i = GetBlockIdx(), n = GetBlockNum();
    GlobalTensor<float> xGm, wsGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    wsGm.SetGlobalBuffer((__gm__ float *)ws);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm[i * 8], 8);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(wsGm[i * 8], t, 8);
    q.FreeTensor(t);
    CrossCoreSetFlag<0, PIPE_MTE3>(THE_FLAG_ID);
    CrossCoreWaitFlag(THE_FLAG_ID);
    t = q.AllocTensor<float>();
    DataCopy(t, wsGm[((i + 1) % n) * 8], 8);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(yGm[i * 8], t, 8);
    q.FreeTensor(t);
}
"""


def _run(flag: str):
    b = build({"rotate_named.cpp": KERNEL.replace("THE_FLAG_ID", flag)})
    assert b.ok, b.log[-2000:]
    x = np.arange(32, dtype=np.float32)
    return x, run(b, [GM("x", x), GM("ws", np.empty(32, np.float32), "workspace"), GM("y", np.empty(32, np.float32), "out")],
                  block_dim=4)


def test_the_system_flag_ids_hand_over_like_any_other():
    for flag in ("SYNC_AIC_FLAG", "15"):
        x, r = _run(flag)
        assert r.ok, "\n".join(map(str, r.diagnostics))
        np.testing.assert_array_equal(r.outputs["y"], np.roll(x, -8))


def test_a_flag_id_past_15_is_an_error_naming_the_range():
    _, r = _run("16")
    d = next(d for d in r.errors if d.kind == "cross-flag-id")
    assert "0..15" in d.message
