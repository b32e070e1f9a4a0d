"""AscendC forms of hicann ops-transformer's kernels (attention, mc2):

- the deprecated LocalTensor::InitBuffer(offset, size), placed in a memory by a write of `address_.logicPos`
  (flash_attention_score_grad's and nsa_selected_attention_grad's AsdopsBuffer: one tensor over the whole UB / L1 / L0),
  and `address_` read whole into a TBuffAddr that SetAddr takes back (flash_attention_score's L1 cache);
- KERNEL_TASK_TYPE_DEFAULT at file scope, before the entry (flash_attention_score);
- GetSubBlockIdxImpl, the implementation function behind GetSubBlockIdx (the mc2 kernels), and the HCCL API (one
  device: rank 0 of 1) with no include but kernel_operator.h, as in the SDK (all_gather_matmul, matmul_reduce_scatter);
- Matmul::WaitIterateBatch after an asynchronous IterateBatch<false> (flash_attention_score's bmm1 / bmm2);
- SetNdParaImpl, the ND_PARA register whole (the attention-grad cube code): tests/test_cube_fixpipe_forms.py;
- the host names of opbase's reduce template (atvoss/reduce/reduce_tiling.h), which rotary_position_embedding_grad's
  tiling header holds; its tiling itself is a named failure.
"""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

WHOLE_UB = r'''#include "kernel_operator.h"
using namespace AscendC;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// One tensor over the whole UB, as AsdopsBuffer makes it; views at byte offsets of it; y = 2x + 1 through a view
// whose place was kept (address_) and set on another tensor (SetAddr). pos: the logicPos read back, the kept place's
// byte address and length.
extern "C" __global__ __aicore__ void whole_ub(GM_ADDR x, GM_ADDR y, GM_ADDR pos)
{
    LocalTensor<uint8_t> ub;
    ub.InitBuffer(OFFSET, SIZE);
    PLACE
    LocalTensor<float> a = ub[1024].ReinterpretCast<float>();
    LocalTensor<float> b = ub[4096].ReinterpretCast<float>();
    GlobalTensor<float> xg, yg, pg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 256);
    pg.SetGlobalBuffer((__gm__ float *)pos, 8);
    DataCopy(a, xg, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(b, a, 2.0f, 256);
    TBuffAddr kept = b.address_;
    LocalTensor<float> c;
    c.SetAddr(kept);
    PipeBarrier<PIPE_V>();
    Adds(c, c, 1.0f, 256);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yg, c, 256);
    pg.SetValue(0, static_cast<float>(static_cast<uint8_t>(c.address_.logicPos)));
    pg.SetValue(1, static_cast<float>(kept.bufferAddr));
    pg.SetValue(2, static_cast<float>(kept.dataLen));
}
#pragma GCC diagnostic pop
'''
VECIN = "ub.address_.logicPos = static_cast<uint8_t>(TPosition::VECIN);"


def _whole_ub(offset="0", size="192 * 1024", place=VECIN):
    b = build({"whole_ub.cpp": WHOLE_UB.replace("OFFSET", offset).replace("SIZE", size).replace("PLACE", place)})
    assert b.ok, b.log[-3000:]
    x = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    return x, run(b, [GM("x", x), GM("y", np.zeros(256, np.float32), "out"), GM("pos", np.zeros(8, np.float32), "out")],
                  block_dim=1)


def test_a_tensor_init_buffer_made_and_logic_pos_placed_computes_in_ub():
    x, r = _whole_ub()
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], 2 * x + 1)
    # VECIN is TPosition 9; the kept view starts 4096 bytes into UB and runs to UB's end (192 KiB)
    np.testing.assert_array_equal(r.outputs["pos"][:3], [9, 4096, 192 * 1024 - 4096])


