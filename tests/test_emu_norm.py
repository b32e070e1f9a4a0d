"""The normalisation advanced APIs of runtime/include/ascendcraft_emu/norm.h (SoftMax, SimpleSoftMax, SoftmaxFlash,
SoftmaxFlashV2, LayerNorm in both forms, RmsNorm), the Log family and GetReduceMaxMinCount, checked against NumPy in
float, half and half-with-float-statistics, with the A2 rules (half and float, a 32-byte last axis, one 32-byte block
of statistics per row, no overlaps) and the trace's charge. Kernels written here in the public styles."""
import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run, trace

M, N, H = 4, 64, 32  # rows, padded row length, half a row (the flash tests split each row in two)

SOFTMAX = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void softmaxes(GM_ADDR x, GM_ADDR y, GM_ADDR st, GM_ADDR e, uint32_t ori)
{{
    using T = {T};
    using U = {U};
    constexpr uint32_t M = {M}, N = {N}, H = {H}, B = 32 / sizeof(U), BT = 32 / sizeof(T);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, sb, eb, tb;
    pipe.InitBuffer(xb, 2 * M * N * sizeof(T));
    pipe.InitBuffer(yb, 4 * M * N * sizeof(T));
    pipe.InitBuffer(sb, 10 * M * B * sizeof(U));
    pipe.InitBuffer(eb, 2 * M * BT * sizeof(T));
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<T> xg, yg, egm;
    GlobalTensor<U> sg;
    xg.SetGlobalBuffer((__gm__ T *)x, M * N);
    yg.SetGlobalBuffer((__gm__ T *)y, 4 * M * N);
    sg.SetGlobalBuffer((__gm__ U *)st, 10 * M * B);
    egm.SetGlobalBuffer((__gm__ T *)e, 2 * M * BT);
    LocalTensor<T> xl = xb.Get<T>(), xa = xl[M * N], xr = xl[M * N + M * H];
    LocalTensor<T> yl = yb.Get<T>();
    LocalTensor<U> s = sb.Get<U>();
    LocalTensor<T> em = eb.Get<T>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(xl, xg, M * N);
    for (uint32_t r = 0; r < M; ++r) {{  // the two halves of every row, as [M, H] tensors of their own
        DataCopy(xa[r * H], xg[r * N], H);
        DataCopy(xr[r * H], xg[r * N + H], H);
    }}
    SoftMaxTiling tiling;
    tiling.srcM = M;
    tiling.srcK = N;
    SoftMaxShapeInfo whole{{M, N, M, ori}}, half_row{{M, H, M, H}};
    auto S = [&](int k) {{ return s[k * M * B]; }};
    SoftMax<T>(yl, S(0), S(1), xl, tmp, tiling, whole);
    SimpleSoftMax<T>(yl[M * N], S(0), S(1), xl, tiling, whole);
    SoftmaxFlashV2<T, false>(yl[2 * M * N], S(2), S(3), xa, em, S(2), S(3), tiling, half_row);
    SoftmaxFlashV2<T, true>(yl[2 * M * N + M * H], S(4), S(5), xr, em, S(2), S(3), tiling, half_row);
    SoftmaxFlash<T>(yl[3 * M * N], S(8), S(9), xa, em[M * BT], S(8), S(9), tiling, false, half_row);
    SoftmaxFlash<T>(yl[3 * M * N + M * H], S(6), S(7), xr, em[M * BT], S(8), S(9), tiling, true, half_row);
    DataCopy(yg, yl, 4 * M * N);
    DataCopy(sg, s, 10 * M * B);
    DataCopy(egm, em, 2 * M * BT);
}}
"""

TYPES = {"float": (np.float32, np.float32), "half": (np.float16, np.float16), "half+float": (np.float16, np.float32)}


def softmax_kernel(name):
    T, U = TYPES[name]
    cname = lambda t: "float" if t == np.float32 else "half"
    return SOFTMAX.format(T=cname(T), U=cname(U), M=M, N=N, H=H)


def run_softmaxes(name, x, ori=N):
    T, U = TYPES[name]
    b = build({"softmax.cpp": softmax_kernel(name)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    B, BT = 32 // np.dtype(U).itemsize, 32 // np.dtype(T).itemsize
    r = run(b, [GM("x", x.astype(T)), GM("y", np.zeros(4 * M * N, T), "out"), GM("st", np.zeros(10 * M * B, U), "out"),
                GM("e", np.zeros(2 * M * BT, T), "out"), Scalar(ori, "uint32_t")], block_dim=1)
    return b, r, B, BT


@pytest.mark.parametrize("name", sorted(TYPES))
def test_softmax_family_matches_numpy(name):
    T, U = TYPES[name]
    x = np.random.default_rng(3).uniform(-4, 4, (M, N)).astype(T)
    b, r, B, BT = run_softmaxes(name, x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    xd = x.astype(np.float64)
    y = r.outputs["y"].astype(np.float64).reshape(4, M, N)
    st = r.outputs["st"].astype(np.float64).reshape(10, M, B)
    em = r.outputs["e"].astype(np.float64).reshape(2, M, BT)
    tol = dict(rtol=1e-5, atol=1e-6) if T == np.float32 else dict(rtol=4e-3, atol=1e-3)
    ex = np.exp(xd - xd.max(1, keepdims=True))
    want = ex / ex.sum(1, keepdims=True)
    np.testing.assert_allclose(y[0], want, **tol, err_msg="SoftMax")
    np.testing.assert_allclose(y[1], want, **tol, err_msg="SimpleSoftMax with SoftMax's statistics")
    # statistics: one 32-byte block per row, the value repeated across it
    assert np.all(st[0] == st[0][:, :1]) and np.all(st[1] == st[1][:, :1])
    np.testing.assert_allclose(st[0][:, 0], ex.sum(1), **tol, err_msg="sum")
    np.testing.assert_allclose(st[1][:, 0], xd.max(1), **tol, err_msg="max")
    # FlashV2: the first half unnormalised, the second updates max / sum; together they give the softmax
    a, c = xd[:, :H], xd[:, H:]
    ma, mall = a.max(1, keepdims=True), xd.max(1, keepdims=True)
    v2 = y[2].reshape(2, M, H)  # [M, H] of the first half, then of the second
    np.testing.assert_allclose(v2[0], np.exp(a - ma), **tol, err_msg="FlashV2 first half")
    np.testing.assert_allclose(v2[1], np.exp(c - mall), **tol, err_msg="FlashV2 update")
    np.testing.assert_allclose(st[5][:, 0], mall[:, 0], **tol, err_msg="FlashV2 max")
    np.testing.assert_allclose(st[4][:, 0], ex.sum(1), **tol, err_msg="FlashV2 sum over both halves")
    np.testing.assert_allclose(em[0][:, 0], np.exp(ma - mall)[:, 0], **tol, err_msg="FlashV2 expMax")
    recombined = np.concatenate([v2[0] * em[0][:, :1], v2[1]], 1) / st[4][:, :1]
    np.testing.assert_allclose(recombined, want, **tol, err_msg="FlashV2 recombined")
    # Flash (v1): both halves normalised; expMax rescales the first to the whole row
    v1 = y[3].reshape(2, M, H)
    np.testing.assert_allclose(np.concatenate([v1[0] * em[1][:, :1], v1[1]], 1), want, **tol, err_msg="Flash v1")
    np.testing.assert_allclose(st[6][:, 0], ex.sum(1), **tol, err_msg="Flash v1 sum")


def test_softmax_with_a_padded_row_uses_the_original_length_and_writes_zeros_in_the_padding():
    x = np.random.default_rng(4).uniform(-2, 2, (M, N)).astype(np.float32)
    _, r, B, _ = run_softmaxes("float", x, ori=50)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"].reshape(4, M, N)
    ex = np.exp(x[:, :50] - x[:, :50].max(1, keepdims=True))
    np.testing.assert_allclose(y[0][:, :50], ex / ex.sum(1, keepdims=True), rtol=1e-5)
    assert np.all(y[0][:, 50:] == 0)


def test_softmax_rules_a_misaligned_row_overlapping_statistics_and_int32():
    bad = SOFTMAX.format(T="float", U="float", M=M, N=N, H=H).replace("SoftMaxShapeInfo whole{M, N, M, ori}",
                                                                      "SoftMaxShapeInfo whole{M, N - 2, M, ori}")
    r = run(build({"k.cpp": bad}), [GM("x", np.zeros(M * N, np.float32)), GM("y", np.zeros(4 * M * N, np.float32), "out"),
                                    GM("st", np.zeros(80 * M, np.float32), "out"), GM("e", np.zeros(16 * M, np.float32), "out"),
                                    Scalar(N - 2, "uint32_t")], block_dim=1)
    d = r.errors[0]
    assert d.kind == "norm-shape" and "62 elements (248 bytes)" in d.message and "SoftMaxTilingFunc" in d.hint
    assert "SoftMax<T>(yl, S(0)" in d.source_line
    overlapping = SOFTMAX.format(T="float", U="float", M=M, N=N, H=H).replace("SoftMax<T>(yl, S(0), S(1), xl,",
                                                                              "SoftMax<T>(yl, yl.ReinterpretCast<float>(), S(1), xl,")
    r = run(build({"k.cpp": overlapping}), [GM("x", np.zeros(M * N, np.float32)), GM("y", np.zeros(4 * M * N, np.float32), "out"),
                                            GM("st", np.zeros(80 * M, np.float32), "out"),
                                            GM("e", np.zeros(16 * M, np.float32), "out"), Scalar(N, "uint32_t")], block_dim=1)
    assert [d.kind for d in r.errors] == ["adv-overlap"] and "sum output overlaps" in r.errors[0].message
    b = build({"k.cpp": SOFTMAX.format(T="int32_t", U="int32_t", M=M, N=N, H=H)})
    assert not b.ok and "SoftMax on Ascend 910B (A2) supports half and float only" in b.errors[0].message


NORMS = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void norms(GM_ADDR x, GM_ADDR g, GM_ADDR y, GM_ADDR st, GM_ADDR fs, uint32_t ori)
{{
    using T = {T};
    constexpr uint32_t R = {R}, L = {L};   // rows, padded row length
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gb, yb, sb, fb, tb;
    pipe.InitBuffer(xb, R * L * sizeof(T));
    pipe.InitBuffer(gb, 2 * L * sizeof(T));
    pipe.InitBuffer(yb, 7 * R * L * sizeof(T));
    pipe.InitBuffer(sb, 64 * sizeof(T));
    pipe.InitBuffer(fb, 64 * sizeof(float));
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<T> xg, gg, yg, sg;
    GlobalTensor<float> fg;
    xg.SetGlobalBuffer((__gm__ T *)x, R * L);
    gg.SetGlobalBuffer((__gm__ T *)g, 2 * L);
    yg.SetGlobalBuffer((__gm__ T *)y, 6 * R * L);
    sg.SetGlobalBuffer((__gm__ T *)st, 64);
    fg.SetGlobalBuffer((__gm__ float *)fs, 64);
    LocalTensor<T> xl = xb.Get<T>(), gamma = gb.Get<T>(), beta = gamma[L], yl = yb.Get<T>(), sl = sb.Get<T>();
    LocalTensor<float> fl = fb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(xl, xg, R * L);
    DataCopy(gamma, gg, 2 * L);
    Duplicate(sl, (T)0, 64);
    Duplicate(fl, 0.0f, 64);
    LayerNormTiling ln;
    ln.bLength = 2;
    ln.sLength = R / 2;
    ln.hLength = L;
    ln.originalHLength = ori;
    LayerNorm<T>(yl, sl, sl[16], xl, gamma, beta, tmp, (T)1e-5f, ln);
    LayerNormPara para{{R, ori, L}};
    LayerNormSeparateTiling sep;
    LayerNorm<T, T>(yl[R * L], fl, fl[16], xl, gamma, beta, 1e-5f, tmp, para, sep);
    RmsNormTiling rms;
    rms.bLength = 1;
    rms.sLength = R;
    rms.hLength = L;
    rms.originalHLength = ori;
    RmsNorm<T>(yl[2 * R * L], xl, gamma, tmp, (T)1e-5f, rms);
    // the Log family on |x| + 0.5
    LocalTensor<T> pos = yl[6 * R * L];
    Abs(pos, xl, R * L);
    Adds(pos, pos, (T)0.5f, R * L);
    Log(yl[3 * R * L], pos, R * L);
    Log2(yl[4 * R * L], pos, tmp, R * L);
    Log10(yl[5 * R * L], pos, R * L);  // no overlap: the API forbids it
    // the max of the first row and its index, from the special register
    WholeReduceMax<T>(sl[32], xl, (int32_t)(256 / sizeof(T) < L ? 256 / sizeof(T) : L), 1, 1, 1, 8);
    T v, i;
    GetReduceMaxMinCount<T>(v, i);
    sl.SetValue(48, v);
    sl.SetValue(49, i);
    DataCopy(yg, yl, 6 * R * L);
    DataCopy(sg, sl, 64);
    DataCopy(fg, fl, 64);
}}
"""
R = 6


