"""SoftmaxFlashV3 (the PASA softmax of lib/activation/softmaxflashv3.h) on A2: half rows, float statistics; the
partial means of the reference's block reductions, the alpha / (1 - alpha) shift, the flash update with loopCnt.
Checked against a NumPy model of the documented formula (float32 steps) for update false and true, at k = 512 and
k = 1024 (where the later 64-element chunks fold into the partial sums lane by lane); the documented shape limits
and splitMeanCnt != 8 are named errors."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(3015)

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
template <uint32_t M, uint32_t K, bool UPDATE, uint32_t LOOP, uint32_t SPLIT = 8, bool TMP = false>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR inMean, GM_ADDR inSum, GM_ADDR inMax, GM_ADDR y, GM_ADDR stats)
{
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<float> mGm, sGm, xmGm, oGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, M * K);
    yGm.SetGlobalBuffer((__gm__ half *)y, M * K + M * 16);
    mGm.SetGlobalBuffer((__gm__ float *)inMean, M * 8);
    sGm.SetGlobalBuffer((__gm__ float *)inSum, M * 8);
    xmGm.SetGlobalBuffer((__gm__ float *)inMax, M * 8);
    oGm.SetGlobalBuffer((__gm__ float *)stats, M * 24);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qm, qs, qmax;
    TQue<TPosition::VECOUT, 1> qy;
    TBuf<TPosition::VECCALC> tE, tOut, tTmp;
    pipe.InitBuffer(qx, 1, M * K * 2);
    pipe.InitBuffer(qm, 1, M * 32);
    pipe.InitBuffer(qs, 1, M * 32);
    pipe.InitBuffer(qmax, 1, M * 32);
    pipe.InitBuffer(qy, 1, M * K * 2);
    pipe.InitBuffer(tE, M * 32);
    pipe.InitBuffer(tOut, M * 96);
    pipe.InitBuffer(tTmp, 4096);
    LocalTensor<half> xl = qx.AllocTensor<half>();
    LocalTensor<float> ml = qm.AllocTensor<float>(), sl = qs.AllocTensor<float>(), maxl = qmax.AllocTensor<float>();
    DataCopy(xl, xGm, M * K);
    DataCopy(ml, mGm, M * 8);
    DataCopy(sl, sGm, M * 8);
    DataCopy(maxl, xmGm, M * 8);
    qx.EnQue(xl); qm.EnQue(ml); qs.EnQue(sl); qmax.EnQue(maxl);
    xl = qx.DeQue<half>(); ml = qm.DeQue<float>(); sl = qs.DeQue<float>(); maxl = qmax.DeQue<float>();
    LocalTensor<half> yl = qy.AllocTensor<half>(), el = tE.Get<half>();
    LocalTensor<float> out = tOut.Get<float>();
    LocalTensor<float> om = out, os = out[M * 8], omax = out[M * 16];
    SoftMaxTiling tiling;
    SoftMaxParams params = {M, K, M, K, LOOP, SPLIT, 0.9375f};
    if constexpr (TMP) {
        LocalTensor<uint8_t> tmp = tTmp.Get<uint8_t>();
        SoftmaxFlashV3<half, float, UPDATE>(yl, om, os, omax, xl, el, ml, sl, maxl, tmp, tiling, params);
    } else {
        SoftmaxFlashV3<half, float, UPDATE>(yl, om, os, omax, xl, el, ml, sl, maxl, tiling, params);
    }
    PipeBarrier<PIPE_V>();
    qy.EnQue(yl);
    yl = qy.DeQue<half>();
    DataCopy(yGm, yl, M * K);
    if constexpr (UPDATE) DataCopy(yGm[M * K], el, M * 16);
    DataCopy(oGm, out, M * 24);
    qy.FreeTensor(yl); qx.FreeTensor(xl); qm.FreeTensor(ml); qs.FreeTensor(sl); qmax.FreeTensor(maxl);
}
extern "C" __global__ __aicore__ void plain512(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<8, 512, false, 1>(x, a, b, c, y, s);
}
extern "C" __global__ __aicore__ void update1024(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<16, 1024, true, 3, 8, true>(x, a, b, c, y, s);
}
extern "C" __global__ __aicore__ void plain768(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<8, 768, false, 1>(x, a, b, c, y, s);
}
extern "C" __global__ __aicore__ void split4(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<8, 512, false, 1, 4>(x, a, b, c, y, s);
}
extern "C" __global__ __aicore__ void short_row(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR s)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<8, 256, false, 1>(x, a, b, c, y, s);
}
'''


def model(x, inmean, insum, inmax, update, loop, alpha=0.9375):
    "The documented formula, step by step in float32: the partial means of the block reductions, then the flash update."
    f = np.float32
    x = x.astype(f)
    m, k = x.shape
    scalar = f(alpha) / (f(1) - f(alpha))
    part = x[:, :512].reshape(m, 64, 8).sum(-1, dtype=f)
    for r in range(k // 64 - 8):
        part = part + x[:, 512 + 64 * r: 576 + 64 * r]
    local = part.reshape(m, 8, 8).sum(-1, dtype=f) / f(k // 8)
    g = local.sum(-1, dtype=f) / f(8)
    x = x - np.repeat((g[:, None] - local) * scalar, k // 8, axis=1)
    rmax = x.max(-1)
    if update:
        mean = (g + inmean * f(loop - 1)) / f(loop)
        cur, prev = (g - mean) * scalar, (inmean - mean) * scalar
        xmax = np.maximum(cur + rmax, prev + inmax)
    else:
        mean, cur = g, np.zeros(m, f)
        xmax = cur + rmax
    e = np.exp(x - (xmax - cur)[:, None])
    s = e.sum(-1, dtype=f)
    em = np.exp(inmax - xmax + prev) if update else None
    if update:
        s = em * insum + s
    return e, mean, s, xmax, em


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    src = tmp_path_factory.mktemp("flashv3") / "flashv3.cpp"
    src.write_text(KERNEL)
    return lambda entry: build(src, entry=entry)


def _run(b, m, k, update, loop):
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = (RNG.standard_normal((m, k)) * 2).astype(np.float16)
    inmean = RNG.standard_normal(m).astype(np.float32) * 0.1
    insum = RNG.uniform(1, 50, m).astype(np.float32)
    inmax = RNG.uniform(0, 4, m).astype(np.float32)
    rep = lambda v: np.repeat(v[:, None], 8, axis=1)
    r = run(b, [GM("x", x), GM("inMean", rep(inmean)), GM("inSum", rep(insum)), GM("inMax", rep(inmax)),
                GM("y", np.zeros(m * k + m * 16, np.float16), "out"), GM("stats", np.zeros(m * 24, np.float32), "out")],
            block_dim=1)
    return r, (model(x, inmean, insum, inmax, update, loop) if k >= 512 else None)


@pytest.mark.parametrize("entry,m,k,update,loop", [("plain512", 8, 512, False, 1), ("plain768", 8, 768, False, 1),
                                                    ("update1024", 16, 1024, True, 3)])
def test_matches_the_documented_formula(kernels, entry, m, k, update, loop):
    r, (e, mean, s, xmax, em) = _run(kernels(entry), m, k, update, loop)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    y = r.outputs["y"]
    np.testing.assert_allclose(y[:m * k].astype(np.float32).reshape(m, k), e.astype(np.float16).astype(np.float32),
                               rtol=2e-3, atol=1e-6)
    st = r.outputs["stats"].reshape(3, m, 8)
    for got, want in zip(st, (mean, s, xmax)):
        np.testing.assert_allclose(got, np.repeat(want[:, None], 8, axis=1), rtol=1e-5, atol=1e-6)
    if update:
        np.testing.assert_allclose(y[m * k:].astype(np.float32).reshape(m, 16),
                                   np.repeat(em.astype(np.float16)[:, None], 16, axis=1).astype(np.float32), rtol=1e-3)


def test_split_mean_cnt_other_than_8_is_unsupported(kernels):
    r, _ = _run(kernels("split4"), 8, 512, False, 1)
    assert not r.ok
    assert any(d.kind == "unsupported" and "splitMeanCnt" in d.message for d in r.diagnostics), r.diagnostics


def test_rows_shorter_than_512_are_an_error(kernels):
    r, _ = _run(kernels("short_row"), 8, 256, False, 1)
    assert not r.ok
    assert any(d.kind == "adv-shape" for d in r.diagnostics), r.diagnostics


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    uint32_t mx = 7, mn = 7;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({8, 2048}), 2, 4, mx, mn, true);
    std::printf("%u %u\n", mx, mn);
    optiling::SoftMaxTiling t;
    AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({40, 1024}), 2, 4, 3 * ((8 * 5 + 2 * 1024 + 64) * 4) + 100, t, true);
    std::printf("%u %u %u %u %u %u\n", t.splitM, t.rangeM, t.tailM, t.reduceSize, t.outMaxK, t.tailSplitSize);
    AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({40, 1024}), 2, 4, 20 * ((8 * 5 + 2 * 1024 + 64) * 4), t, false);
    std::printf("%u %u %u\n", t.splitM, t.rangeM, t.tailM);
    mx = mn = 7;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({8, 2048}), 4, 4, mx, mn, true);
    std::printf("%u %u\n", mx, mn);
}
'''


def test_host_tiling(tmp_path):
    "GetSoftMaxFlashV3MaxMinTmpSize: 5 statistic blocks + two float rows + 64 per row; the tiling's row blocks."
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    row = (8 * 5 + 2 * 2048 + 64) * 4
    assert rows[0] == (8 * row, row)
    assert rows[1] == (3, 13, 1, 3 * 8, 8, 1024)        # 3 rows fit: not rounded (<= 8); 40 = 13 x 3 + 1
    assert rows[2] == (16, 2, 8)                        # 20 rows fit: rounded down to 16
    assert rows[3] == (7, 7) and "dataTypeSize1 is 4" in out.stderr   # float data: nothing computed
