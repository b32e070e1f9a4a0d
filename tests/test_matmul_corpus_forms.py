"""Forms public Matmul / cube kernels write that the emulation now takes, each checked on numbers:
- REGIST_MATMUL_OBJ with the tiling as a `void*` (cann-ops / ops-math rfft1_d): the mixed form hands the address to the
  cube core's server, which reads a TCubeTiling there (the official headers accept it); under ASCENDC_CUBE_ONLY the
  pointer goes to Matmul::Init's `const TCubeTiling*`, which C++ does not convert a void* to (official: rejected);
- the device compiler's raw `set_atomic_none()` (LLM4AscendC Matmul kernels): later copies to GM overwrite again;
- AscendC's TrueType / FalseType / BoolInst tags, which cann-ops conv kernels compare with IsSameType in member-detection
  traits;
- DataCopy<dst_T, src_T> L1 -> bias table with both types named and equal (cann-ops conv3dv2's float bias).
"""
import numpy as np

from ascendcraft.emu import GM, Scalar, Tiling, build, run
from test_emu_cube import KERNELS, tcube_tiling
from test_matmul_api_regist import MIX_HALVES


def _mix_tiling(m, n, k):
    return tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=m // 2, singleCoreN=n, singleCoreK=k, baseM=32,
                        baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)


