"""LayerNormGrad and LayerNormGradBeta (lib/normalization) against the API reference's NumPy formulas, on [B, S, H]
with the tilings that the host's GetLayerNormGrad(Beta)NDTilingInfo fill (the shape is all the emulation reads):
pd_x and res_for_gamma per row from dy, x, the row mean / variance and gamma, then pd_gamma = sum(dy * res_for_gamma)
and pd_beta = sum(dy) over B and S; float and half."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t B = 2, S = 4, H = 32, N = B * S * H;
extern "C" __global__ __aicore__ void lngrad(GM_ADDR dy, GM_ADDR x, GM_ADDR st, GM_ADDR gm, GM_ADDR px, GM_ADDR rg, GM_ADDR gb)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 131072);
    GlobalTensor<T> dyg, xg, stg, gmg, pxg, rgg, gbg;
    dyg.SetGlobalBuffer((__gm__ T *)dy, N);
    xg.SetGlobalBuffer((__gm__ T *)x, N);
    stg.SetGlobalBuffer((__gm__ T *)st, 32);
    gmg.SetGlobalBuffer((__gm__ T *)gm, H);
    pxg.SetGlobalBuffer((__gm__ T *)px, N);
    rgg.SetGlobalBuffer((__gm__ T *)rg, N);
    gbg.SetGlobalBuffer((__gm__ T *)gb, 2 * H);
    LocalTensor<T> dyl = buf.GetWithOffset<T>(N, 0);
    LocalTensor<T> xl = buf.GetWithOffset<T>(N, 8192);
    LocalTensor<T> stl = buf.GetWithOffset<T>(32, 16384);
    LocalTensor<T> gml = buf.GetWithOffset<T>(H, 16512);
    LocalTensor<T> pxl = buf.GetWithOffset<T>(N, 24576);
    LocalTensor<T> rgl = buf.GetWithOffset<T>(N, 32768);
    LocalTensor<T> gbl = buf.GetWithOffset<T>(2 * H, 40960);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(16384, 65536);
    DataCopy(dyl, dyg, N);
    DataCopy(xl, xg, N);
    DataCopy(stl, stg, 32);
    DataCopy(gml, gmg, H);
    PipeBarrier<PIPE_ALL>();
    LayerNormGradTiling gt;
    LayerNormGradBetaTiling bt;
    gt.bLength = B; gt.sLength = S; gt.hLength = H; gt.originalHLength = H;
    bt.bLength = B; bt.sLength = S; bt.hLength = H; bt.originalHLength = H;
    LayerNormGrad<T, false>(pxl, rgl, dyl, xl, stl[16], stl[0], gml, tmp, (T)1e-5f, gt);   // variance at 16, mean at 0
    LayerNormGradBeta<T, false>(gbl[0], gbl[H], rgl, dyl, tmp, bt);
    PipeBarrier<PIPE_ALL>();
    DataCopy(pxg, pxl, N);
    DataCopy(rgg, rgl, N);
    DataCopy(gbg, gbl, 2 * H);
}
'''
B, S, H = 2, 4, 32


def reference(dy, x, mean, var, gamma, eps=1e-5):    # the API reference's NumPy formulas
    pd_xl = dy * gamma
    pd_var = np.sum((-0.5) * pd_xl * (x - mean) * np.power(var + eps, -1.5), -1, keepdims=True)
    pd_mean = np.sum((-1.0) * pd_xl * np.power(var + eps, -0.5), -1, keepdims=True) + \
        pd_var * (1.0 / H) * np.sum((-2.0) * (x - mean), -1, keepdims=True)
    pd_x = pd_xl * np.power(var + eps, -0.5) + pd_var * (2.0 / H) * (x - mean) + pd_mean * (1.0 / H)
    res_for_gamma = (x - mean) * np.power(var + eps, -0.5)
    return pd_x, res_for_gamma


@pytest.mark.parametrize("ctype, dtype, tol", [("float", np.float32, 1e-5), ("half", np.float16, 3e-3)])
def test_layernorm_grad_and_beta_against_numpy(tmp_path, ctype, dtype, tol):
    src = tmp_path / "lngrad.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(18)
    x = rng.standard_normal((B * S, H)).astype(dtype)
    dy = rng.standard_normal((B * S, H)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, H).astype(dtype)
    st = np.zeros(32, dtype)
    st[: B * S] = x.astype(np.float64).mean(1)
    st[16:16 + B * S] = x.astype(np.float64).var(1)
    r = run(b, [GM("dy", dy), GM("x", x), GM("st", st), GM("gm", gamma), GM("px", np.zeros_like(x), "out"),
                GM("rg", np.zeros_like(x), "out"), GM("gb", np.zeros(2 * H, dtype), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    f = lambda a: a.astype(np.float64)
    pd_x, rfg = reference(f(dy), f(x), f(st[:B * S])[:, None], f(st[16:16 + B * S])[:, None], f(gamma))
    np.testing.assert_allclose(f(r.outputs["px"]), pd_x, rtol=tol, atol=tol * 10)
    np.testing.assert_allclose(f(r.outputs["rg"]), rfg, rtol=tol, atol=tol)
    got_rfg = f(r.outputs["rg"])                     # GradBeta reads the resForGamma LayerNormGrad stored
    np.testing.assert_allclose(f(r.outputs["gb"][:H]), (f(dy) * got_rfg).sum(0), rtol=tol, atol=tol * 10)
    np.testing.assert_allclose(f(r.outputs["gb"][H:]), f(dy).sum(0), rtol=tol, atol=tol * 10)


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
#include <cstring>
int main() {
    ge::Shape shape({2, 4, 32});
    uint32_t mx, mn, bmx, bmn;
    AscendC::GetLayerNormGradMaxMinTmpSize(shape, 4, false, mx, mn);
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, bmx, bmn);
    optiling::LayerNormGradTiling g;
    optiling::LayerNormGradBetaTiling b;
    AscendC::GetLayerNormGradNDTilingInfo(shape, mn, 4, false, g);
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, bmn, 4, false, b);
    float inv;
    std::memcpy(&inv, &g.lastDimValueBack, 4);
    std::printf("%u %u %u %u %u %u %u %u %g\n", mn, mx, bmn, bmx, g.bLength, g.sLength, g.hLength, b.bsLength, inv);
}
'''


def test_host_sizes_and_tilings(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(6 * 128), str(8 * 6 * 128), str(2 * 128), str(8 * 2 * 128), "2", "4", "32", "8", "0.03125"]
