"""More of the Matmul API as public kernels spell it: dequantised int8 output (SetQuantScalar / SetQuantVector: int32
accumulators times a float scale on the way out of L0C), batches with the counts set beforehand (SetBatchNum +
IterateBatch(gm, enPartialSum, enAtomic, enSequentialWrite)), and the host tiling API's remaining setters
(MatmulConfigParams, scale operands, layouts on MultiCoreMatmulTiling, EnableMultiCoreSplitK)."""
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_quant.cpp"
BATCH_NUM = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_batch_num.cpp"
RNG = np.random.default_rng(15)


def _bits(x: np.ndarray) -> np.ndarray:
    "The uint64 a kernel passes for float scales: the float's bits in the low 32 bits."
    return np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)


@pytest.mark.parametrize("per_channel", [0, 1])
def test_int8_matmul_dequantised_to_half_matches_numpy(per_channel):
    m, n, k = 48, 64, 96
    a = RNG.integers(-128, 128, (m, k)).astype(np.int8)
    bt = RNG.integers(-128, 128, (n, k)).astype(np.int8)          # B^T in GM
    acc = a.astype(np.int64) @ bt.astype(np.int64).T
    scale = np.float32(1 / 1000)    # not exact in 10 mantissa bits
    col_scales = (RNG.uniform(0.5, 2.0, n) / 2048).astype(np.float32)
    # the NPU's Fixpipe multiplies by the scale in the (1, 8, 10) format: the low 13 mantissa bits are zero
    def hw(x): return (np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    used = col_scales if per_channel else np.full(n, scale, np.float32)
    assert (hw(used) != used).all()
    ref = (acc.astype(np.float32) * hw(used)).astype(np.float16)
    assert (ref != (acc.astype(np.float32) * used).astype(np.float16)).any()   # the 10 bits are visible in C
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    tiling += np.int32(per_channel).tobytes() + scale.tobytes()
    b = build(KERNEL, entry="matmul_dequant")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bt), GM("scales", _bits(col_scales)), GM("c", np.zeros((m, n), np.float16), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], ref)           # acc x scale in fp32, then one rounding to half
    # without the scale the output would be the raw accumulators (way past half's range): the scale was applied
    assert np.abs(r.outputs["c"].astype(np.float32)).max() < np.abs(acc).max() / 100


