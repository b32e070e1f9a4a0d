"""Normalize (lib/normalization) against NumPy: given each row's mean and variance of an [A, R] tensor, rstd =
1 / sqrt(var + eps) and y = (x - mean) * rstd * gamma + beta, with R padded to 32 bytes (rLengthWithPadding); float,
half with float gamma / beta, and the NLCFG_NOBETA configuration. The documented rules: gamma / beta at least as
precise as x (a compile-time error otherwise), a 32-byte aligned padded row."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/normalization/normalize.h"
using namespace AscendC;
using T = CTYPE;
using U = UTYPE;
constexpr uint32_t A = 6, R = 40, RP = RPAD;
extern "C" __global__ __aicore__ void normalize(GM_ADDR x, GM_ADDR st, GM_ADDR gb, GM_ADDR y, GM_ADDR rs, GM_ADDR y2)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<T> xg, yg, y2g;
    GlobalTensor<float> sg, rg;
    GlobalTensor<U> gg;
    xg.SetGlobalBuffer((__gm__ T *)x, A * RP);
    sg.SetGlobalBuffer((__gm__ float *)st, 16);
    gg.SetGlobalBuffer((__gm__ U *)gb, 2 * RP);
    yg.SetGlobalBuffer((__gm__ T *)y, A * RP);
    y2g.SetGlobalBuffer((__gm__ T *)y2, A * RP);
    rg.SetGlobalBuffer((__gm__ float *)rs, 8);
    LocalTensor<T> xl = buf.GetWithOffset<T>(A * RP, 0);
    LocalTensor<float> stats = buf.GetWithOffset<float>(16, 2048);
    LocalTensor<U> gbl = buf.GetWithOffset<U>(2 * RP, 4096);
    LocalTensor<T> yl = buf.GetWithOffset<T>(A * RP, 8192);
    LocalTensor<T> y2l = buf.GetWithOffset<T>(A * RP, 12288);
    LocalTensor<float> rl = buf.GetWithOffset<float>(8, 16384);
    LocalTensor<float> r2 = buf.GetWithOffset<float>(8, 16416);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(4096, 32768);
    DataCopy(xl, xg, A * RP);
    DataCopy(stats, sg, 16);
    DataCopy(gbl, gg, 2 * RP);
    Duplicate(yl, (T)0, A * RP);
    Duplicate(y2l, (T)0, A * RP);
    PipeBarrier<PIPE_ALL>();
    NormalizePara para = {A, R, RP};
    Normalize<U, T>(yl, rl, stats[0], stats[8], xl, gbl[0], gbl[RP], tmp, 1e-5f, para);
    Normalize<U, T, false, NLCFG_NOBETA>(y2l, r2, stats[0], stats[8], xl, gbl[0], gbl[RP], 1e-5f, para);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, A * RP);
    DataCopy(y2g, y2l, A * RP);
    DataCopy(rg, rl, 8);
}
'''
A, R = 6, 40


def _build(tmp_path, t, u, rpad):
    src = tmp_path / "normalize.cpp"
    src.write_text(KERNEL.replace("CTYPE", t).replace("UTYPE", u).replace("RPAD", str(rpad)))
    return build(src)


@pytest.mark.parametrize("t, u, dt, rpad, tol", [("float", "float", np.float32, 40, 1e-5), ("half", "float", np.float16, 48, 2e-3)])
def test_normalize_against_numpy(tmp_path, t, u, dt, rpad, tol):
    b = _build(tmp_path, t, u, rpad)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(16)
    x = np.zeros((A, rpad), dt)
    x[:, :R] = rng.standard_normal((A, R)) * 2 + 0.5
    xr = x[:, :R].astype(np.float64)
    stats = np.zeros(16, np.float32)
    stats[:A], stats[8:8 + A] = xr.mean(1), xr.var(1)
    gb = np.zeros((2, rpad), np.float32)
    gb[:, :R] = rng.uniform(0.5, 1.5, (2, R))
    r = run(b, [GM("x", x), GM("st", stats), GM("gb", gb), GM("y", np.zeros_like(x), "out"), GM("rs", np.zeros(8, np.float32), "out"),
                GM("y2", np.zeros_like(x), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    rstd = 1 / np.sqrt(stats[8:8 + A].astype(np.float64) + 1e-5)
    norm = (xr - stats[:A, None]) * rstd[:, None]
    np.testing.assert_allclose(r.outputs["rs"][:A], rstd, rtol=1e-6)
    np.testing.assert_allclose(r.outputs["y"][:, :R].astype(np.float64), norm * gb[0, :R] + gb[1, :R], rtol=tol, atol=tol)
    np.testing.assert_allclose(r.outputs["y2"][:, :R].astype(np.float64), norm * gb[0, :R], rtol=tol, atol=tol)
    assert not r.outputs["y"][:, R:].any()         # the padding is left alone


def test_normalize_rules(tmp_path):
    bad = _build(tmp_path, "float", "half", 40)         # gamma less precise than x
    assert not bad.ok and any("at least as precise" in str(d) for d in bad.diagnostics)
    b = _build(tmp_path, "float", "float", 40)
    src = tmp_path / "normalize.cpp"
    src.write_text(src.read_text().replace("NormalizePara para = {A, R, RP};", "NormalizePara para = {A, R, 36};"))
    b = build(src)
    assert b.ok
    z = np.zeros((A, 40), np.float32)
    r = run(b, [GM("x", z), GM("st", np.ones(16, np.float32)), GM("gb", np.ones((2, 40), np.float32)), GM("y", z, "out"),
                GM("rs", np.zeros(8, np.float32), "out"), GM("y2", z, "out")], block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "adv-shape" and "rLength beyond" in r.diagnostics[0].message


DEEPNORM = r'''#include "kernel_operator.h"
#include "lib/normalization/deepnorm.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t B = 2, S = 3, H = HPAD, HV = HVALID;
extern "C" __global__ __aicore__ void deepnorm(GM_ADDR x, GM_ADDR gx, GM_ADDR gb, GM_ADDR y, GM_ADDR st)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<T> xg, gxg, gbg, yg, sg;
    xg.SetGlobalBuffer((__gm__ T *)x, B * S * H);
    gxg.SetGlobalBuffer((__gm__ T *)gx, B * S * H);
    gbg.SetGlobalBuffer((__gm__ T *)gb, 2 * H);
    yg.SetGlobalBuffer((__gm__ T *)y, B * S * H);
    sg.SetGlobalBuffer((__gm__ T *)st, 32);
    LocalTensor<T> xl = buf.GetWithOffset<T>(B * S * H, 0);
    LocalTensor<T> gxl = buf.GetWithOffset<T>(B * S * H, 4096);
    LocalTensor<T> gbl = buf.GetWithOffset<T>(2 * H, 8192);
    LocalTensor<T> yl = buf.GetWithOffset<T>(B * S * H, 12288);
    LocalTensor<T> stl = buf.GetWithOffset<T>(32, 16384);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(8192, 32768);
    DataCopy(xl, xg, B * S * H);
    DataCopy(gxl, gxg, B * S * H);
    DataCopy(gbl, gbg, 2 * H);
    Duplicate(yl, (T)0, B * S * H);
    Duplicate(stl, (T)0, 32);
    PipeBarrier<PIPE_ALL>();
    DeepNormTiling tiling;
    tiling.bLength = B; tiling.sLength = S; tiling.hLength = H; tiling.originalHLength = HV;
    DeepNorm<T>(yl, stl[0], stl[16], xl, gxl, gbl[H], gbl[0], tmp, (T)0.7f, (T)1e-5f, tiling);   // beta, then gamma
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, yl, B * S * H);
    DataCopy(sg, stl, 32);
}
'''


@pytest.mark.parametrize("t, dt, hpad, hvalid, tol", [("float", np.float32, 64, 60, 1e-5), ("half", np.float16, 64, 64, 4e-3)])
def test_deepnorm_against_numpy(tmp_path, t, dt, hpad, hvalid, tol):
    src = tmp_path / "deepnorm.cpp"
    src.write_text(DEEPNORM.replace("CTYPE", t).replace("HPAD", str(hpad)).replace("HVALID", str(hvalid)))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(17)
    rows = 6
    x = np.zeros((rows, hpad), dt)
    gx = np.zeros((rows, hpad), dt)
    x[:, :hvalid] = rng.standard_normal((rows, hvalid))
    gx[:, :hvalid] = rng.standard_normal((rows, hvalid))
    gb = np.zeros((2, hpad), dt)
    gb[:, :hvalid] = rng.uniform(0.5, 1.5, (2, hvalid))
    r = run(b, [GM("x", x), GM("gx", gx), GM("gb", gb), GM("y", np.zeros_like(x), "out"), GM("st", np.zeros(32, dt), "out")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    z = 0.7 * x[:, :hvalid].astype(np.float64) + gx[:, :hvalid]
    mean, var = z.mean(1), z.var(1)
    rstd = 1 / np.sqrt(var + 1e-5)
    want = (z - mean[:, None]) * rstd[:, None] * gb[0, :hvalid] + gb[1, :hvalid]
    np.testing.assert_allclose(r.outputs["y"][:, :hvalid].astype(np.float64), want, rtol=tol, atol=tol)
    np.testing.assert_allclose(r.outputs["st"][:rows].astype(np.float64), mean, rtol=tol, atol=tol)
    # the third output, named rstdLocal, holds the variance: the API reference's example prints it there, and the
    # asc-devkit deepnorm example's golden is the variance
    np.testing.assert_allclose(r.outputs["st"][16:16 + rows].astype(np.float64), var, rtol=tol, atol=tol)
    assert not r.outputs["y"][:, hvalid:].any()


def test_deepnorm_host_tiling_and_h_limit(tmp_path):
    host = tmp_path / "host.cpp"
    host.write_text(r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    optiling::DeepNormTiling t;
    uint32_t mx, mn;
    bool ok1 = AscendC::GetDeepNormMaxMinTmpSize(ge::Shape({2, 3, 64}), 4, false, false, mx, mn);
    bool ok2 = AscendC::GetDeepNormTilingInfo(ge::Shape({2, 3, 64}), ge::Shape({2, 3, 60}), mn, 4, false, false, t);
    std::printf("%d %d %u %u %u %u %d\n", ok1, ok2, t.bLength, t.sLength, t.hLength, t.originalHLength, mn > 0 && mx >= mn);
}
''')
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "1", "2", "3", "64", "60", "1"]
    src = tmp_path / "deepnorm.cpp"
    src.write_text(DEEPNORM.replace("CTYPE", "float").replace("HPAD", "2048").replace("HVALID", "2048")
                   .replace("B * S * H", "H").replace("2 * H", "H").replace("gbl[H]", "gbl[0]")
                   .replace("tiling.bLength = B; tiling.sLength = S;", "tiling.bLength = 1; tiling.sLength = 1;")
                   .replace("4096);", "8192);", 1).replace("buf.GetWithOffset<T>(H, 8192)", "buf.GetWithOffset<T>(H, 16384)")
                   .replace("GetWithOffset<T>(B * S * H, 12288)", "GetWithOffset<T>(H, 24576)")
                   .replace("GetWithOffset<T>(32, 16384)", "GetWithOffset<T>(32, 32768)")
                   .replace("GetWithOffset<uint8_t>(8192, 32768)", "GetWithOffset<uint8_t>(8192, 40960)"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    z = np.zeros(2048, np.float32)
    r = run(b, [GM("x", z), GM("gx", z), GM("gb", z), GM("y", z, "out"), GM("st", np.zeros(32, np.float32), "out")], block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "norm-shape" and "2040" in r.diagnostics[0].message, r.diagnostics[0].render()


def test_set_overflow_keeps_ctrl_bit_48(tmp_path):
    # AscendCUtils::SetOverflow (the asc-devkit layernorm_v2 example wraps its Normalize in it): CTRL bit 48 on / off
    src = tmp_path / "overflow.cpp"
    src.write_text(r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void overflow(GM_ADDR y)
{
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    AscendCUtils::SetOverflow(1);
    int32_t on = (get_ctrl() >> 48) & 1;
    AscendCUtils::SetOverflow(0);
    int32_t off = (get_ctrl() >> 48) & 1;
    yg.SetValue(0, on);
    yg.SetValue(1, off);
}
''')
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.full(8, 7, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert list(r.outputs["y"][:2]) == [1, 0]


def test_deepnorm_reference_example_variance(tmp_path):
    """The API reference's DeepNorm example (rows 0..7 of x and gx, alpha -5.5, epsilon 65504, gamma = beta = 0..7):
    the mean -15.75, -51.75, ... and, in the tensor named rstdLocal, the variance 106.3125 of every row; dst's first
    row starts 0, 1.0439204, 2.0527046."""
    src = tmp_path / "deepnorm_doc.cpp"
    src.write_text(DEEPNORM.replace("CTYPE", "float").replace("HPAD", "8").replace("HVALID", "8")
                   .replace("(T)0.7f, (T)1e-5f", "(T)-5.5f, (T)65504.0f"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(48, dtype=np.float32).reshape(6, 8)
    gb = np.tile(np.arange(8, dtype=np.float32), 2)
    r = run(b, [GM("x", x), GM("gx", x.copy()), GM("gb", gb), GM("y", np.zeros_like(x), "out"),
                GM("st", np.zeros(32, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["st"][:6], [-15.75, -51.75, -87.75, -123.75, -159.75, -195.75], rtol=1e-6)
    np.testing.assert_allclose(r.outputs["st"][16:22], np.full(6, 106.3125), rtol=1e-6)
    np.testing.assert_allclose(r.outputs["y"][0, :3], [0.0, 1.0439204, 2.0527046], rtol=1e-6)
