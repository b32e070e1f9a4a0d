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