@pytest.mark.parametrize("offset,size,place,kind,says,at", [
    ("16", "1024", VECIN, "ub-misaligned", "multiple of 32 bytes", "ub.InitBuffer"),
    ("0", "192 * 1024 + 32", VECIN, "ub-out-of-range", "placed in UB", "ub.InitBuffer"),
    # L0A holds 64 KiB: the same tensor fits UB and not L0A
    ("0", "64 * 1024 + 32", "ub.address_.logicPos = static_cast<uint8_t>(TPosition::A2);", "ub-out-of-range",
     "placed in L0A", "ub.InitBuffer"),
    ("0", "1024", "ub.address_.logicPos = static_cast<uint8_t>(TPosition::GM);", "ub-out-of-range", "not GM", "PLACE"),
])
def test_init_buffer_is_checked_where_logic_pos_places_it(offset, size, place, kind, says, at):
    # the size / offset errors at the InitBuffer call (its arguments), a position that is no local memory's at the write
    _, r = _whole_ub(offset, size, place)
    assert not r.ok
    d = next(d for d in r.errors if d.kind == kind)
    assert says in d.message, d.message
    assert d.file == "whole_ub.cpp" and d.line == next(i for i, s in enumerate(WHOLE_UB.splitlines(), 1) if at in s), d


def test_a_tensor_used_before_logic_pos_places_it_stops_the_run():
    _, r = _whole_ub(place="")
    assert not r.ok
    d = next(d for d in r.errors if d.kind == "ub-out-of-range")
    assert "DataCopy" in d.message and "address_.logicPos" in d.hint


KERNEL_TYPE = r'''#include "kernel_operator.h"
using namespace AscendC;
KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
// Each AIV writes its block index and its sub-block (GetSubBlockIdxImpl, and GetSubBlockIdx for comparison) at its
// block's slot; the AIC writes nothing.
extern "C" __global__ __aicore__ void sub_blocks(GM_ADDR out)
{
    if ASCEND_IS_AIC { return; }
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 64);
    const int64_t i = GetBlockIdx();
    o.SetValue(i * 8, static_cast<int32_t>(i));
    o.SetValue(i * 8 + 1, static_cast<int32_t>(GetSubBlockIdxImpl()));
    o.SetValue(i * 8 + 2, static_cast<int32_t>(GetSubBlockIdx()));
    o.SetValue(i * 8 + 3, static_cast<int32_t>(GetTaskRation()));
}
'''


