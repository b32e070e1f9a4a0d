"""The asc-devkit examples' newer API spellings, checked against NumPy (block_sync.h, reduce_repeat.h):
ReduceRepeat / ReduceDataBlock / ReducePairElem (the ReduceType-templated level-0 reductions), GetReduceRepeatSumSpr,
Compare into the compare-mask register + GetCmpMask, Compares, IBSet / IBWait between two blocks (and a wait nothing
releases), WaitPreBlock / NotifyNextBlock, GroupBarrier, Read/WriteGmByPassDCache and GetSystemCycle."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void newnames(GM_ADDR x, GM_ADDR sync, GM_ADDR red, GM_ADDR bits, GM_ADDR copied,
                                               GM_ADDR scal)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, ubw;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    pipe.InitBuffer(ubw, 32);
    GlobalTensor<float> xg, rg, cg;
    GlobalTensor<int32_t> sg, scg;
    GlobalTensor<uint8_t> bg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    rg.SetGlobalBuffer((__gm__ float *)red, 104);
    cg.SetGlobalBuffer((__gm__ float *)copied, 8);
    sg.SetGlobalBuffer((__gm__ int32_t *)sync, 64);
    scg.SetGlobalBuffer((__gm__ int32_t *)scal, 8);
    bg.SetGlobalBuffer((__gm__ uint8_t *)bits, 32);
    LocalTensor<float> a = buf.Get<float>(), d = a[256], tmp = a[512];
    LocalTensor<int32_t> w = ubw.Get<int32_t>();
    if (GetBlockIdx() == 0) {
        int64_t t0 = GetSystemCycle();
        DataCopy(a, xg, 256);
        Duplicate(d, -7.0f, 104);
        PipeBarrier<PIPE_V>();
        ReduceRepeat<ReduceType::SUM, float>(d, a, 64, 4, 1, 1, 8);                            // d[0..4)
        ReduceRepeat<ReduceType::MAX, float, float, true>(d[4], a, 64, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);  // d[4..8)
        ReduceDataBlock<ReduceType::MIN, float>(d[8], a, 64, 4, 1, 1, 8);                      // d[8..40)
        ReducePairElem<ReduceType::SUM, float>(d[40], a, 64, 2, 1, 1, 8);                       // d[40..104)
        ReduceSum(tmp, a, tmp[64], 256);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        float total = GetReduceRepeatSumSpr<float>();
        float older = GetAccVal<float>();     // its older name, as hicann ops-nn add_layer_norm reads it
        BinaryRepeatParams rp;
        LocalTensor<uint8_t> m = buf.GetWithOffset<uint8_t>(32, 3072);
        Compare(a, a[64], CMPMODE::LT, 64, rp);
        GetCmpMask(m);
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(rg, d, 104);
        DataCopy(bg, m, 32);
        WriteGmByPassDCache<int32_t>((__gm__ int32_t *)scal, static_cast<int32_t>(total * 1000));
        int64_t t1 = GetSystemCycle();
        WriteGmByPassDCache<int32_t>((__gm__ int32_t *)scal + 1, t1 > t0 ? 1 : 0);
        WriteGmByPassDCache<int32_t>((__gm__ int32_t *)scal + 2, static_cast<int32_t>(older * 1000));
        PipeBarrier<PIPE_ALL>();
        IBSet(sg, w, 0, 0);
    } else {
        IBWait(sg, w, 0, 0);
        DataCopy(a, rg, 8);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(cg, a, 8);
    }
}
'''


def test_new_reduce_names_compare_register_and_ib_flags_against_numpy():
    x = np.random.default_rng(8).uniform(-4, 4, 256).astype(np.float32)
    outs = [GM("red", np.zeros(104, np.float32), "out"), GM("bits", np.zeros(32, np.uint8), "out"),
            GM("copied", np.zeros(8, np.float32), "out"), GM("scal", np.zeros(8, np.int32), "out")]
    r = run(build({"newnames.cpp": KERNEL}), [GM("x", x), GM("sync", np.zeros(64, np.int32))] + outs, block_dim=2)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    red, rows = r.outputs["red"], x.reshape(4, 64)
    np.testing.assert_allclose(red[0:4], rows.sum(1), rtol=1e-5)
    np.testing.assert_array_equal(red[4:8], rows.max(1))
    np.testing.assert_array_equal(red[8:40], x.reshape(32, 8).min(1))
    np.testing.assert_allclose(red[40:104], x[:128][0::2] + x[:128][1::2], rtol=1e-6)
    assert abs(r.outputs["scal"][0] - x.sum() * 1000) <= max(2, abs(x.sum()) * 1000 * 1e-5)   # GetReduceRepeatSumSpr
    assert r.outputs["scal"][1] == 1                                                           # GetSystemCycle advances
    assert r.outputs["scal"][2] == r.outputs["scal"][0]                                        # GetAccVal<float>, the same
    want_bits = np.packbits(x[:64] < x[64:128], bitorder="little")
    np.testing.assert_array_equal(r.outputs["bits"][:8], want_bits)
    np.testing.assert_array_equal(r.outputs["bits"][8:16], 0)                                   # float: 64 lanes only
    np.testing.assert_array_equal(r.outputs["copied"], red[:8])                                  # block 1 after IBWait


WAIT_FIRST = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void waitfirst(GM_ADDR sync, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubw;
    pipe.InitBuffer(ubw, 32);
    GlobalTensor<int32_t> sg, yg;
    sg.SetGlobalBuffer((__gm__ int32_t *)sync, 64);
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    LocalTensor<int32_t> w = ubw.Get<int32_t>();
    if (GetBlockIdx() == 0) {
        IBWait(sg, w, 1, 0);
    } else {
        IBSet(sg, w, 1, 0);
    }
    yg.SetValue(GetBlockIdx(), 1);
}
'''


def test_a_wait_no_block_has_released_is_an_error_naming_the_flag():
    r = run(build({"waitfirst.cpp": WAIT_FIRST}), [GM("sync", np.zeros(64, np.int32)), GM("y", np.zeros(8, np.int32), "out")],
            block_dim=2)
    assert not r.ok
    e = [d for d in r.diagnostics if d.kind == "block-flag-wait"]
    assert e and "IBWait(blockIdx = 1, eventID = 0)" in e[0].message and "IBWait(sg, w, 1, 0)" in e[0].source_line


CHAIN = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void chain(GM_ADDR ws, GM_ADDR bar, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubw;
    pipe.InitBuffer(ubw, 32);
    GlobalTensor<int32_t> wg;
    wg.SetGlobalBuffer((__gm__ int32_t *)ws, 64);
    LocalTensor<int32_t> w = ubw.Get<int32_t>();
    __gm__ int32_t* out = (__gm__ int32_t *)y;
    int32_t b = GetBlockIdx();
    WaitPreBlock(wg, w);
    int32_t prev = b == 0 ? 0 : ReadGmByPassDCache<int32_t>(out + b - 1);   // the running sum of the blocks before
    WriteGmByPassDCache<int32_t>(out + b, prev + b + 1);
    NotifyNextBlock(wg, w);
    GroupBarrier<PipeMode::MTE3_MODE> g(bar, 2, 2);
    if (b < 2) g.Arrive(b); else g.Wait(b - 2);
}
'''


def test_wait_pre_block_chains_the_blocks_in_order_and_group_barrier_releases_after_the_arrivals():
    r = run(build({"chain.cpp": CHAIN}), [GM("ws", np.zeros(64, np.int32)), GM("bar", np.zeros(64, np.int32)),
                                          GM("y", np.zeros(4, np.int32), "out")], block_dim=4)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], np.cumsum([1, 2, 3, 4]))


TWICE_DECLARED = r'''
#include "kernel_operator.h"
using namespace AscendC;
#if MODE == 2
extern "C" __global__ __aicore__ void under_if(GM_ADDR y, int32_t v)
#else
extern "C" __global__ __aicore__ void under_if(GM_ADDR y, int32_t w)
#endif
{
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
#if MODE == 2
    yg.SetValue(0, v * 2);
#else
    yg.SetValue(0, w + 1);
#endif
}
'''


@pytest.mark.parametrize("mode, want", [(1, 8), (2, 14)])
def test_an_entry_declared_once_per_preprocessor_branch_is_found_and_runs_its_branch(mode, want):
    from ascendcraft.config import load_settings
    s = load_settings()
    b = build({"under_if.asc": TWICE_DECLARED}, "under_if", settings=s.replace(cxxflags=f"{s.cxxflags} -DMODE={mode}"))
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    r = run(b, [GM("y", np.zeros(8, np.int32), "out"), 7], block_dim=1)
    assert r.ok and r.outputs["y"][0] == want


ORDERED_WRITES = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ordered(GM_ADDR sync, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubw, ubv;
    pipe.InitBuffer(ubw, 32);
    pipe.InitBuffer(ubv, 32);
    GlobalTensor<int32_t> sg, yg;
    sg.SetGlobalBuffer((__gm__ int32_t *)sync, 64);
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    LocalTensor<int32_t> w = ubw.Get<int32_t>(), v = ubv.Get<int32_t>();
    int32_t b = GetBlockIdx();
    if (WAIT && b == 1) IBWait(sg, w, 0, 0);
    Duplicate(v, b + 1, 8);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yg, v, 8);            // both blocks write the same 32 bytes
    if (WAIT && b == 0) IBSet(sg, w, 0, 0);
}
'''


@pytest.mark.parametrize("wait", [1, 0])
def test_writes_ordered_by_ib_set_and_wait_are_no_overlap_and_unordered_ones_are(wait):
    from ascendcraft.config import load_settings
    s = load_settings()
    b = build({"ordered.cpp": ORDERED_WRITES}, settings=s.replace(cxxflags=f"{s.cxxflags} -DWAIT={wait}"))
    r = run(b, [GM("sync", np.zeros(64, np.int32)), GM("y", np.zeros(8, np.int32), "out")], block_dim=2)
    if wait:
        assert r.ok, "\n".join(d.render() for d in r.diagnostics)
        np.testing.assert_array_equal(r.outputs["y"], 2)   # block 1 writes after block 0
    else:
        assert not r.ok and any(d.kind == "gm-overlap" for d in r.diagnostics)


SELECT_REGISTER = r'''
#include "kernel_operator.h"
using namespace AscendC;
// hicann ops-math hans_decode's form: Compare into the compare-mask register, then Select<T, VSEL_CMPMASK_SPR> with no
// selMask tensor, every repeat selecting by the same register bits under the vector mask.
extern "C" __global__ __aicore__ void select_reg(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 512);
    yg.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> a = buf.Get<float>(), ones = a[512], zeros = a[640], d = a[768];
    DataCopy(a, xg, 512);
    Duplicate(ones, 1.0f, 128);
    Duplicate(zeros, 0.0f, 128);
    Duplicate(d, -5.0f, 256);
    PipeBarrier<PIPE_V>();
    Compare(a, a[64], CMPMODE::LE, 64, {1, 1, 1, 8, 8, 8});
    PipeBarrier<PIPE_V>();
    BinaryRepeatParams rp = {1, 1, 1, 8, 0, 0};   // the same 64 ones and zeros for each repeat
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(d, ones, zeros, 2, rp);
    SetVectorMask<float>(0, 0xFFFFFFFFULL);        // half the lanes: the others keep -5
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(d[128], a[256], a[384], 1, {1, 1, 1, 8, 8, 8});
    ResetMask();
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yg, d, 256);
}
'''


def test_select_by_the_compare_mask_register_without_a_sel_mask_tensor_matches_numpy():
    x = np.random.default_rng(9).uniform(-4, 4, 512).astype(np.float32)
    r = run(build({"select_reg.cpp": SELECT_REGISTER}), [GM("x", x), GM("y", np.zeros(256, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    bits = x[:64] <= x[64:128]
    np.testing.assert_array_equal(y[:128], np.tile(bits.astype(np.float32), 2))
    np.testing.assert_array_equal(y[128:160], np.where(bits[:32], x[256:288], x[384:416]))
    np.testing.assert_array_equal(y[160:256], -5.0)
    # the other modes of this form are not emulated: a named stop at the Select line
    bad = run(build({"select_reg.cpp": SELECT_REGISTER.replace("Select<float, SELMODE::VSEL_CMPMASK_SPR>(d, ones",
                                                               "Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(d, ones")}),
              [GM("x", x), GM("y", np.zeros(256, np.float32), "out")], block_dim=1)
    errs = [d for d in bad.diagnostics if d.is_error]
    assert errs and errs[0].kind == "unsupported" and "VSEL_CMPMASK_SPR" in errs[0].message
    assert "VSEL_TENSOR_TENSOR_MODE>(d, ones" in errs[0].source_line
