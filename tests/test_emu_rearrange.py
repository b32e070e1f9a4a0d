"""GatherMask and the BroadCast advanced API (public kernels: ComplexMatDot, GeGluV2, MaskedSelectV3 and TopKV3 pick
elements with GatherMask; the RmsNorm / LayerNorm families broadcast a row or a column with BroadCast), checked
against NumPy, as priced instructions in the trace, and with their documented misuses stopping at the call. Also the
logarithms in place (ForeachLog*), which A2 computes element by element; TransDataTo5HD (ScatterList, GeGluGradV2,
LayerNormV4); the advanced last-axis Sum and Mean (FeedsRepeat, MulMulReduceMeanDTwice)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, op_names, run, trace

GATHER = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void gather_mask(GM_ADDR x, GM_ADDR xh, GM_ADDR p, GM_ADDR y, GM_ADDR yh, GM_ADDR cnt)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 1024);
    GlobalTensor<float> xg, yg; GlobalTensor<half> xhg, yhg; GlobalTensor<uint32_t> pg; GlobalTensor<int32_t> cg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    xhg.SetGlobalBuffer((__gm__ half *)xh, 256);
    pg.SetGlobalBuffer((__gm__ uint32_t *)p, 16);
    yg.SetGlobalBuffer((__gm__ float *)y, 768);
    yhg.SetGlobalBuffer((__gm__ half *)yh, 256);
    cg.SetGlobalBuffer((__gm__ int32_t *)cnt, 8);
    LocalTensor<float> a = buf.Get<float>(), d0 = a[256], d1 = a[512], d2 = a[768];
    LocalTensor<half> h = a[1024].ReinterpretCast<half>(), hd = a[1280].ReinterpretCast<half>();
    LocalTensor<uint32_t> pat = a[1536].ReinterpretCast<uint32_t>();
    DataCopy(a, xg, 256);
    DataCopy(h, xhg, 256);
    DataCopy(pat, pg, 16);
    PipeBarrier<PIPE_ALL>();
    uint64_t n0 = 0, n1 = 0, n2 = 0, n3 = 0;
    GatherMask(d0, a, 2, false, 0, {1, 4, 8, 0}, n0);          // normal mode, built-in 2: odd elements of 4 x 64
    GatherMask(d1, a, pat, true, 100, {1, 2, 8, 1}, n1);       // counter mode: 100 elements a repeat, own bits a repeat
    const int64_t reg1 = AscendCUtils::GetRsvdCnt();            // the reserved-count register: the last GatherMask's count
    GatherMask(d2, a, 4, false, 0, {1, 2, 16, 0}, n2);         // the second of every four, repeats 512 bytes apart
    GatherMask(hd, h, pat.ReinterpretCast<uint16_t>(), false, 0, {1, 2, 8, 0}, n3);  // half: the same 128 bits twice
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d0, 256);
    DataCopy(yg[256], d1, 256);
    DataCopy(yg[512], d2, 256);
    DataCopy(yhg, hd, 256);
    cg.SetValue(0, (int32_t)n0); cg.SetValue(1, (int32_t)n1); cg.SetValue(2, (int32_t)n2); cg.SetValue(3, (int32_t)n3);
    cg.SetValue(4, (int32_t)reg1); cg.SetValue(5, (int32_t)AscendCUtils::GetRsvdCnt());
}
'''


def _gather_args(x, xh, p):
    return [GM("x", x), GM("xh", xh), GM("p", p), GM("y", np.zeros(768, np.float32), "out"),
            GM("yh", np.zeros(256, np.float16), "out"), GM("cnt", np.zeros(8, np.int32), "out")]


@pytest.fixture(scope="module")
def gather(tmp_path_factory):
    src = tmp_path_factory.mktemp("gm") / "gather_mask.cpp"
    src.write_text(GATHER)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _bits(words, n):
    return np.unpackbits(np.asarray(words).view(np.uint8), bitorder="little")[:n].astype(bool)


def test_gather_mask_keeps_the_selected_elements_packed(gather):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(256).astype(np.float32)
    xh = rng.standard_normal(256).astype(np.float16)
    p = rng.integers(0, 2 ** 32, 16, dtype=np.uint64).astype(np.uint32)
    r = run(gather, _gather_args(x, xh, p), block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y, yh, cnt = r.outputs["y"], r.outputs["yh"], r.outputs["cnt"]
    np.testing.assert_array_equal(y[:128], x[1::2])
    assert cnt[0] == 128
    # counter mode: repeat r takes 100 elements from 256 * r bytes on, with the pattern bits from 32 * r bytes on
    want = np.concatenate([x[64 * r:64 * r + 100][_bits(p[8 * r:], 100)] for r in range(2)])
    assert cnt[1] == len(want)
    np.testing.assert_array_equal(y[256:256 + len(want)], want)
    # built-in 4 (element 1 of every four) on repeats of 64 elements that start 128 elements apart
    want2 = np.concatenate([x[128 * r:128 * r + 64][1::4] for r in range(2)])
    assert cnt[2] == 32
    np.testing.assert_array_equal(y[512:544], want2)
    # half with a uint16_t pattern: 128 elements a repeat, src1RepeatStride 0 reuses the same 128 bits
    keep = _bits(p, 128)
    want3 = np.concatenate([xh[:128][keep], xh[128:][keep]])
    assert cnt[3] == len(want3)
    assert (cnt[4], cnt[5]) == (cnt[1], cnt[3])   # AscendCUtils::GetRsvdCnt() after each
    np.testing.assert_array_equal(yh[:len(want3)], want3)


def test_gather_mask_is_vector_work_in_the_trace(gather):
    z = np.zeros(256, np.float32)
    t = trace(gather, _gather_args(z, z.astype(np.float16), np.zeros(16, np.uint32)), block_dim=1)
    names = op_names()
    ops = [names[o] for o in t.records["op"]]
    assert ops.count("GatherMask") == 4


MISUSE = GATHER.replace("GatherMask(d0, a, 2, false", "GatherMask(d0, a, 9, false")


def test_a_built_in_pattern_outside_1_to_7_stops_at_the_call(tmp_path):
    src = tmp_path / "bad.cpp"
    src.write_text(MISUSE)
    b = build(src)
    assert b.ok
    z = np.zeros(256, np.float32)
    r = run(b, _gather_args(z, z.astype(np.float16), np.zeros(16, np.uint32)), block_dim=1)
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == "bad-argument" and "pattern 9" in e[0].message and "GatherMask(d0, a, 9" in e[0].source_line


def test_a_pattern_tensor_of_the_wrong_width_stops_at_the_call(tmp_path):
    "CANN's headers accept any pattern type; A2 reads uint16_t bits for 2-byte elements, uint32_t for 4-byte ones."
    src = tmp_path / "bad_type.cpp"
    src.write_text(GATHER.replace("GatherMask(d1, a, pat,", "GatherMask(d1, a, pat.ReinterpretCast<uint16_t>(),"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    z = np.zeros(256, np.float32)
    r = run(b, _gather_args(z, z.astype(np.float16), np.zeros(16, np.uint32)), block_dim=1)
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == "unsupported" and "uint32_t for 4-byte" in e[0].message and "GatherMask(d1" in e[0].source_line


BROADCAST = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broadcast(GM_ADDR col, GM_ADDR row, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 5 * 16 * 16 * 4);
    pipe.InitBuffer(tmp, 4096);
    GlobalTensor<float> cg, rg, yg;
    cg.SetGlobalBuffer((__gm__ float *)col, 16);
    rg.SetGlobalBuffer((__gm__ float *)row, 16);
    yg.SetGlobalBuffer((__gm__ float *)y, 3 * 256);
    LocalTensor<float> c = buf.Get<float>(), r = c[256], d0 = c[512], d1 = c[768], d2 = c[1024];
    DataCopy(c, cg, 16);
    DataCopy(r, rg, 16);
    DataCopy(d2, rg, 16);
    PipeBarrier<PIPE_ALL>();
    const uint32_t colShape[2] = {16, 1}, rowShape[2] = {1, 16}, full[2] = {16, 16};
    LocalTensor<uint8_t> t = tmp.Get<uint8_t>();
    BroadCast<float, 2, 1>(d0, c, full, colShape, t);    // [16, 1] -> [16, 16]
    Broadcast<float, 2, 0>(d1, r, full, rowShape);       // [1, 16] -> [16, 16]
    BroadCast<float, 2, 0>(d2, d2, full, rowShape, t);   // in place: the row is dst's first row
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d0, 256);
    DataCopy(yg[256], d1, 256);
    DataCopy(yg[512], d2, 256);
}
'''


def test_broadcast_stretches_a_column_and_a_row(tmp_path):
    src = tmp_path / "broadcast.cpp"
    src.write_text(BROADCAST)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    col = np.arange(16, dtype=np.float32) + 0.5
    row = -np.arange(16, dtype=np.float32) * 2
    r = run(b, [GM("col", col), GM("row", row), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"].reshape(3, 16, 16)
    np.testing.assert_array_equal(y[0], np.broadcast_to(col[:, None], (16, 16)))
    np.testing.assert_array_equal(y[1], np.broadcast_to(row[None, :], (16, 16)))
    np.testing.assert_array_equal(y[2], y[1])
    warned = [d for d in r.diagnostics if d.kind == "adv-in-place"]
    assert len(warned) == 1 and warned[0].severity == "warning" and "BroadCast" in warned[0].source_line
    t = trace(b, [GM("col", col), GM("row", row), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    assert [op_names()[o] for o in t.records["op"]].count("BroadCast") == 3


@pytest.mark.parametrize("edit,kind,words", [
    ("BroadCast<float, 2, 1>(d0, c, full, colShape, t);", "bad-argument", "does not broadcast"),
    ("BroadCast<float, 2, 1>(d0, d0[8], full, colShape, t);", "adv-overlap", "dst and src overlap"),
])
def test_broadcast_misuse_stops_at_the_call(tmp_path, edit, kind, words):
    bad = BROADCAST.replace("const uint32_t colShape[2] = {16, 1}", "const uint32_t colShape[2] = {16, 1}, wrong[2] = {8, 1}")
    if kind == "bad-argument":
        bad = bad.replace("BroadCast<float, 2, 1>(d0, c, full, colShape, t);", "BroadCast<float, 2, 1>(d0, c, full, wrong, t);")
    else:
        bad = bad.replace("BroadCast<float, 2, 1>(d0, c, full, colShape, t);", edit)
    src = tmp_path / "bad.cpp"
    src.write_text(bad)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    z = np.zeros(16, np.float32)
    r = run(b, [GM("col", z), GM("row", z), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == kind and words in e[0].message and "BroadCast<float, 2, 1>(d0" in e[0].source_line


LOGS = r'''#include "kernel_operator.h"
using namespace AscendC;
// ForeachLog / Log2 / Log10 keep one UB tile and write the result over the input.
extern "C" __global__ __aicore__ void logs(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 3 * 256 * sizeof(float));
    pipe.InitBuffer(tmp, 8192);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 768);
    LocalTensor<float> a = buf.Get<float>(), b = a[256], c = a[512];
    DataCopy(a, xg, 256);
    DataCopy(b, xg, 256);
    DataCopy(c, xg, 256);
    PipeBarrier<PIPE_ALL>();
    Log(a, a, 256);
    Log2(b, b, tmp.Get<uint8_t>(), 256);
    Log10(c, c, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, a, 768);
}
'''


def test_logarithms_in_place_run_as_on_the_npu_with_a_warning(tmp_path):
    src = tmp_path / "logs.cpp"
    src.write_text(LOGS)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(4).uniform(0.1, 20, 256).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_allclose(y[:256], np.log(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y[256:512], np.log2(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y[512:], np.log10(x), rtol=1e-5, atol=1e-6)
    warned = [d.source_line.strip().split("(")[0] for d in r.diagnostics if d.kind == "adv-in-place"]
    assert warned == ["Log", "Log2", "Log10"]
    # a shifted overlap is still an error: dst starts one element into the source
    src.write_text(LOGS.replace("Log10(c, c, 256);", "Log10(c[8], c, 200);"))
    bad = run(build(src), [GM("x", x), GM("y", np.zeros(768, np.float32), "out")], block_dim=1)
    e = [d for d in bad.diagnostics if d.is_error]
    assert e and e[0].kind == "adv-overlap" and "Log10" in e[0].message


TRANS5HD = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void trans5hd(GM_ADDR xh, GM_ADDR xf, GM_ADDR xb, GM_ADDR yh, GM_ADDR yf, GM_ADDR yb)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * 1024);
    GlobalTensor<half> xhg, yhg; GlobalTensor<float> xfg, yfg; GlobalTensor<uint8_t> xbg, ybg;
    xhg.SetGlobalBuffer((__gm__ half *)xh, 256); yhg.SetGlobalBuffer((__gm__ half *)yh, 256);
    xfg.SetGlobalBuffer((__gm__ float *)xf, 128); yfg.SetGlobalBuffer((__gm__ float *)yf, 128);
    xbg.SetGlobalBuffer((__gm__ uint8_t *)xb, 512); ybg.SetGlobalBuffer((__gm__ uint8_t *)yb, 512);
    LocalTensor<half> h = buf.Get<half>(), hd = h[256];
    LocalTensor<float> f = h[512].ReinterpretCast<float>(), fd = f[128];
    LocalTensor<uint8_t> b = h[1024].ReinterpretCast<uint8_t>(), bd = b[512];
    DataCopy(h, xhg, 256); DataCopy(f, xfg, 128); DataCopy(b, xbg, 512);
    Duplicate(bd.ReinterpretCast<half>(), (half)0, 256);
    PipeBarrier<PIPE_ALL>();
    TransDataTo5HDParams p(false, false, 1, 0, 0);
    LocalTensor<half> hs[16], hdl[16];                       // LocalTensor lists: a 16 x 16 transpose
    for (int i = 0; i < 16; ++i) { hs[i] = h[16 * i]; hdl[i] = hd[16 * i]; }
    TransDataTo5HD<half>(hdl, hs, p);
    uint64_t fs[16], fdl[16];                                // address lists: 16 x 8 floats -> 8 rows of 16
    for (int i = 0; i < 16; ++i) { fs[i] = f[8 * i].GetPhyAddr(); fdl[i] = fd[8 * i].GetPhyAddr(); }
    TransDataTo5HD<float>(fdl, fs, p);
    __ubuf__ uint8_t* bs[16]; __ubuf__ uint8_t* bdl[16];      // bytes, the devkit's Impl with __ubuf__ pointers
    for (int i = 0; i < 16; ++i) { bs[i] = (__ubuf__ uint8_t*)b[32 * i].GetPhyAddr(); bdl[i] = (__ubuf__ uint8_t*)bd[32 * i].GetPhyAddr(); }
    TransDataTo5HDImpl(bdl, bs, TransDataTo5HDParams(true, false, 1, 0, 0));   // low halves in, upper halves out
    PipeBarrier<PIPE_ALL>();
    DataCopy(yhg, hd, 256); DataCopy(yfg, fd, 128); DataCopy(ybg, bd, 512);
}
'''


def test_trans_data_to_5hd_transposes_blocks(tmp_path):
    src = tmp_path / "trans5hd.cpp"
    src.write_text(TRANS5HD)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    xh = np.arange(256).astype(np.float16)
    xf = np.arange(128).astype(np.float32)
    xb = (np.arange(512) % 251).astype(np.uint8)
    args = [GM("xh", xh), GM("xf", xf), GM("xb", xb), GM("yh", np.zeros(256, np.float16), "out"),
            GM("yf", np.zeros(128, np.float32), "out"), GM("yb", np.zeros(512, np.uint8), "out")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["yh"].reshape(16, 16), xh.reshape(16, 16).T)
    # floats: element k of sources 0..7 fills destination block 2k, of sources 8..15 block 2k + 1
    np.testing.assert_array_equal(r.outputs["yf"].reshape(8, 16), xf.reshape(16, 8).T)
    # bytes: element k of the 16 sources' low halves fills the upper half of destination block k
    yb = r.outputs["yb"].reshape(16, 32)
    np.testing.assert_array_equal(yb[:, 16:], xb.reshape(16, 32)[:, :16].T)
    assert not yb[:, :16].any()
    t = trace(b, args, block_dim=1)
    assert [op_names()[o] for o in t.records["op"]].count("TransDataTo5HD") == 3


ROWS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rows(GM_ADDR x, GM_ADDR xh, GM_ADDR y, GM_ADDR yh)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 4 * 1024);
    pipe.InitBuffer(tmp, 4096);
    GlobalTensor<float> xg, yg; GlobalTensor<half> xhg, yhg;
    xg.SetGlobalBuffer((__gm__ float *)x, 3 * 24); yg.SetGlobalBuffer((__gm__ float *)y, 16);
    xhg.SetGlobalBuffer((__gm__ half *)xh, 2 * 32); yhg.SetGlobalBuffer((__gm__ half *)yh, 16);
    LocalTensor<float> a = buf.Get<float>(), s = a[128], m = a[160];
    LocalTensor<half> h = a[256].ReinterpretCast<half>(), hm = a[320].ReinterpretCast<half>();
    DataCopy(a, xg, 3 * 24);
    DataCopy(h, xhg, 2 * 32);
    PipeBarrier<PIPE_ALL>();
    SumParams sp{3, 24, 21};                       // 3 rows of 21 floats, padded to 24
    Sum(s, a, sp);
    MeanParams mp; mp.outter = 3; mp.inner = 24; mp.n = 21;
    Mean<float>(m, a, tmp.Get<uint8_t>(), mp);
    MeanParams hp; hp.outter = 2; hp.inner = 32; hp.n = 30;
    Mean<half, float>(hm, h, hp);                  // half rows computed in float
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, s, 8);
    DataCopy(yg[8], m, 8);
    DataCopy(yhg, hm, 16);
}
'''


def test_sum_and_mean_reduce_each_row_to_one_value(tmp_path):
    src = tmp_path / "rows.cpp"
    src.write_text(ROWS)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, 72).astype(np.float32)
    xh = rng.uniform(-2, 2, 64).astype(np.float16)
    args = [GM("x", x), GM("xh", xh), GM("y", np.zeros(16, np.float32), "out"), GM("yh", np.zeros(16, np.float16), "out")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    rows = x.reshape(3, 24)[:, :21].astype(np.float64)
    np.testing.assert_allclose(r.outputs["y"][:3], rows.sum(1), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(r.outputs["y"][8:11], rows.mean(1), rtol=1e-6, atol=1e-6)
    hrows = xh.reshape(2, 32)[:, :30].astype(np.float64)
    np.testing.assert_allclose(r.outputs["yh"][:2].astype(np.float64), hrows.mean(1), rtol=2e-3, atol=1e-3)
    t = trace(b, args, block_dim=1)
    ops = [op_names()[o] for o in t.records["op"]]
    assert ops.count("Sum") == 1 and ops.count("Mean") == 2


def test_an_inner_length_that_is_not_n_padded_to_32_bytes_stops_at_the_call(tmp_path):
    src = tmp_path / "rows.cpp"
    src.write_text(ROWS.replace("SumParams sp{3, 24, 21};", "SumParams sp{3, 21, 21};"))
    b = build(src)
    z = np.zeros(72, np.float32)
    r = run(b, [GM("x", z), GM("xh", np.zeros(64, np.float16)), GM("y", np.zeros(16, np.float32), "out"),
                GM("yh", np.zeros(16, np.float16), "out")], block_dim=1)
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == "bad-argument" and "inner = 21" in e[0].message and "Sum(s, a, sp)" in e[0].source_line


STACK = r'''#include "kernel_operator.h"
using namespace AscendC;
constexpr TPosition kNone[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
                                TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};
constexpr TQueConfig kConf{false, false, false, 0, 1, 0, {kNone[0]}};
// GeGluV2 takes its scratch with PopStackBuffer; MseLossGradV2 configures its queues with a TQueConfig.
extern "C" __global__ __aicore__ void stack(GM_ADDR x, GM_ADDR y, GM_ADDR n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1, &kConf> q;
    pipe.InitBuffer(q, 1, 1000);
    GlobalTensor<float> xg, yg; GlobalTensor<int32_t> ng;
    xg.SetGlobalBuffer((__gm__ float *)x, 64); yg.SetGlobalBuffer((__gm__ float *)y, 64); ng.SetGlobalBuffer((__gm__ int32_t *)n, 8);
    LocalTensor<float> a = q.AllocTensor<float>();
    DataCopy(a, xg, 64);
    q.EnQue(a);
    LocalTensor<float> b = q.DeQue<float>();
    LocalTensor<float> s;
    PopStackBuffer<float, TPosition::LCM>(s);
    Muls(s, b, 2.0f, 64);
    PipeBarrier<PIPE_V>();
    DataCopy(yg, s, 64);
    q.FreeTensor(b);
    ng.SetValue(0, (int32_t)s.GetSize());
    ng.SetValue(1, (int32_t)(s.GetPhyAddr() - b.GetPhyAddr()));
}
'''


def test_pop_stack_buffer_is_the_ub_after_the_allocations(tmp_path):
    src = tmp_path / "stack.cpp"
    src.write_text(STACK)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("n", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
    size, start = r.outputs["n"][:2]
    assert start == 1024 and size == (192 * 1024 - 1024) // 4     # from the 32-byte aligned end of the queue to UB's end


ROUNDING = r'''#include "kernel_operator.h"
using namespace AscendC;
// hicann ops-math's experimental floor writes Floor(x) over x in its one UB tile; Ceil and Trunc the same way.
extern "C" __global__ __aicore__ void rounding(GM_ADDR x, GM_ADDR xh, GM_ADDR y, GM_ADDR yh)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, bufh, tmp;
    pipe.InitBuffer(buf, 3 * 256 * sizeof(float));
    pipe.InitBuffer(bufh, 256 * sizeof(half));
    pipe.InitBuffer(tmp, 8192);
    GlobalTensor<float> xg, yg;
    GlobalTensor<half> xhg, yhg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 768);
    xhg.SetGlobalBuffer((__gm__ half *)xh, 256);
    yhg.SetGlobalBuffer((__gm__ half *)yh, 256);
    LocalTensor<float> a = buf.Get<float>(), b = a[256], c = a[512];
    LocalTensor<half> h = bufh.Get<half>();
    DataCopy(a, xg, 256);
    DataCopy(b, xg, 256);
    DataCopy(c, xg, 256);
    DataCopy(h, xhg, 256);
    PipeBarrier<PIPE_ALL>();
    Floor(a, a, tmp.Get<uint8_t>(), 256);
    Ceil(b, b, tmp.Get<uint8_t>(), 256);
    Trunc(c, c, tmp.Get<uint8_t>(), 256);
    Floor(h, h, tmp.Get<uint8_t>(), 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, a, 768);
    DataCopy(yhg, h, 256);
}
'''


def test_floor_ceil_trunc_in_place_run_as_on_the_npu_with_a_warning(tmp_path):
    src = tmp_path / "rounding.cpp"
    src.write_text(ROUNDING)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(5).uniform(-20, 20, 256).astype(np.float32)
    xh = x.astype(np.float16)
    r = run(b, [GM("x", x), GM("xh", xh), GM("y", np.zeros(768, np.float32), "out"), GM("yh", np.zeros(256, np.float16), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_array_equal(y[:256], np.floor(x))
    np.testing.assert_array_equal(y[256:512], np.ceil(x))
    np.testing.assert_array_equal(y[512:], np.trunc(x))
    np.testing.assert_array_equal(r.outputs["yh"], np.floor(xh))
    warned = [d.source_line.strip().split("(")[0] for d in r.diagnostics if d.kind == "adv-in-place"]
    assert warned == ["Floor", "Ceil", "Trunc", "Floor"]
    # a shifted overlap is still an error
    src.write_text(ROUNDING.replace("Trunc(c, c, tmp.Get<uint8_t>(), 256);", "Trunc(c[8], c, tmp.Get<uint8_t>(), 200);"))
    bad = run(build(src), [GM("x", x), GM("xh", xh), GM("y", np.zeros(768, np.float32), "out"),
                           GM("yh", np.zeros(256, np.float16), "out")], block_dim=1)
    e = [d for d in bad.diagnostics if d.is_error]
    assert e and e[0].kind == "adv-overlap" and "Trunc" in e[0].message


# A distance table filled one value at a time: each Sum writes one row's total into the next element of the result
# (dstTensor at an element offset, as a contest Pdist kernel writes y[j]). A2 writes Sum's results with the reduce
# instruction, which takes an element-aligned destination; Mean, which then scales with a block-wise op, does not.
SUM_INTO_ELEMENTS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fill(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, out;
    pipe.InitBuffer(buf, 5 * 16 * sizeof(float));
    pipe.InitBuffer(out, 8 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 5 * 16); yg.SetGlobalBuffer((__gm__ float *)y, 8);
    LocalTensor<float> rows = buf.Get<float>(), totals = out.Get<float>();
    DataCopy(rows, xg, 5 * 16);
    Duplicate(totals, 0.0f, 8);
    PipeBarrier<PIPE_ALL>();
    for (int r = 0; r < 5; ++r) {
        Sum(totals[r], rows[r * 16], SumParams{1, 16, 13});   // row r's first 13 values into element r
        PipeBarrier<PIPE_V>();
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, totals, 8);
}
'''


def test_sum_writes_its_result_at_an_element_offset(tmp_path):
    src = tmp_path / "fill.cpp"
    src.write_text(SUM_INTO_ELEMENTS)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(3).uniform(-2, 2, 80).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = x.reshape(5, 16)[:, :13].astype(np.float64).sum(1)
    np.testing.assert_allclose(r.outputs["y"][:5], want, rtol=1e-6, atol=1e-6)
    assert not r.outputs["y"][5:].any()


def test_mean_into_an_element_offset_still_stops(tmp_path):
    src = tmp_path / "fill.cpp"
    src.write_text(SUM_INTO_ELEMENTS.replace("Sum(totals[r], rows[r * 16], SumParams{1, 16, 13});",
                                             "MeanParams mp; mp.outter = 1; mp.inner = 16; mp.n = 13;\n"
                                             "        Mean<float>(totals[r], rows[r * 16], mp);"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.ones(80, np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert not r.ok and any(d.kind == "ub-misaligned" for d in r.diagnostics)