def test_iterate_batch_with_set_batch_num_broadcasts_b():
    batch, m, n, k = 3, 32, 48, 64
    a = RNG.standard_normal((batch, m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.int32(batch).tobytes()
    b = build(BATCH_NUM)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args = [GM("a", a), GM("b", bm), GM("c", np.zeros((batch, m, n), np.float32), "out"),
            GM("workspace", np.zeros(16, np.uint8), "workspace")]
    r = run(b, args + [Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
    # SetBatchNum(0, 1): the counts are missing -- a named error at the IterateBatch line
    bad = run(b, args + [Tiling(tiling[:-4] + np.int32(0).tobytes())], block_dim=1)
    errs = [d for d in bad.diagnostics if d.is_error]
    line = next(i for i, s in enumerate(BATCH_NUM.read_text().splitlines(), 1) if "mm.IterateBatch(cGm, false, 0, false);" in s)
    assert not bad.ok and errs[0].kind == "matmul-usage" and "SetBatchNum" in errs[0].message and errs[0].line == line


HOST = r'''
#include <cstdio>
#include "tiling/tiling_api.h"
using namespace matmul_tiling;
int main() {
    optiling::TCubeTiling t;
    MultiCoreMatmulTiling mm;
    mm.SetDim(4);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
    mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(256, 128, 64);
    mm.SetOrgShape(256, 128, 64);
    mm.EnableBias(false);
    mm.SetBufferSpace(-1, -1, -1);
    mm.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::INNER_PRODUCT, MatrixTraverse::FIRSTN, false));
    mm.EnableMultiCoreSplitK(false);
    mm.SetALayout(2, 256, 1, 1, 64);
    mm.SetBatchNum(2);
    long ok = mm.GetTiling(t);
    int32_t dim = 0, mDim = 0, nDim = 0;
    mm.GetCoreNum(dim, mDim, nDim);
    PlatformInfo small{platform_ascendc::SocVersion::ASCEND910B, 512 * 1024, 32 * 1024, 192 * 1024, 64 * 1024, 64 * 1024};
    MatmulApiTiling sized(small);                  // L0C of 32 KB: the base block shrinks to fit it
    sized.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    sized.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    sized.SetShape(128, 256, 64);
    optiling::TCubeTiling t3;
    sized.GetTiling(t3);
    if (t3.baseM * t3.baseN * 4 > 32 * 1024) return 3;
    MatmulApiTiling scaled;
    scaled.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT8_E4M3FN);
    scaled.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT8_E4M3FN);
    scaled.SetScaleAType(TPosition::GM, CubeFormat::ND);
    scaled.SetShape(64, 64, 64);
    optiling::TCubeTiling t2;
    long refused = scaled.GetTiling(t2);
    std::printf("%ld %d %d %d %d %d %d %ld\n", ok, t.iterateOrder, t.ALayoutInfoS, t.ALayoutInfoD, t.BatchNum, dim,
                t.singleCoreM * mDim >= 256 && t.singleCoreN * nDim >= 128, refused);
}
'''


def test_host_tiling_setters_public_projects_use(tmp_path):
    src = tmp_path / "host.cpp"
    src.write_text(HOST)
    exe = tmp_path / "host"
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), str(src), "-o", str(exe)], check=True, capture_output=True)
    done = subprocess.run([str(exe)], capture_output=True, text=True)
    ok, order, s, d, batch, dim, covers, refused = map(int, done.stdout.split())
    assert ok == 0 and order == 1                                 # FIRSTN from the config params struct
    assert (s, d, batch) == (256, 64, 2)                          # the layout and batch count reach the tiling
    assert 1 <= dim <= 4 and covers == 1
    assert refused == -1 and "not on Ascend 910B" in done.stderr  # fp8 with scales: GetTiling refuses, saying why


@pytest.mark.parametrize("entry", ["matmul_upper", "matmul_lower"])
def test_triangular_policy_computes_only_its_blocks(entry):
    m, n, k, base = 96, 128, 64, 32                     # 3 x 4 base blocks
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    before = RNG.standard_normal((m, n)).astype(np.float32)
    full = a.astype(np.float64) @ bm.astype(np.float64)
    rows, cols = np.arange(m)[:, None] // base, np.arange(n)[None, :] // base
    inside = rows <= cols if entry == "matmul_upper" else rows >= cols
    ref = np.where(inside, full, before)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=base,
                          baseN=base, baseK=base, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build(Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_triangle.cpp", entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", before.copy(), "inout"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
    assert 0 < inside.sum() < inside.size                 # both parts exist: the untouched one kept C's values


TRANSPOSE_LOAD = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void load_t(GM_ADDR b)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TQue<TPosition::B1, 1> l1;
    TQue<TPosition::B2, 1> l0b;
    pipe.InitBuffer(l1, 1, 32 * 32);
    pipe.InitBuffer(l0b, 1, 32 * 32);
    LocalTensor<int8_t> src = l1.AllocTensor<int8_t>();
    LocalTensor<int8_t> dst = l0b.AllocTensor<int8_t>();
    LoadData2dTransposeParams p;
    p.repeatTimes = 2; p.srcStride = 1; p.addrMode = 1;   // decreasing from square 0: square -1 does not exist
    LoadDataWithTranspose(dst, src, p);
}
'''


def test_load_data_with_transpose_decreasing_below_the_source_is_an_error_at_its_line():
    "LoadDataWithTranspose runs (tests/test_emu_cube.py); addrMode's decreasing addresses must stay inside the source."
    b = build({"load_t.cpp": TRANSPOSE_LOAD})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("b", np.zeros(16, np.int8))], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    line = next(i for i, s in enumerate(TRANSPOSE_LOAD.splitlines(), 1) if "LoadDataWithTranspose(dst" in s)
    assert not r.ok and errs[0].kind == "load-params" and "addrMode" in errs[0].message and errs[0].line == line


FILL = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fill_c(GM_ADDR c)
{
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float *)c, 100);
    Fill(cGm, 60, 2.5f);
}
'''


def test_fill_of_a_global_tensor_initialises_its_first_elements():
    "Fill(gm, size, value): the devkit's name for InitGlobalMemory, which split-K Matmul kernels call to zero C."
    b = build({"fill.cpp": FILL})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    c = np.full(100, -1.0, np.float32)
    r = run(b, [GM("c", c, "inout")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], np.r_[np.full(60, 2.5, np.float32), np.full(40, -1.0, np.float32)])


RELU = r'''
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace AscendC;
constexpr MatmulConfig GetReluConfig()
{
    MatmulConfig cfg = GetNormalConfig();
    cfg.enableRelu = true;
    return cfg;
}
constexpr MatmulConfig RELU_CFG = GetReluConfig();
extern "C" __global__ __aicore__ void matmul_relu_cfg(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, t.M * t.N);
    TPipe pipe;
    Matmul<AType, AType, CType, CType, RELU_CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
'''


def test_matmul_config_enable_relu_clamps_c_at_zero():
    m, n, k = 48, 80, 64
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    full = a.astype(np.float64) @ bm.astype(np.float64)
    assert (full < 0).any() and (full > 0).any()
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"relu.cpp": RELU})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.full((m, n), 7.0, np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], np.maximum(full, 0), rtol=1e-5, atol=1e-4)