def test_a_void_pointer_tiling_in_the_mixed_form_is_read_as_a_tcube_tiling():
    src = MIX_HALVES.replace("REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);",
                             "TCubeTiling t2 = t;\n    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (void*)&t2);")
    assert "(void*)&t2" in src
    m, n, k = 64, 48, 32
    rng = np.random.default_rng(21)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    b = build({"mix_void.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(_mix_tiling(m, n, k))], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
    # two Matmuls in one registration, the second with a void* tiling too (rfft1_d registers up to four)
    two = src.replace("Matmul<AType, AType, CType> mm;", "Matmul<AType, AType, CType> mm, mm2;").replace(
        "mm, (void*)&t2);", "mm, (void*)&t2, mm2, (const void*)&t2);")
    assert "mm2, (const void*)&t2" in two
    b2 = build({"mix_two.cpp": two})
    assert b2.ok, "\n".join(map(str, b2.diagnostics))
    # cube-only: Matmul::Init takes a const TCubeTiling*, so a void* is a compile error that says so
    cube = build({"cube_void.cpp": src.replace('#include "lib/matmul_intf.h"',
                                                '#define ASCENDC_CUBE_ONLY\n#include "lib/matmul_intf.h"')})
    assert not cube.ok
    said = "\n".join(map(str, cube.diagnostics))
    assert "void*" in said and "const TCubeTiling*" in said


SET_ATOMIC_NONE = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t N = 64;
extern "C" __global__ __aicore__ void atomic_none(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, N);
    yg.SetGlobalBuffer((__gm__ float *)y, 2 * N);
    LocalTensor<float> a = q.AllocTensor<float>();
    DataCopy(a, xg, N);
    q.EnQue(a);
    a = q.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(yg, a, N);          // y[0:N] += x
    set_atomic_none();
    DataCopy(yg[N], a, N);       // y[N:2N] = x
    q.FreeTensor(a);
}
'''


def test_raw_set_atomic_none_ends_the_atomic_add():
    b = build({"atomic_none.cpp": SET_ATOMIC_NONE})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(5)
    x = rng.standard_normal(64).astype(np.float32)
    y0 = rng.standard_normal(128).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", y0, "inout")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["y"][:64], y0[:64] + x, rtol=1e-6)
    np.testing.assert_array_equal(r.outputs["y"][64:], x)


BOOL_TAGS = r'''#include "kernel_operator.h"
using namespace AscendC;
// a member-detection trait in the form of cann-ops conv3dv2's conv_framework_util.h
template <typename T> struct HasInit {
    template <typename U> static auto check(int) -> decltype(std::declval<U>().Init(), TrueType());
    template <typename U> static FalseType check(...);
    enum { value = IsSameType<decltype(check<T>(0)), TrueType>::value };
};
struct WithInit { void Init() {} };
struct WithoutInit {};
static_assert(IsSameType<TrueType::Type, BoolInst<true>>::value && !FalseType::value, "tags");
extern "C" __global__ __aicore__ void bool_tags(GM_ADDR out)
{
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    o.SetValue(0, HasInit<WithInit>::value);
    o.SetValue(1, HasInit<WithoutInit>::value);
    o.SetValue(2, TrueType::value + 2 * FalseType::value);
}
'''


def test_true_and_false_type_tags_drive_a_member_detection_trait():
    b = build({"bool_tags.cpp": BOOL_TAGS})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("out", np.full(8, -1, np.int32), "inout")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["out"][:3]) == [1, 0, 1]


def test_data_copy_naming_two_equal_types_fills_the_bias_table_from_float():
    "cube_gemm.cpp's bias path with a float bias in L1, copied by DataCopy<float, float> as conv3dv2 writes it."
    src = (KERNELS / "cube_gemm.cpp").read_text()
    edits = [("biasGm.SetGlobalBuffer((__gm__ half *)bias, N);", "biasGm.SetGlobalBuffer((__gm__ float *)bias, N);"),
             ("pipe.InitBuffer(inBias1, 1, N * sizeof(half));", "pipe.InitBuffer(inBias1, 1, N * sizeof(float));"),
             ("LocalTensor<half> l1Bias = inBias1.AllocTensor<half>();", "LocalTensor<float> l1Bias = inBias1.AllocTensor<float>();"),
             ("l1Bias = inBias1.DeQue<half>();", "l1Bias = inBias1.DeQue<float>();"),
             ("DataCopy(bt, l1Bias, DataCopyParams(1, N * sizeof(half) / 64, 0, 0));",
              "DataCopy<float, float>(bt, l1Bias, DataCopyParams(1, N * sizeof(float) / 64, 0, 0));"),
             ("GlobalTensor<half> biasGm;", "GlobalTensor<float> biasGm;")]
    for old, new in edits:
        assert src.count(old) == 1, old
        src = src.replace(old, new)
    b = build({"cube_gemm_fbias.cpp": src}, entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m, n, k = 32, 64, 64
    rng = np.random.default_rng(8)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bm = rng.standard_normal((k, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    r = run(b, [GM("a", a), GM("b", np.ascontiguousarray(bm.T)), GM("bias", bias), GM("c", np.empty((m, n), np.float32), "out"),
                Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64) + bias, rtol=1e-5, atol=1e-4)


TILING_BASE = r'''
#include <cstdio>
#include "tiling/tiling_api.h"
using namespace matmul_tiling;
// cann-ops quant_batch_matmul_v3's host form: one helper fills any tiling kind through a MatmulApiTilingBase&
static long fill(MatmulApiTilingBase& mm, optiling::TCubeTiling& t) {
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(512, 256, 128);
    mm.SetOrgShape(512, 256, 128);
    return mm.GetTiling(t);
}
int main() {
    MultiCoreMatmulTiling multi;
    multi.SetDim(8);
    MatmulApiTiling single;
    optiling::TCubeTiling tm, ts, direct;
    const long a = fill(multi, tm), b = fill(single, ts);
    MultiCoreMatmulTiling again;
    again.SetDim(8);
    again.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    again.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    again.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    again.SetShape(512, 256, 128);
    again.SetOrgShape(512, 256, 128);
    again.GetTiling(direct);
    std::printf("%ld %ld %d %d %d %d %d %d %d\n", a, b, tm.usedCoreNum, tm.singleCoreM, tm.singleCoreN, ts.usedCoreNum,
                ts.singleCoreM, ts.singleCoreN, direct.usedCoreNum == tm.usedCoreNum && direct.singleCoreM == tm.singleCoreM
                && direct.singleCoreN == tm.singleCoreN && direct.baseM == tm.baseM && direct.baseK == tm.baseK);
}
'''


def test_a_tiling_filled_through_the_base_class_reference_keeps_its_kind(tmp_path):
    "GetTiling through MatmulApiTilingBase& is the object's own: the multi-core split for MultiCoreMatmulTiling."
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    src = tmp_path / "t.cpp"
    src.write_text(TILING_BASE)
    exe = tmp_path / "t"
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), str(src), "-o", str(exe)], check=True, capture_output=True)
    out = [int(v) for v in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]
    ok_multi, ok_single, cores, sm, sn, cores1, sm1, sn1, same = out
    assert ok_multi == 0 and ok_single == 0 and same == 1
    assert 1 < cores <= 8 and (512 + sm - 1) // sm * ((256 + sn - 1) // sn) == cores   # the split covers C
    assert (cores1, sm1, sn1) == (1, 512, 256)                                         # one core: the whole shape


ASYNC_BLOCKS = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_async(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    if (GetBlockIdx() >= 1) return;                 // one AIV is the client of the whole C
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    GlobalTensor<uint8_t> wsGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, t.M * t.N);
    wsGm.SetGlobalBuffer((__gm__ uint8_t *)workspace, WS_BYTES);
    TPipe pipe;
    Matmul<AType, AType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetWorkspace(wsGm);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.template Iterate<false>();
    const int32_t mBlocks = (t.M + t.baseM - 1) / t.baseM, nBlocks = (t.N + t.baseN - 1) / t.baseN;
    for (int32_t i = 0; i < mBlocks * nBlocks; ++i) {
        const int32_t bm = i % mBlocks, bn = i / mBlocks;   // iterateOrder 0: along M first
        const int32_t rows = t.M - bm * t.baseM < t.baseM ? t.M - bm * t.baseM : t.baseM;
        const int32_t cols = t.N - bn * t.baseN < t.baseN ? t.N - bn * t.baseN : t.baseN;
        GlobalTensor<float> blk = mm.GetTensorC();       // rows x cols, row stride cols
        for (int32_t r = 0; r < rows; ++r)
            for (int32_t k = 0; k < cols; ++k)
                cGm.SetValue((bm * t.baseM + r) * t.N + bn * t.baseN + k, blk.GetValue(r * cols + k));
    }
    mm.End();
}
'''


def _async_run(src, m, n, k, ws_bytes):
    a_, b_ = np.random.default_rng(13).standard_normal((2, max(m, k), max(k, n))).astype(np.float16)
    a, bm = np.ascontiguousarray(a_[:m, :k]), np.ascontiguousarray(b_[:k, :n])
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"mm_async.cpp": src.replace("WS_BYTES", str(ws_bytes))})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                GM("workspace", np.zeros(ws_bytes, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    return r, a.astype(np.float64) @ bm.astype(np.float64)


def test_the_asynchronous_get_tensor_c_hands_each_block_back_in_the_workspace():
    m, n, k = 64, 80, 64                     # 2 x 2 blocks of 32 x 48; the second column of blocks is 32 wide
    r, ref = _async_run(ASYNC_BLOCKS, m, n, k, 4 * 32 * 48 * 4)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
    # a workspace with room for three blocks: the fourth GetTensorC() is a usage error
    r, _ = _async_run(ASYNC_BLOCKS, m, n, k, 3 * 32 * 48 * 4)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "matmul-usage" and "no room" in errs[0].message
    # the cube-only Matmul has no such form (AscendC's MatmulImpl: GetTensorC writes to a given tensor only)
    cube = build({"cube_async.cpp": ASYNC_BLOCKS.replace("WS_BYTES", "1024").replace(
        '#include "lib/matmul_intf.h"', '#define ASCENDC_CUBE_ONLY\n#include "lib/matmul_intf.h"')})
    assert not cube.ok and "GetTensorC" in "\n".join(map(str, cube.diagnostics))


def test_load_data_2d_with_the_compilers_inc_address_mode():
    "LoadData2dParams{..., inc} as stft writes it: the same numbers as addrMode 0; dec stops at its line (not emulated)."
    src = (KERNELS / "cube_gemm.cpp").read_text()
    old = "        LoadData2DParams p;\n        if constexpr (wrongA) {"
    assert src.count(old) == 1
    inc = src.replace(old, "        LoadData2dParams p = {0, 1, 1, 0, 0, false, inc};\n        if constexpr (wrongA) {")
    m, n, k = 32, 64, 64
    rng = np.random.default_rng(17)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    ref = a.astype(np.float64) @ bt.astype(np.float64).T
    b = build({"cube_gemm_inc.cpp": inc}, entry="gemm_f16_bt_f32")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args = [GM("a", a), GM("b", bt), GM("c", np.empty((m, n), np.float32), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
    bd = build({"cube_gemm_dec.cpp": inc.replace("false, inc};", "false, dec};")}, entry="gemm_f16_bt_f32")
    assert bd.ok, "\n".join(map(str, bd.diagnostics))
    rd = run(bd, args, block_dim=1)
    errs = [d for d in rd.diagnostics if d.is_error]
    assert not rd.ok and "addrMode = dec" in errs[0].message


CONV_CONSTANTS = r'''#include "kernel_operator.h"
using namespace AscendC;
ENABLE_DETERMINISTIC();
extern "C" __global__ __aicore__ void conv_constants(GM_ADDR out)
{
    ENABLE_DETERMINISTIC();
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    o.SetValue(0, TOTAL_UB_SIZE / HALF_FACTOR);      // conv3d_backprop_input_v2's halfUbSize
    o.SetValue(1, HALF_FACTOR);
}
'''


def test_half_factor_and_enable_deterministic_as_conv_backprop_kernels_use_them():
    b = build({"conv_constants.cpp": CONV_CONSTANTS})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("out", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["out"][:2]) == [96 * 1024, 2]


ASYNC_UB = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_async_ub(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    if (GetBlockIdx() >= 1) return;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    GlobalTensor<uint8_t> wsGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, 2 * t.M * t.N);
    wsGm.SetGlobalBuffer((__gm__ uint8_t *)workspace, 4 * t.baseM * t.baseN * sizeof(float));
    TPipe pipe;
    TQue<TPosition::VECIN, 1> cQue;
    pipe.InitBuffer(cQue, 1, t.baseM * t.baseN * sizeof(float));
    Matmul<AType, AType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetWorkspace(wsGm);
    const int32_t mBlocks = t.M / t.baseM, nBlocks = t.N / t.baseN;
    for (int32_t pass = 0; pass < 2; ++pass) {       // pass 0: Iterate<false>() once; pass 1: a while loop of them
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        int32_t i = 0;
        if (pass == 0) mm.template Iterate<false>();
        while (pass == 0 ? i < mBlocks * nBlocks : mm.template Iterate<false>()) {
            const int32_t bm = i % mBlocks, bn = i / mBlocks;   // iterateOrder 0: along M first
            LocalTensor<float> blk = cQue.AllocTensor<float>();
            mm.template GetTensorC<false>(blk);                 // baseM x baseN, row stride baseN
            mm.WaitGetTensorC();
            cQue.EnQue(blk);
            LocalTensor<float> got = cQue.DeQue<float>();
            for (int32_t r = 0; r < t.baseM; ++r)
                DataCopy(cGm[pass * t.M * t.N + (bm * t.baseM + r) * t.N + bn * t.baseN], got[r * t.baseN], t.baseN);
            cQue.FreeTensor(got);
            ++i;
        }
    }
    mm.End();
}
'''


def test_an_asynchronous_iterate_hands_its_blocks_to_get_tensor_c_into_ub_one_after_another():
    # sgl-kernel-npu's lora sgemmc kernels: `mm.template Iterate<false>();` once, then per block
    # `mm.template GetTensorC<false>(ub); mm.WaitGetTensorC();` (AscendC's documented asynchronous form): each call takes
    # the next block (the emulation gave the first block every time); a while loop of Iterate<false>() counts the blocks
    m, n, k = 64, 96, 64                     # 2 x 2 blocks of 32 x 48
    rng = np.random.default_rng(29)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=48, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    b = build({"mm_async_ub.cpp": ASYNC_UB})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((2, m, n), np.float32), "out"),
                GM("workspace", np.zeros(4 * 32 * 48 * 4, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    np.testing.assert_allclose(r.outputs["c"][0], ref, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(r.outputs["c"][1], ref, rtol=1e-5, atol=1e-4)
    # a fifth GetTensorC after the four blocks: a named usage error, not the first block again
    five = ASYNC_UB.replace("while (pass == 0 ? i < mBlocks * nBlocks", "while (pass == 0 ? i <= mBlocks * nBlocks")
    b5 = build({"mm_async_five.cpp": five})
    r5 = run(b5, [GM("a", a), GM("b", bm), GM("c", np.zeros((2, m, n), np.float32), "out"),
                  GM("workspace", np.zeros(4 * 32 * 48 * 4, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    errs = [d for d in r5.diagnostics if d.is_error]
    assert not r5.ok and errs[0].kind == "matmul-usage" and "GetTensorC" in errs[0].message
