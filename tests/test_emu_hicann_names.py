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


def _run(flag: str, sync_all: bool = False):
    src = KERNEL.replace("THE_FLAG_ID", flag)
    if sync_all: src = src.replace("    CrossCoreWaitFlag(" + flag + ");\n", "    CrossCoreWaitFlag(" + flag + ");\n    SyncAll();\n")
    b = build({"rotate_named.cpp": src})
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
    # the range of modes 0, 1 and 2 on A2 (the DSL's handover()/wait() checks the same 0..15), at the set, with the fix
    assert "CrossCoreSetFlag<0>(16)" in d.message and "0..15 in modes 0, 1 and 2" in d.message
    assert "16 would be flag 0" in d.hint and d.line == KERNEL.splitlines().index("    CrossCoreSetFlag<0, PIPE_MTE3>(THE_FLAG_ID);") + 1
    assert "^" in d.render() and "hint:" in d.render()


def test_a_flag_id_the_hardware_sync_all_uses_beside_sync_all_is_a_warning():
    # SyncAll (the hardware form) sets and waits on 11..14 itself: a hand-over on one of them beside it is flagged once
    x, r = _run("SYNC_AIC_FLAG", sync_all=True)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], np.roll(x, -8))
    [d] = [d for d in r.diagnostics if d.kind == "cross-flag-syncall"]
    assert d.severity == "warning" and "flag 11" in d.message and "11..14" in d.message and "0 to 10 or 15" in d.hint
    _, r = _run("15", sync_all=True)
    assert r.ok and not [d for d in r.diagnostics if d.kind == "cross-flag-syncall"]


OPS_BASE_KERNEL = """#include "kernel_operator.h"
#include "op_kernel/platform_util.h"
#include "op_kernel/math_util.h"
#include "util/math_util.h"          // the host helpers in the same unit (a tiling header that includes them): one overload
#include "log/error_code.h"
using namespace AscendC;
constexpr uint32_t UB_BLOCK_BYTES = Ops::Base::GetUbBlockSize();   // a constant expression, as max_pool3_d uses it
static_assert(UB_BLOCK_BYTES == 32 && Ops::Base::GetVRegSize() == 256, "A2's UB block and vector register");
static_assert(Ops::Base::VECTOR_INNER_ERROR == 89999, "ops-base's error code");

extern "C" __global__ __aicore__ void ops_base_names(GM_ADDR y)
{
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y);
    yGm.SetValue(0, Ops::Base::CeilDiv(100, 32));
    yGm.SetValue(1, Ops::Base::FloorDiv(100, 32));
    yGm.SetValue(2, Ops::Base::CeilAlign(100, 32));
    yGm.SetValue(3, Ops::Base::FloorAlign(100, 32));
    for (int32_t i = 4; i < 8; ++i) yGm.SetValue(i, 0);
}
"""


def test_ops_base_kernel_helpers_and_the_host_ones_in_one_unit():
    # hicann ops-nn kernels include ops-base's op_kernel/platform_util.h and op_kernel/math_util.h (95 and 69 files of
    # ops-nn); a kernel unit may see the host helpers too, through a tiling header
    b = build({"k.cpp": OPS_BASE_KERNEL})
    assert b.ok, b.log[-2000:]
    r = run(b, [GM("y", np.full(8, -1, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], [4, 3, 128, 96, 0, 0, 0, 0])