def run_norms(T, x, gb, ori):
    L = x.shape[1]
    src = NORMS.format(T="float" if T == np.float32 else "half", R=R, L=L)
    b = build({"norms.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    return run(b, [GM("x", x.astype(T)), GM("g", gb.astype(T)), GM("y", np.zeros(6 * R * L, T), "out"),
                   GM("st", np.zeros(64, T), "out"), GM("fs", np.zeros(64, np.float32), "out"), Scalar(ori, "uint32_t")],
               block_dim=1)


@pytest.mark.parametrize("T", [np.float32, np.float16], ids=["float", "half"])
def test_layernorm_rmsnorm_log_and_the_reduce_register_match_numpy(T):
    L = 32
    rng = np.random.default_rng(5)
    x = rng.uniform(-3, 3, (R, L)).astype(T)
    gb = rng.uniform(0.5, 1.5, 2 * L).astype(T)
    ori = 30
    r = run_norms(T, x, gb, ori)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    xd, g, be = x.astype(np.float64)[:, :ori], gb[:ori].astype(np.float64), gb[L:L + ori].astype(np.float64)
    y = r.outputs["y"].astype(np.float64).reshape(6, R, L)
    st, fs = r.outputs["st"].astype(np.float64), r.outputs["fs"].astype(np.float64)
    tol = dict(rtol=1e-5, atol=1e-5) if T == np.float32 else dict(rtol=5e-3, atol=5e-3)
    mean, var = xd.mean(1), xd.var(1)
    ln = (xd - mean[:, None]) / np.sqrt(var[:, None] + 1e-5) * g + be
    np.testing.assert_allclose(y[0][:, :ori], ln, **tol, err_msg="LayerNorm [B,S,H]")
    np.testing.assert_allclose(st[:R], mean, **tol, err_msg="LayerNorm mean")
    np.testing.assert_allclose(st[16:16 + R], var, **tol, err_msg="LayerNorm variance")
    np.testing.assert_allclose(y[1][:, :ori], ln, **tol, err_msg="LayerNorm [A,R]")
    np.testing.assert_allclose(fs[:R], mean, rtol=1e-5, atol=1e-5, err_msg="LayerNorm [A,R] mean (float)")
    np.testing.assert_allclose(fs[16:16 + R], 1 / np.sqrt(var + 1e-5), rtol=1e-4, err_msg="LayerNorm [A,R] rstd (float)")
    rms = xd / np.sqrt((xd ** 2).mean(1, keepdims=True) + 1e-5) * g
    np.testing.assert_allclose(y[2][:, :ori], rms, **tol, err_msg="RmsNorm")
    pos = np.abs(x.astype(np.float64)) + 0.5
    if T == np.float16: pos = pos.astype(np.float16).astype(np.float64)
    np.testing.assert_allclose(y[3], np.log(pos), **tol, err_msg="Log")
    np.testing.assert_allclose(y[4], np.log2(pos), **tol, err_msg="Log2")
    np.testing.assert_allclose(y[5], np.log10(pos), **tol, err_msg="Log10")
    # GetReduceMaxMinCount: the value, and the index as the integer bits of a T
    n0 = min(256 // np.dtype(T).itemsize, L)
    raw = r.outputs["st"][48:50].copy()
    assert raw[0] == x[0, :n0].max()
    index = raw[1:2].view(np.uint16 if T == np.float16 else np.uint32)[0]
    assert index == int(np.argmax(x[0, :n0]))


def test_the_reduce_register_before_any_reduction_is_an_error_and_the_trace_charges_the_passes():
    src = NORMS.format(T="float", R=R, L=32)
    early = src.replace("    LayerNormTiling ln;", "    { float v, i; GetReduceMaxMinCount<float>(v, i); }\n    LayerNormTiling ln;")
    x = np.ones((R, 32), np.float32)
    args = [GM("x", x), GM("g", np.ones(64, np.float32)), GM("y", np.zeros(6 * R * 32, np.float32), "out"),
            GM("st", np.zeros(64, np.float32), "out"), GM("fs", np.zeros(64, np.float32), "out"), Scalar(32, "uint32_t")]
    r = run(build({"k.cpp": early}), args, block_dim=1)
    assert [d.kind for d in r.errors] == ["reduce-register"] and "made none" in r.errors[0].message
    t = trace(build({"k.cpp": softmax_kernel("float")}),
              [GM("x", None, shape=(M * N,), dtype=np.float32), GM("y", None, "out", shape=(4 * M * N,), dtype=np.float32),
               GM("st", None, "out", shape=(80 * M,), dtype=np.float32), GM("e", None, "out", shape=(16 * M,), dtype=np.float32),
               Scalar(N, "uint32_t")], block_dim=1)
    assert t.count("SoftMax") == 1 and t.count("SoftmaxFlashV2") == 2 and t.count("SimpleSoftMax") == 1


FLASHV2_DEVICE_TILING = """#include "kernel_operator.h"
using namespace AscendC;
// FlashAttention's style: the block's tiling made on the device from its own row count and the free temporary space.
extern "C" __global__ __aicore__ void flashv2_dev(GM_ADDR x, GM_ADDR y, GM_ADDR st, GM_ADDR fields)
{
    constexpr uint32_t M = 24, N = 64, B = 8;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, sb, eb, tb;
    pipe.InitBuffer(xb, M * N * 4);
    pipe.InitBuffer(yb, M * N * 4);
    pipe.InitBuffer(sb, 2 * M * B * 4);
    pipe.InitBuffer(eb, M * B * 4);
    pipe.InitBuffer(tb, 2048);
    GlobalTensor<float> xg, yg, sg;
    GlobalTensor<uint32_t> fg;
    xg.SetGlobalBuffer((__gm__ float *)x, M * N);
    yg.SetGlobalBuffer((__gm__ float *)y, M * N);
    sg.SetGlobalBuffer((__gm__ float *)st, 2 * M * B);
    fg.SetGlobalBuffer((__gm__ uint32_t *)fields, 16);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>(), sl = sb.Get<float>(), em = eb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(xl, xg, M * N);
    SoftMaxTiling t = SoftMaxFlashV2TilingFuncImpl(M, N, sizeof(float), sizeof(float), tmp.GetSize() / sizeof(float), false, false);
    SoftMaxShapeInfo info{M, N, M, N};
    SoftMaxTiling u = SoftMaxFlashV2TilingFunc(info, sizeof(float), sizeof(float), tmp.GetSize());
    constexpr SoftMaxTiling c = SoftMaxFlashV2TilingFuncImpl(M, N, 2, 4, 4096);
    // no shape info: the API takes the block's shape from the tiling
    SoftmaxFlashV2<float, false>(yl, sl, sl[M * B], xl, em, sl, sl[M * B], tmp, t);
    DataCopy(yg, yl, M * N);
    DataCopy(sg, sl, 2 * M * B);
    uint32_t v[16] = {t.srcM, t.srcK, t.srcSize, t.outMaxK, t.reduceM, t.splitM, t.rangeM, t.tailM, t.tailSplitSize,
                      u.srcM, u.reduceM, u.rangeM, u.tailM, c.srcM, c.outMaxK, c.reduceM};
    for (int i = 0; i < 16; ++i) fg.SetValue(i, v[i]);
}
"""


def test_softmax_flashv2_tiling_made_on_the_device_gives_the_block_shape_and_a_row_split_that_fits():
    M2, N2 = 24, 64
    x = np.random.default_rng(7).uniform(-3, 3, (M2, N2)).astype(np.float32)
    b = build({"k.cpp": FLASHV2_DEVICE_TILING})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(M2 * N2, np.float32), "out"), GM("st", np.zeros(2 * M2 * 8, np.float32), "out"),
                GM("fields", np.zeros(16, np.uint32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    f = r.outputs["fields"].tolist()
    # 2048 bytes = 512 floats; a float row needs a block of 8 and a 64-element repeat: 7 rows, so 7 a split (<= 8)
    assert f[:4] == [M2, N2, M2 * N2, 8]
    assert f[4] == f[5] == 7 and f[6] == 3 and f[7] == 3 and f[8] == 3 * N2
    assert f[9:13] == [M2, 7, 3, 3], "the SoftMaxShapeInfo form takes the space in bytes"
    # half source, float statistics, 4096 floats: a row needs 8 + 8 + 64 + 64 = 144 floats: 28 rows, more than M
    assert f[13:16] == [M2, 8, M2]
    mx = x.max(1, keepdims=True)
    np.testing.assert_allclose(r.outputs["y"].reshape(M2, N2), np.exp(x - mx), rtol=1e-5, atol=1e-6)
    st = r.outputs["st"].reshape(2, M2, 8)
    np.testing.assert_allclose(st[0][:, 0], np.exp(x - mx).sum(1), rtol=1e-5)
    np.testing.assert_allclose(st[1][:, 0], mx[:, 0], rtol=1e-6)


FLASHV2_SHAPE_INFO = """#include "kernel_operator.h"
using namespace AscendC;
// ops-transformer FlashAttentionScore's style: a zeroed SoftMaxTiling and no SoftMaxShapeInfo; the block's [M, K]
// shape (K padded to 32 bytes, the original K shorter) set on the source with SetShapeInfo
extern "C" __global__ __aicore__ void flashv2_shape(GM_ADDR x, GM_ADDR y, GM_ADDR st)
{
    constexpr uint32_t M = 6, N = 64, K = 40, B = 8;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, sb, eb, tb;
    pipe.InitBuffer(xb, M * N * 4);
    pipe.InitBuffer(sb, 2 * M * B * 4);
    pipe.InitBuffer(eb, M * B * 4);
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<float> xg, yg, sg;
    xg.SetGlobalBuffer((__gm__ float *)x, M * N);
    yg.SetGlobalBuffer((__gm__ float *)y, M * N);
    sg.SetGlobalBuffer((__gm__ float *)st, 2 * M * B);
    LocalTensor<float> xl = xb.Get<float>(), sl = sb.Get<float>(), em = eb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(xl, xg, M * N);
    uint32_t shape[] = {M, N}, ori[] = {M, K}, stat[] = {M, B};
    xl.SetShapeInfo(ShapeInfo(2, shape, 2, ori, DataFormat::ND));
    sl.SetShapeInfo(ShapeInfo(2, stat, DataFormat::ND));
    SoftMaxTiling none;
    SoftmaxFlashV2<float, false, true, false>(xl, sl, sl[M * B], xl, em, sl, sl[M * B], tmp, none);
    DataCopy(yg, xl, M * N);
    DataCopy(sg, sl, 2 * M * B);
}
"""


def test_softmax_flashv2_without_tiling_or_shape_info_takes_the_sources_shape_info():
    # the API reads the source's ShapeInfo when no SoftMaxShapeInfo is given and makes its tiling again on the device
    # when the one passed does not fit it (isCheckTiling, the default configuration); the original K leaves the padding out
    _check_flashv2_shape_info(FLASHV2_SHAPE_INFO, seed=11)


def test_softmax_flashv2_without_update_takes_an_unallocated_exp_max():
    # ops-transformer prompt_flash_attention's first block (prompt_flash_attention_s1s2_bns1_x910_base.h): isUpdate false
    # and a default-constructed LocalTensor for expMaxTensor, which only the update writes (AscendC reads neither it nor
    # inSum / inMax then)
    src = FLASHV2_SHAPE_INFO.replace("    SoftMaxTiling none;\n", "    SoftMaxTiling none;\n    LocalTensor<float> null;\n") \
        .replace("(xl, sl, sl[M * B], xl, em, sl, sl[M * B], tmp, none)", "(xl, sl, sl[M * B], xl, null, sl, sl[M * B], tmp, none)")
    assert "xl, null, sl" in src
    _check_flashv2_shape_info(src, seed=12)


def _check_flashv2_shape_info(src: str, seed: int):
    "The kernel `src` (FLASHV2_SHAPE_INFO's form) on a 6 x 64 block of original K 40: exp(x - row max), row sums, row maxima."
    M2, N2, K2 = 6, 64, 40
    x = np.random.default_rng(seed).uniform(-3, 3, (M2, N2)).astype(np.float32)
    b = build({"k.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(M2 * N2, np.float32), "out"), GM("st", np.zeros(2 * M2 * 8, np.float32), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    v = x[:, :K2]
    mx = v.max(1, keepdims=True)
    np.testing.assert_allclose(r.outputs["y"].reshape(M2, N2)[:, :K2], np.exp(v - mx), rtol=1e-5, atol=1e-6)
    st = r.outputs["st"].reshape(2, M2, 8)
    np.testing.assert_allclose(st[0], np.repeat(np.exp(v - mx).sum(1, keepdims=True), 8, 1), rtol=1e-5)
    np.testing.assert_allclose(st[1], np.repeat(mx, 8, 1), rtol=1e-6)
