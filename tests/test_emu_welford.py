"""WelfordUpdate and WelfordFinalize (lib/normalization) against NumPy: a reduce axis of R = n * ab values split into
n blocks of ab; WelfordUpdate called once per block (nRec = 1 / i) gives per-position running means and M2 terms,
WelfordFinalize merges them into the mean and (biased) variance of all R values, as NumPy's mean / var give them; the
head / tail form (a shorter last block) and the counts form; isInplace keeps the inputs past abComputeLength. The
documented rules: rnLength 1, abLength 32-byte aligned, headCountLength + tailCountLength = abLength."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/welfordfinalize.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t NB = 5, AB = 64, TAILC = TAILCOMPUTE;   // blocks, block length, the last block's valid length
constexpr WelfordUpdateConfig inplace = {true};
extern "C" __global__ __aicore__ void welford(GM_ADDR x, GM_ADDR cnt, GM_ADDR mo, GM_ADDR vo, GM_ADDR st)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<T> xg;
    GlobalTensor<int32_t> cg;
    GlobalTensor<float> mg, vg, sg;
    xg.SetGlobalBuffer((__gm__ T *)x, NB * AB);
    cg.SetGlobalBuffer((__gm__ int32_t *)cnt, AB);
    mg.SetGlobalBuffer((__gm__ float *)mo, AB);
    vg.SetGlobalBuffer((__gm__ float *)vo, AB);
    sg.SetGlobalBuffer((__gm__ float *)st, 32);
    LocalTensor<T> xl = buf.GetWithOffset<T>(NB * AB, 0);
    LocalTensor<float> mean = buf.GetWithOffset<float>(AB, 4096);
    LocalTensor<float> var = buf.GetWithOffset<float>(AB, 5120);
    LocalTensor<int32_t> counts = buf.GetWithOffset<int32_t>(AB, 6144);
    LocalTensor<float> stats = buf.GetWithOffset<float>(32, 7168);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(4096, 16384);
    DataCopy(xl, xg, NB * AB);
    DataCopy(counts, cg, AB);
    Duplicate(mean, 0.0f, AB);
    Duplicate(var, 0.0f, AB);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < NB; ++i) {
        WelfordUpdateParam p = {1, AB, i + 1 == NB ? TAILC : AB, 1.0f / (i + 1)};
        if (i + 1 == NB) WelfordUpdate<T, float, false, inplace>(mean, var, mean, var, xl[i * AB], tmp, p);
        else WelfordUpdate<T, float>(mean, var, mean, var, xl[i * AB], tmp, p);
    }
    // without a tail the counts are rnLength everywhere; with one, headCount over the first TAILC positions
    WelfordFinalizePara fp = {NB, AB, NB, TAILC, NB - 1, AB - TAILC, 1.0f / AB, 1.0f / (NB * AB - (AB - TAILC))};
    WelfordFinalize(stats[0], stats[8], mean, var, tmp, fp);
    WelfordFinalize(stats[16], stats[24], mean, var, counts, fp);
    PipeBarrier<PIPE_ALL>();
    DataCopy(mg, mean, AB);
    DataCopy(vg, var, AB);
    DataCopy(sg, stats, 32);
}
'''
NB, AB = 5, 64


def _build(tmp_path, ctype, tail):
    src = tmp_path / "welford.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("TAILCOMPUTE", str(tail)))
    return build(src)


@pytest.mark.parametrize("ctype, dtype, tail", [("float", np.float32, 64), ("half", np.float16, 64), ("float", np.float32, 40)])
def test_welford_update_then_finalize_against_numpy(tmp_path, ctype, dtype, tail):
    b = _build(tmp_path, ctype, tail)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(15)
    x = (rng.standard_normal((NB, AB)) * 3 + 1).astype(dtype)
    counts = np.where(np.arange(AB) < tail, NB, NB - 1).astype(np.int32)
    r = run(b, [GM("x", x), GM("cnt", counts), GM("mo", np.zeros(AB, np.float32), "out"),
                GM("vo", np.zeros(AB, np.float32), "out"), GM("st", np.zeros(32, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    x64 = x.astype(np.float64)
    cols = [x64[: NB if j < tail else NB - 1, j] for j in range(AB)]   # the last block stops at `tail`
    np.testing.assert_allclose(r.outputs["mo"], [c.mean() for c in cols], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r.outputs["vo"], [((c - c.mean()) ** 2).sum() for c in cols], rtol=1e-5, atol=1e-4)
    values = np.concatenate(cols)
    for at in (0, 16):                               # head / tail counts, then the counts tensor
        np.testing.assert_allclose(r.outputs["st"][at], values.mean(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(r.outputs["st"][at + 8], values.var(), rtol=1e-5)


def test_welford_finalize_lengths_must_add_up(tmp_path):
    src = tmp_path / "bad.cpp"
    src.write_text(KERNEL.replace("CTYPE", "float").replace("TAILCOMPUTE", "64").replace("NB, TAILC, NB - 1", "NB, 32, NB - 1"))
    b = build(src)
    assert b.ok
    r = run(b, [GM("x", np.zeros((NB, AB), np.float32)), GM("cnt", np.ones(AB, np.int32)),
                GM("mo", np.zeros(AB, np.float32), "out"), GM("vo", np.zeros(AB, np.float32), "out"),
                GM("st", np.zeros(32, np.float32), "out")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "adv-shape" and "headCountLength 32 + tailCountLength 0 must equal abLength 64" in d.message, d.render()


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    uint32_t a, b, c, d;
    AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 2, 4, false, false, a, b);
    AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({128}), 4, false, c, d);
    std::printf("%u %u %u %u\n", a, b, c, d);
}
'''


def test_host_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    got = list(map(int, subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()))
    assert got == [8 * 768, 768, (128 + 256) * 4, 1024]