# The forms the emulation accepts as AscendC spells them but does not run: each stops with a named error at its line.
NOT_RUN = {
    "IterateNBatch": "mm.IterateNBatch(1, td.batchA, 1, false);",
    "SetAntiQuantScalar": "mm.SetAntiQuantScalar(static_cast<half>(1.0f), static_cast<half>(0.0f));",
    "SetSparseIndex": "GlobalTensor<uint8_t> idx; idx.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(workspace), 16); "
                      "mm.SetSparseIndex(idx);",
}


@pytest.mark.parametrize("api", sorted(NOT_RUN))
def test_accepted_but_not_run_matmul_forms_stop_at_their_line(api, tmp_path):
    batch, m, n, k = 2, 32, 32, 32
    source = BATCH_NUM.read_text().replace("    mm.IterateBatch(cGm, false, 0, false);\n",
                                           f"    {NOT_RUN[api]}\n    mm.IterateBatch(cGm, false, 0, false);\n")
    kernel = tmp_path / f"{api}.cpp"
    kernel.write_text(source)
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.int32(batch).tobytes()
    r = run(b, [GM("a", np.ones((batch, m, k), np.float16)), GM("b", np.ones((k, n), np.float16)),
                GM("c", np.zeros((batch, m, n), np.float32), "out"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    line = next(i for i, s in enumerate(source.splitlines(), 1) if NOT_RUN[api] in s)
    assert not r.ok and errs[0].kind == "matmul-usage" and api in errs[0].message and errs[0].line == line


def test_get_offset_c_compiles_and_leaves_the_result_alone(tmp_path):
    "GetOffsetC (a debugging query whose fields AscendC reserves) answers zeros; the batch still computes."
    batch, m, n, k = 2, 32, 32, 32
    source = BATCH_NUM.read_text().replace("    mm.End();\n", "    MatrixOffset o = mm.GetOffsetC();\n"
                                           "    if (o.offset != 0 || o.row != 0) return;\n    mm.End();\n")
    kernel = tmp_path / "offset_c.cpp"
    kernel.write_text(source)
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    a = RNG.standard_normal((batch, m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.int32(batch).tobytes()
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((batch, m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)


# An MC2 kernel (cann-ops matmul_all_reduce): the Matmul's local work next to HCCL collective communication, which the
# emulator (one device) cannot do. The kernel compiles; the set-up runs (rank 0 of 1); a collective stops at its line.
# Like that kernel it defines its own AscendC::CFG_MDL and calls the Matmul library's Ceil / CeilAlign.
CEIL_CHECK = "    if (Ceil(td.batchA, 2) != 1 || Ceil(int64_t{33}, int64_t{16}) != 3 || CeilAlign(td.batchA + 1, 2) != 4) return;\n"
# As the MoE and all-reduce kernels of hicann ops-transformer, it also declares its GM windows to the OOM checker and
# names the RDMA descriptions of a context (compile only: there is no context, so nothing fills them).
HCCL_SETUP = ("    Hccl hccl;\n    hccl.Init(GetHcclContext<HCCL_GROUP_ID_0>(), nullptr);\n"
              "    if (hccl.GetRankId() != 0 || hccl.GetRankDim() != 1) return;\n"
              "    OOMCheckAddrRange((__gm__ uint8_t*)c, 64);\n"
              "    __gm__ IbVerbsData* verbs = (__gm__ IbVerbsData*)GetHcclContext<HCCL_GROUP_ID_0>();\n"
              "    static_assert(HCCL_MAX_RANK_NUM == 32 && CACHE_LINE_SIZE == 64, \"HCCL's and the cache line's sizes\");\n"
              "    if (verbs != nullptr && verbs->localOutput.key + verbs->remoteInput.size + verbs->localInput.addr) return;\n")
HCCL_ALL_REDUCE = "    HcclHandle h = hccl.AllReduce<true>(c, c, 8, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM);\n    hccl.Wait(h);\n"


@pytest.mark.parametrize("communicates", [False, True])
def test_hccl_kernels_compile_and_a_collective_is_a_named_error_at_its_line(communicates, tmp_path):
    batch, m, n, k = 2, 32, 32, 32
    source = BATCH_NUM.read_text().replace('#include "lib/matmul_intf.h"\n', '#include "lib/matmul_intf.h"\n'
                                           '#include "lib/hccl/hccl.h"\n\nnamespace AscendC {   // kernels name their own\n'
                                           'constexpr MatmulConfig CFG_MDL = GetMDLConfig(false, false, false, true);\n}\n')
    source = source.replace("    mm.SetTensorA(aGm);\n", CEIL_CHECK + "    mm.SetTensorA(aGm);\n")   # else C stays 0
    source = source.replace("    mm.End();\n", "    mm.End();\n" + HCCL_SETUP + (HCCL_ALL_REDUCE if communicates else "")
                            + "    hccl.Finalize();\n")
    kernel = tmp_path / "mc2.cpp"
    kernel.write_text(source)
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    a = RNG.standard_normal((batch, m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.int32(batch).tobytes()
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((batch, m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    if not communicates:
        assert r.ok, "\n".join(map(str, r.diagnostics))
        np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
    else:
        errs = [d for d in r.diagnostics if d.is_error]
        line = next(i for i, s in enumerate(source.splitlines(), 1) if "hccl.AllReduce" in s)
        assert not r.ok and errs[0].kind == "unsupported" and errs[0].line == line
        assert "Hccl::AllReduce" in errs[0].message and "not emulate" in errs[0].message


# cann-ops mat_mul_v3 / gemm_v2 copy through the device compiler's raw intrinsics (DataCopyPad on pointers) and use
# PRELOAD, a __BLOCK_LOCAL__ variable and the batch Matmul's 16-bit CeilDiv.
RAW_COPY = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
__BLOCK_LOCAL__ __inline__ int32_t calls;
extern "C" __global__ __aicore__ void raw_copy(GM_ADDR x, GM_ADDR y)
{
    PRELOAD(4);
    calls += 1;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<half> t = buf.Get<half>();
    // 3 bursts of 20 halves, 4 halves apart in GM; each lands on its own 64-byte UB row
    copy_gm_to_ubuf_align_b16((__ubuf__ void *)t.GetPhyAddr(), (__gm__ void *)x, 0, 3, 20 * sizeof(half), 0, 0,
                              4 * sizeof(half), DEFAULT_DATA_COPY_STRIDE);
    PipeBarrier<PIPE_ALL>();
    // back out with 2 halves between the bursts in GM (the gap in bytes), or 2 bursts only when CeilDiv truncated
    const uint16_t bursts = CeilDiv(uint32_t(65536 + 3), uint32_t(1)) == 3 ? 3 : 2;
    copy_ubuf_to_gm_align_b16((__gm__ void *)y, (__ubuf__ void *)t.GetPhyAddr(), 0, bursts * DEFAULT_DATA_COPY_NBURST,
                              20 * sizeof(half), 0, 0, 0, 2 * sizeof(half));
    if (calls != 1) y[0] = 0;
}
'''


def test_raw_copy_intrinsics_are_data_copy_pad_on_pointers():
    b = build({"raw_copy.cpp": RAW_COPY})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = RNG.standard_normal(3 * 24).astype(np.float16)
    r = run(b, [GM("x", x), GM("y", np.full(3 * 22, 7, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    y = r.outputs["y"]
    for i in range(3):   # burst i: 20 halves from x[24 i], written at y[22 i] (the 2-half gaps are not written)
        np.testing.assert_array_equal(y[22 * i:22 * i + 20], x[24 * i:24 * i + 20])


# A in TPosition::TSCM (asc-devkit matmul_tscm): the kernel copies A into an L1 queue of its own (TSCM<TPosition::GM>)
# and hands the Matmul that LocalTensor. The queue lives in L1 (512 KB), not UB (192 KB): a 256 KB A fits, and the
# Matmul computes from it (its first 32 x 32 elements in NZ; tests/test_matmul_api_local_operands.py checks the layout).
TSCM = r'''#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_tscm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), 128 * 1024);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.Kb * td.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), td.M * td.N);
    TPipe pipe;
    Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td);
    TSCM<TPosition::GM, 1> scm;
    pipe.InitBuffer(scm, 1, 128 * 1024 * sizeof(half));
    LocalTensor<half> s = scm.AllocTensor<half>();
    DataCopy(s, aGm, 128 * 1024);
    scm.EnQue(s);
    LocalTensor<half> sl = scm.DeQue<half>();
    mm.SetTensorA(sl);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
    scm.FreeTensor(sl);
}
'''


@pytest.mark.parametrize("cube_only", [True, False])
def test_a_tscm_queue_is_in_l1_and_a_matmul_reads_it(cube_only):
    # without ASCENDC_CUBE_ONLY (as asc-devkit matmul_tscm) the kernel is MIX and its AIVs fill the TSCM queue themselves
    m = n = k = 32
    src = TSCM if cube_only else TSCM.replace("#define ASCENDC_CUBE_ONLY\n", "")
    assert cube_only or "ASCENDC_CUBE_ONLY" not in src
    b = build({"tscm.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    r = run(b, [GM("a", np.ones(128 * 1024, np.float16)), GM("b", np.ones((k, n), np.float16)),
                GM("c", np.zeros((m, n), np.float32), "out"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    assert not [d for d in r.diagnostics if d.kind == "ub-overflow"]          # 256 KB: in L1, not in UB
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], np.full((m, n), k, np.float32))   # ones x ones: K in every element


def test_n_buffer_33_schedule_is_accepted_by_the_host_tiling(tmp_path):
    "MatmulConfigParams with ScheduleType::N_BUFFER_33 (asc-devkit matmul_nbuffer33): the tiling is still made."
    src = tmp_path / "nb33.cpp"
    src.write_text('#include "tiling/tiling_api.h"\n#include <cstdio>\nint main() {\n'
                   '    matmul_tiling::MultiCoreMatmulTiling t;\n    t.SetDim(1);\n'
                   '    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);\n'
                   '    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);\n'
                   '    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);\n'
                   '    t.SetShape(128, 128, 128);\n    t.SetOrgShape(128, 128, 128);\n'
                   '    t.SetMatmulConfigParams(matmul_tiling::MatmulConfigParams(1, false, matmul_tiling::ScheduleType::N_BUFFER_33,\n'
                   '                                                              matmul_tiling::MatrixTraverse::NOSET, false));\n'
                   '    optiling::TCubeTiling td;\n    long r = t.GetTiling(td);\n'
                   '    std::printf("%ld %d %d\\n", r, int(matmul_tiling::ScheduleType::N_BUFFER_33), td.get_baseM());\n}\n')
    exe = tmp_path / "nb33"
    cc = subprocess.run(["g++", "-std=c++17", f"-I{INCLUDE_DIR}", str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "0" and out[1] == "2" and int(out[2]) > 0


# int4 inputs (asc-devkit matmul_int4 / matmul_s4 on A2): two 4-bit integers per byte in GM, the even element in the
# low 4 bits, accumulated in int32. Two cores split M, so each core's A starts at aGm[element offset]: an offset into a
# GlobalTensor<int4b_t> counts 4-bit elements (half a byte each).
INT4 = r'''#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_int4(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(a), td.M * td.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(b), td.Kb * td.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(c), td.M * td.N);
    TPipe pipe;
    Matmul<AType, AType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td);
    const int32_t row = GetBlockIdx() * td.singleCoreM;
    mm.SetTensorA(aGm[row * td.Ka]);
    mm.SetTensorB(bGm, TRANS_B);
    mm.IterateAll(cGm[row * td.N]);
    mm.End();
}
'''


def _pack_int4(x: np.ndarray) -> np.ndarray:
    "Two per byte, the even element in the low 4 bits (AscendC's int4b_t in memory)."
    flat = (x.reshape(-1).astype(np.int16) & 0xF).astype(np.uint8)
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


@pytest.mark.parametrize("trans_b", [0, 1])
def test_int4_matmul_matches_numpy(trans_b):
    m, n, k = 64, 48, 96                                     # 2 cores x 32 rows; K odd multiples are not needed
    a = RNG.integers(-8, 8, (m, k)).astype(np.int8)
    bm = RNG.integers(-8, 8, (k, n)).astype(np.int8)
    assert (a < 0).any() and (bm == -8).any()               # the sign bit of a nibble matters
    b_stored = np.ascontiguousarray(bm.T) if trans_b else bm
    tiling = tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=m // 2, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"int4.cpp": INT4.replace("TRANS_B", "true" if trans_b else "false")})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", _pack_int4(a)), GM("b", _pack_int4(b_stored)), GM("c", np.zeros((m, n), np.int32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], a.astype(np.int32) @ bm.astype(np.int32))


def test_a_sparse_b_type_compiles_its_host_tiling_is_made_and_a_half_sparse_b_stops_at_its_line(tmp_path):
    """4:2 sparse Matmul (asc-devkit matmul_sparse, an A2 feature): SparseMatmulType compiles; the product is emulated
    for int8_t (tests/test_matmul_api_sparse.py), a half one stops at the IterateAll with a named error."""
    source = TSCM.replace("using AType = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;",
                          "using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;") \
                 .replace("using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;",
                          "using BType = SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, half, true>;") \
                 .replace("    mm.SetTensorA(sl);\n", "    mm.SetTensorA(aGm);\n    GlobalTensor<uint8_t> idx;\n"
                          "    idx.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(workspace), 16);\n    mm.SetSparseIndex(idx);\n")
    b = build({"sparse.cpp": source})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m = n = k = 32
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    r = run(b, [GM("a", np.ones(128 * 1024, np.float16)), GM("b", np.ones((k, n), np.float16)),
                GM("c", np.zeros((m, n), np.float32), "out"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    line = next(i for i, s in enumerate(source.splitlines(), 1) if "mm.IterateAll" in s)
    assert errs and errs[0].kind == "matmul-usage" and "4:2 sparse" in errs[0].message and errs[0].line == line, errs
    host = tmp_path / "sparse_host.cpp"
    host.write_text('#include "tiling/tiling_api.h"\n#include <cstdio>\nint main() {\n    matmul_tiling::MultiCoreMatmulTiling t;\n'
                    '    t.SetDim(1);\n    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_INT8);\n'
                    '    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_INT8, true);\n'
                    '    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_INT32);\n'
                    '    t.SetShape(128, 256, 64);\n    t.SetOrgShape(128, 256, 64);\n    t.SetSparse(true);\n'
                    '    optiling::TCubeTiling td;\n    std::printf("%ld\\n", long(t.GetTiling(td)));\n}\n')
    exe = tmp_path / "sparse_host"
    cc = subprocess.run(["g++", "-std=c++17", f"-I{INCLUDE_DIR}", str(host), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    assert subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split() == ["0"]


# ToMatmulConfig reads a Matmul's MM_CFG, a MatmulConfig or a constant tiling, at compile time (ops-nn batch_mat_mul_v3:
# `if constexpr (ToMatmulConfig(MM_CFG).bmmOutMode != BatchOutMode::SINGLE_BATCH) mm_.SetNBatchOutNum(n);`).
TO_CONFIG = r'''
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;   // a batch Matmul
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
constexpr MatmulConfig GetCfg()
{
    MatmulConfig cfg = GetNormalConfig();
    cfg.enableRelu = true;
    cfg.bmmOutMode = BatchOutMode::MULTI_BATCH;
    return cfg;
}
constexpr MatmulConfig CFG_RELU_MULTI = GetCfg();
constexpr static MatmulApiStaticTiling STATIC_RELU = GetMatmulApiTiling<AType, AType, CType, CType>(CFG_RELU_MULTI);
static_assert(ToMatmulConfig(STATIC_RELU).enableRelu && !ToMatmulConfig(CFG_NORM).enableRelu, "ToMatmulConfig");

template <const MatmulConfig& MM_CFG>
__aicore__ inline void Compute(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t)
{
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, t.M * t.N);
    TPipe pipe;
    Matmul<AType, AType, CType, CType, MM_CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if constexpr (ToMatmulConfig(MM_CFG).bmmOutMode != BatchOutMode::SINGLE_BATCH) {
        mm.SetNBatchOutNum(2);
    }
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateBatch(cGm, 1, 1, false);
    mm.End();
}
extern "C" __global__ __aicore__ void matmul_to_config(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    Compute<CFG_RELU_MULTI>(a, b, c, t);
}
'''


def test_to_matmul_config_reads_the_mm_cfg_at_compile_time_and_set_n_batch_out_num_is_accepted():
    m, n, k = 32, 48, 64
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    full = a.astype(np.float64) @ bm.astype(np.float64)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=16, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"to_config.cpp": TO_CONFIG})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.full((m, n), 7.0, np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], np.maximum(full, 0), rtol=1e-5, atol=1e-4)
    # a config that is not a MatmulConfig or a constant tiling has no ToMatmulConfig
    bad = build({"bad.cpp": TO_CONFIG.replace("ToMatmulConfig(CFG_NORM)", "ToMatmulConfig(3)")})
    assert not bad.ok and "ToMatmulConfig" in bad.errors[0].message
    # SetNBatchOutNum belongs to the batch Matmul (A's layout not LayoutMode::NONE), as in AscendC
    plain = build({"plain.cpp": TO_CONFIG.replace("half, false, LayoutMode::NORMAL>", "half>")})
    assert not plain.ok and "SetNBatchOutNum" in plain.errors[0].message


def test_iterate_batch_after_set_batch_num_with_integer_flags():
    # cann-ops BatchMatMulMultiBatchKernel on the cube core: SetBatchNum(n, n), then IterateBatch(c, 0, 0, 0, strideA,
    # strideB) -- the cube-side form (enPartialSum, enAtomic, enSequentialWrite) with its flags spelled as integers,
    # which the official MatmulImpl converts to bool / uint8_t; it stopped as "batch counts that do not broadcast"
    batch, m, n, k = 3, 32, 48, 64
    a = RNG.standard_normal((batch, m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.int32(batch).tobytes()
    text = BATCH_NUM.read_text()
    assert "mm.IterateBatch(cGm, false, 0, false);" in text
    b = build({BATCH_NUM.name: text.replace("mm.IterateBatch(cGm, false, 0, false);", "mm.IterateBatch(cGm, 0, 0, 0);")})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((batch, m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


BSNGD = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_batch_bsngd.cpp"


def test_iterate_batch_in_the_bsngd_layout_matches_numpy():
    "A, B^T and C in BSNGD (asc-devkit batch_matmul's layout): batch (b, n, g) strided through the tensors, one b per core."
    bb, s, n, g, d, s2 = 2, 32, 1, 3, 64, 48
    a = RNG.integers(-4, 5, (bb, s, n, g, d)).astype(np.float16)
    bt = RNG.integers(-4, 5, (bb, s2, n, g, d)).astype(np.float16)      # B transposed: S2 rows of D per batch
    ref = np.einsum("bsngd,btngd->bsngt", a.astype(np.float64), bt.astype(np.float64))   # C [B, S, N, G, S2]
    lay = dict(ALayoutInfoB=bb, ALayoutInfoS=s, ALayoutInfoN=n, ALayoutInfoG=g, ALayoutInfoD=d,
               BLayoutInfoB=bb, BLayoutInfoS=s2, BLayoutInfoN=n, BLayoutInfoG=g, BLayoutInfoD=d,
               CLayoutInfoB=bb, CLayoutInfoS1=s, CLayoutInfoN=n, CLayoutInfoG=g, CLayoutInfoS2=s2)
    tiling = tcube_tiling(usedCoreNum=bb, M=s, N=s2, Ka=d, Kb=d, singleCoreM=s, singleCoreN=s2, singleCoreK=d, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=n * g, **lay)
    b = build(BSNGD)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bt), GM("c", np.zeros((bb, s, n, g, s2), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=bb)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], ref)
