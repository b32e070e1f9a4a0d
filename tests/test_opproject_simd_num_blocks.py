"""gert::TilingContext::SetSimdNumBlocks / GetSimdNumBlocks: metadef's newer name of SetBlockDim / GetBlockDim (the old
pair now forwards to it: one value under both names). hicann ops-nn's quant_batch_matmul_v4 sets it in its Ascend 950
(arch35) tiling, which CANN's A2 build compiles too (its op_tiling/ folder is globbed recursively) and which the A2
tiling registry links to; without it that unit did not compile and the project's link missed the arch35 classes.
A host program compiled with g++ against the emulation's headers, and a small op project of our own whose tiling sets
the block count under the new name only: the launch runs that many blocks."""
import subprocess
from pathlib import Path

import numpy as np

from ascendcraft.emu import INCLUDE_DIR
from ascendcraft.opproject import load_project, run_project

PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::TilingContext ctx;
    const int ok = ctx.SetSimdNumBlocks(6) == ge::GRAPH_SUCCESS;
    const unsigned old_name = ctx.GetBlockDim();
    ctx.SetBlockDim(3);
    std::printf("%d %u %u\n", ok, old_name, ctx.GetSimdNumBlocks());
}
"""


def test_the_simd_block_count_is_the_block_dim_under_both_names(tmp_path):
    (tmp_path / "p.cpp").write_text(PROGRAM)
    built = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "p.cpp", "-o", "p"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "p")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "6", "3"]


TILING_H = r"""#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(BlockIdsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BlockIdsCustom, BlockIdsTilingData)
}  // namespace optiling
"""

HOST = r"""#include "block_ids_custom_tiling.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    BlockIdsTilingData tiling;
    const uint32_t blocks = 3;
    tiling.set_perCore(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize() / blocks));
    if (context->SetSimdNumBlocks(blocks) != ge::GRAPH_SUCCESS || context->GetSimdNumBlocks() != blocks)
        return ge::GRAPH_FAILED;
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class BlockIdsCustom : public OpDef {
public:
    explicit BlockIdsCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BlockIdsCustom);
}  // namespace ops
"""

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void block_ids_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(int32_t));
    GlobalTensor<int32_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x + GetBlockIdx() * t.perCore, t.perCore);
    yg.SetGlobalBuffer((__gm__ int32_t*)y + GetBlockIdx() * t.perCore, t.perCore);
    LocalTensor<int32_t> v = buf.Get<int32_t>();
    DataCopy(v, xg, t.perCore);
    PipeBarrier<PIPE_ALL>();
    Adds(v, v, static_cast<int32_t>(GetBlockIdx() * 1000), t.perCore);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, v, t.perCore);
}
"""

PER_CORE = 64


def test_a_tiling_that_sets_the_simd_block_count_launches_that_many_blocks(tmp_path: Path):
    files = {"op_host/block_ids_custom.cpp": HOST, "op_host/block_ids_custom_tiling.h": TILING_H,
             "op_kernel/block_ids_custom.cpp": KERNEL}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    x = np.random.default_rng(7).integers(-100, 100, 3 * PER_CORE, dtype=np.int32)
    r = run_project(load_project(tmp_path), {"x": x}, outputs={"y": ((3 * PER_CORE,), np.int32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    assert r.block_dim == 3
    np.testing.assert_array_equal(r.outputs["y"], x + np.repeat(np.arange(3, dtype=np.int32) * 1000, PER_CORE))
