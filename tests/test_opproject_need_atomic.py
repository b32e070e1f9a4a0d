"""gert::TilingContext::SetNeedAtomic / NeedAtomic (hicann ops-math reflection_pad3d_grad, histogram_v2),
SetLocalMemorySize / SetDynUBufSize and StorageShape::GetShape / MutableShape (ops-math radix_top_k), and
aclnn/opdev/platform.h's op::GetCurrentPlatformInfo (ops-math coalesce_sparse). A tiling function that sets the atomic-clean flag asks
GE to zero the op's outputs before the launch, so a kernel may accumulate into them with SetAtomicAdd; without the flag
an output starts as the emulator's poison. The project is our own: four blocks each add their quarter of an int32 x
into the same y with SetAtomicAdd, so y = the sum of the four quarters only if y started as zeros (an int32 poison
0xA5A5A5A5 added in would show). Its tiling reads the input's length through GetShape and writes NeedAtomic() back
into the tiling data, which the kernel stores into a second output."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.opproject import load_project, run_project

TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(AtomicSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(uint32_t, needAtomic);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AtomicSumCustom, AtomicSumTilingData)
}  // namespace optiling
"""

HOST = r"""#include "atomic_sum_custom_tiling.h"
#include "aclnn/opdev/platform.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    AtomicSumTilingData tiling;
    const gert::StorageShape* xs = context->GetInputShape(0);
    const int64_t n = xs->GetShape().GetDim(0);   // the origin shape, as metadef's GetShape gives it
    if (xs->GetShape().GetDimNum() != 1 || n != xs->GetOriginShape().GetDim(0)) return ge::GRAPH_FAILED;
    tiling.set_perCore(static_cast<uint32_t>(n / 4));
    // the op API layer's platform query (coalesce_sparse includes it): the emulated chip is an A2
    const op::PlatformInfo& platform = op::GetCurrentPlatformInfo();
    if (platform.GetSocVersion() != op::SocVersion::ASCEND910B || platform.GetCurNpuArch() != NpuArch::DAV_2201 ||
        !platform.Valid() || platform.GetSocLongVersion() != "Ascend910B1") return ge::GRAPH_FAILED;
    // the dynamic UB size (radix_top_k): 0 until set, then what was set, under both names
    if (context->GetLocalMemorySize() != 0 || context->SetLocalMemorySize(4096) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    if (context->GetDynUBufSize() != 4096 || context->SetDynUBufSize(512) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    if (context->GetLocalMemorySize() != 512) return ge::GRAPH_FAILED;
    {flag}
    tiling.set_needAtomic(context->NeedAtomic() ? 1u : 0u);
    context->SetBlockDim(4);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class AtomicSumCustom : public OpDef {
public:
    explicit AtomicSumCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("flag").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AtomicSumCustom);
}  // namespace ops
"""

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void atomic_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR flag, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(int32_t));
    GlobalTensor<int32_t> xg, yg, fg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x + GetBlockIdx() * t.perCore, t.perCore);
    yg.SetGlobalBuffer((__gm__ int32_t*)y, t.perCore);
    fg.SetGlobalBuffer((__gm__ int32_t*)flag + GetBlockIdx() * 8, 8);
    LocalTensor<int32_t> v = buf.Get<int32_t>();
    DataCopy(v, xg, t.perCore);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<int32_t>();
    DataCopy(yg, v, t.perCore);
    SetAtomicNone();
    PipeBarrier<PIPE_ALL>();
    Duplicate(v, static_cast<int32_t>(t.needAtomic), 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(fg, v, 8);
}
"""

PER_CORE = 64


def _run(tmp_path: Path, flag: str):
    files = {"op_host/atomic_sum_custom.cpp": HOST.replace("{flag}", flag),
             "op_host/atomic_sum_custom_tiling.h": TILING_H, "op_kernel/atomic_sum_custom.cpp": KERNEL}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    x = np.random.default_rng(5).integers(-1000, 1000, 4 * PER_CORE, dtype=np.int32)
    r = run_project(load_project(tmp_path), {"x": x}, outputs={"y": ((PER_CORE,), np.int32), "flag": ((32,), np.int32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    return x, r


@pytest.mark.parametrize("flag", ["context->SetNeedAtomic(true);", "context->SetNeedAtomic(false); context->SetNeedAtomic(true);"],
                         ids=["set", "set-again"])
def test_set_need_atomic_zeroes_the_outputs_before_the_launch(tmp_path, flag):
    x, r = _run(tmp_path, flag)
    assert r.block_dim == 4
    np.testing.assert_array_equal(r.outputs["y"], x.reshape(4, PER_CORE).sum(axis=0))
    np.testing.assert_array_equal(r.outputs["flag"], np.ones(32, np.int32))   # NeedAtomic() read back true


@pytest.mark.parametrize("flag", ["", "context->SetNeedAtomic(true); context->SetNeedAtomic(false);"], ids=["never", "cleared"])
def test_without_need_atomic_the_outputs_start_as_the_poison(tmp_path, flag):
    x, r = _run(tmp_path, flag)
    np.testing.assert_array_equal(r.outputs["flag"], np.zeros(32, np.int32))   # NeedAtomic() false
    poison = np.frombuffer(b"\xa5" * 4, np.int32)[0]
    want = (x.reshape(4, PER_CORE).sum(axis=0, dtype=np.int64) + poison).astype(np.int64)
    want = ((want + 2**31) % 2**32 - 2**31).astype(np.int32)   # int32 wrap-around of the poison plus the sums
    np.testing.assert_array_equal(r.outputs["y"], want)