def test_kernel_type_at_file_scope_lays_out_a_mixed_launch_and_sub_block_idx_impl_numbers_its_aivs():
    b = build({"sub_blocks.cpp": KERNEL_TYPE})
    assert b.ok, b.log[-3000:]
    r = run(b, [GM("out", np.full(64, -1, np.int32), "out")], block_dim=2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    o = r.outputs["out"].reshape(8, 8)[:4, :4]
    # two groups of one AIC and two AIVs: AIV block indices 0..3, sub-blocks 0, 1, 0, 1, two AIVs a group
    np.testing.assert_array_equal(o, [[0, 0, 0, 2], [1, 1, 1, 2], [2, 0, 0, 2], [3, 1, 1, 2]])


BATCH = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_batch.cpp"
SYNC_BATCH = "    mm.IterateBatch(cGm, td.batch, 1, false);\n"


def _batch(call: str):
    src = BATCH.read_text()
    assert SYNC_BATCH in src
    b = build({"batch_wait.cpp": src.replace(SYNC_BATCH, call)})
    assert b.ok, b.log[-3000:]
    rng = np.random.default_rng(8)
    batch, m, n, k = 3, 32, 48, 64
    a = rng.standard_normal((batch, m, k)).astype(np.float16)
    bm = rng.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.uint32(batch).tobytes()
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.empty((batch, m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    return a.astype(np.float64) @ bm.astype(np.float64), r


def test_wait_iterate_batch_completes_an_asynchronous_iterate_batch():
    ref, r = _batch("    mm.template IterateBatch<false>(cGm, td.batch, 1, false);\n    mm.WaitIterateBatch();\n")
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


def test_wait_iterate_batch_without_an_asynchronous_iterate_batch_is_an_error():
    _, r = _batch(SYNC_BATCH + "    mm.WaitIterateBatch();\n")
    assert not r.ok
    d = next(d for d in r.errors if d.kind == "matmul-usage")
    assert "WaitIterateBatch" in d.message and "IterateBatch<false>" in d.hint


HCCL_ONLY_KERNEL_OPERATOR = r'''#include "kernel_operator.h"
using namespace AscendC;
// As ops-transformer's all_gather_matmul: the HCCL API with no include but kernel_operator.h. One device: rank 0 of 1.
extern "C" __global__ __aicore__ void ranks(GM_ADDR out)
{
    Hccl<HCCL_SERVER_TYPE_AICPU> hccl;
    hccl.Init(GetHcclContext<HCCL_GROUP_ID_0>());
    HcclHandle handle{INVALID_HANDLE_ID};
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    o.SetValue(0, static_cast<int32_t>(hccl.GetRankId()));
    o.SetValue(1, static_cast<int32_t>(hccl.GetRankDim()));
    o.SetValue(2, handle);
    o.SetValue(3, HcclApi::INVALID_HANDLE_ID);
    hccl.Finalize();
}
'''


def test_the_hccl_api_comes_with_kernel_operator_h_and_runs_as_rank_0_of_1():
    b = build({"ranks.cpp": HCCL_ONLY_KERNEL_OPERATOR})
    assert b.ok, b.log[-3000:]
    r = run(b, [GM("out", np.full(8, 7, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["out"][:4], [0, 1, -1, -1])


REDUCE_TILING_HOST = r'''#include <cstdio>
#include "atvoss/reduce/reduce_tiling.h"
// as rotary_position_embedding_grad's tiling header holds them, and its TilingPrepare4ReduceOp fills the compile info
struct CompileInfo { int64_t blockDim; Ops::Base::ReduceOpCompileInfo opInfo; };
int main() {
    CompileInfo info{};
    info.opInfo.ubSize = 192 * 1024;
    Ops::Base::ReduceOpInputParam in;
    in.shape = {4, 8};
    in.axes = {1};
    Ops::Base::ReduceTilingKey key;
    const auto status = Ops::Base::Tiling4ReduceOp(static_cast<gert::TilingContext*>(nullptr), in, key, &info.opInfo);
    std::printf("%lu %lu %d %d %u %zu %d\n", static_cast<unsigned long>(info.opInfo.ubSize),
                static_cast<unsigned long>(Ops::Base::CACHE_BUF_SIZE), static_cast<int>(in.inputDtype == ge::DT_UNDEFINED),
                static_cast<int>(status == ge::GRAPH_FAILED), key.patternID, in.shape.size(), static_cast<int>(in.axes[0]));
}
'''


def test_the_reduce_templates_host_names_compile_and_its_tiling_is_a_named_failure(tmp_path):
    # opbase's atvoss reduce tiling (rotary_position_embedding_grad's tiling header): the types as an op's own code
    # fills them; Tiling4ReduceOp itself is not emulated and fails with a message that names it
    import subprocess
    from ascendcraft.config import load_settings
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(REDUCE_TILING_HOST)
    subprocess.run([load_settings().cxx, "-std=c++17", "-I", str(INCLUDE_DIR), str(tmp_path / "t.cpp"), "-o",
                    str(tmp_path / "t")], check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(192 * 1024), str(16 * 1024), "1", "1", "0", "2", "1"]
    assert "Tiling4ReduceOp" in out.stderr and "not emulated" in out.stderr


def test_iterate_batch_broadcasts_each_b_over_consecutive_a_batches():
    # batchA = 4, batchB = 2 in the NORMAL layout: C[i] = A[i] x B[i / (4 / 2)], as the Matmul API's batch offsets give
    # it (B's batch index is the product's over batchNum / batchB); FlashAttentionScore's grouped-query bmm1 (A: the
    # N2 x G query heads, B: the N2 key heads) relies on it: query heads 0 and 1 share key head 0
    src = BATCH.read_text().replace(SYNC_BATCH, "    mm.IterateBatch(cGm, td.batch, td.batch / 2, false);\n").replace(
        "bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.cube.Kb * td.cube.N);",
        "bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.batch / 2 * td.cube.Kb * td.cube.N);")
    b = build({"batch_gqa.cpp": src})
    assert b.ok, b.log[-3000:]
    rng = np.random.default_rng(9)
    batch, m, n, k = 4, 32, 48, 64
    a = rng.standard_normal((batch, m, k)).astype(np.float16)
    bm = rng.standard_normal((batch // 2, k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.uint32(batch).tobytes()
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.empty((batch, m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ref = a.astype(np.float64) @ np.repeat(bm.astype(np.float64), 2, axis=0)
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
