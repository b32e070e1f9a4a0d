"""SyncAll<false>() in a fused (mixed AIC / AIV) kernel: the API reference's "each core type's barrier, then the two
types' with each other", one barrier among all the launch's cores, so what every AIC wrote before it is there for every
AIV after it (hicann ops-transformer grouped_matmul_swiglu_quant: the AICs' Matmul results in the workspace, SyncAll<false>
on both sides, then the AIVs read them). SyncAll<true>() (the default) stays a barrier among the caller's core type, and
reading an AIC's output after it alone is a `cross-core-race`."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;

// Each group's AIC writes one 8-int row of ws; after the barrier each AIV copies the row of the next group's AIC into
// its own row of y, so it reads what another group's cube core wrote.
template <bool isAIVOnly>
__aicore__ inline void Rows(GM_ADDR ws, GM_ADDR y)
{
    GlobalTensor<int32_t> wsGm, yGm;
    wsGm.SetGlobalBuffer((__gm__ int32_t *)ws);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y);
    const int32_t groups = GetBlockNum();
    if ASCEND_IS_AIC {
        const int32_t g = GetBlockIdx();
        for (int32_t j = 0; j < 8; ++j) wsGm.SetValue(g * 8 + j, 100 * g + j);
        DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(wsGm);
    }
    SyncAll<isAIVOnly>();
    if ASCEND_IS_AIV {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 32);
        const int32_t i = GetBlockIdx(), g = i / 2;
        LocalTensor<int32_t> t = q.AllocTensor<int32_t>();
        DataCopy(t, wsGm[((g + 1) % groups) * 8], 8);
        q.EnQue(t);
        t = q.DeQue<int32_t>();
        DataCopy(yGm[i * 8], t, 8);
        q.FreeTensor(t);
    }
}

extern "C" __global__ __aicore__ void rows_all(GM_ADDR ws, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Rows<false>(ws, y);
}

extern "C" __global__ __aicore__ void rows_vector_only(GM_ADDR ws, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Rows<true>(ws, y);
}
"""


@pytest.mark.parametrize("entry", ["rows_all", "rows_vector_only"])
def test_sync_all_false_orders_every_aic_before_every_aiv(tmp_path, entry):
    path = tmp_path / "rows.cpp"
    path.write_text(KERNEL)
    groups = 3
    b = build(path, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("ws", np.zeros(groups * 8, np.int32), "workspace"),
                GM("y", np.zeros((2 * groups, 8), np.int32), "out")], block_dim=groups)
    if entry == "rows_all":
        assert r.ok, "\n".join(map(str, r.diagnostics))
        want = np.array([[100 * ((i // 2 + 1) % groups) + j for j in range(8)] for i in range(2 * groups)])
        np.testing.assert_array_equal(r.outputs["y"], want)
    else:   # a barrier among the vector cores alone: the AICs' rows are read with no hand-over
        assert not r.ok
        d = next(d for d in r.diagnostics if d.kind == "cross-core-race")
        assert "DataCopy(t, wsGm" in KERNEL.splitlines()[d.line - 1]
