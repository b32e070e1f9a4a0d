"""SetLoadDataBoundary with LoadData 3D (the API reference's SetLoadDataBoundary: for the v2 LoadData forms the value
is in bytes, 0 means no boundary, 1..1023 is undefined; a source byte at or past the boundary is read from the start of
L1 on), as the asc-devkit set_loaddata_boundary example uses it: a 1 x 1 img2col of a 32 x 1 feature map with 32 half
channels (two C1 blocks of 1024 bytes at L1 0) after SetLoadDataBoundary(1024) reads the second block from L1's first
1024 bytes, i.e. channels 16..31 as channels 0..15."""
import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
// out [32, 32] = img2col(fmap) x W, fmap [C1 = 2][H = 32][W = 1][C0 = 16] half at L1 0, W given as W^T [32, 32]
extern "C" __global__ __aicore__ void wrap_load(GM_ADDR fmap, GM_ADDR wT, GM_ADDR out, uint32_t boundary)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr uint32_t H = 32, C = 32, N = 32, K = 32;
    GlobalTensor<half> fGm, wGm;
    GlobalTensor<float> oGm;
    fGm.SetGlobalBuffer((__gm__ half *)fmap, C * H);
    wGm.SetGlobalBuffer((__gm__ half *)wT, N * K);
    oGm.SetGlobalBuffer((__gm__ float *)out, H * N);
    LocalTensor<half> a1(TPosition::A1, 0, C * H);
    LocalTensor<half> b1(TPosition::B1, 4096, N * K);
    DataCopy(a1, fGm, C * H);
    Nd2NzParams pb;
    pb.ndNum = 1; pb.nValue = N; pb.dValue = K; pb.srcNdMatrixStride = 0; pb.srcDValue = K;
    pb.dstNzC0Stride = N; pb.dstNzNStride = 1; pb.dstNzMatrixStride = 0;
    DataCopy(b1, wGm, pb);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> a2(TPosition::A2, 0, H * K);
    LoadData3DParamsV2<half> p;
    p.l1H = H; p.l1W = 1;
    for (int i = 0; i < 4; ++i) p.padList[i] = 0;
    p.channelSize = C; p.kExtension = K; p.mExtension = H; p.kStartPt = 0; p.mStartPt = 0;
    p.strideW = 1; p.strideH = 1; p.filterW = 1; p.filterH = 1; p.dilationFilterW = 1; p.dilationFilterH = 1;
    p.enTranspose = false;
    SetLoadDataBoundary(boundary);
    LoadData(a2, a1, p);
    SetLoadDataBoundary(0);
    LocalTensor<half> b2(TPosition::B2, 0, N * K);
    LoadData2DParams lb;
    lb.startIndex = 0; lb.repeatTimes = (K / 16) * (N / 16); lb.srcStride = 1; lb.ifTranspose = false;
    LoadData(b2, b1, lb);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> c1(TPosition::CO1, 0, H * N);
    MmadParams mp;
    mp.m = H; mp.n = N; mp.k = K;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = H; fp.srcStride = H; fp.dstStride = N; fp.ndNum = 1;
    fp.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(oGm, c1, fp);
}
'''


def _run(tmp_path, boundary):
    src = tmp_path / "wrap_load.cpp"
    src.write_text(KERNEL)
    b = build(src, entry="wrap_load")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(5)
    fm = rng.integers(-4, 5, (32, 32)).astype(np.float16)              # [H, C]
    nc1hwc0 = np.ascontiguousarray(fm.reshape(32, 2, 16).transpose(1, 0, 2))
    w = rng.integers(-3, 4, (32, 32)).astype(np.float16)               # [K, N]
    r = run(b, [GM("fmap", nc1hwc0), GM("wT", np.ascontiguousarray(w.T)), GM("out", np.empty((32, 32), np.float32), "out"),
                Scalar(boundary, "uint32_t")], block_dim=1)
    return r, fm.astype(np.float64), w.astype(np.float64)


def test_load3d_wraps_at_the_boundary(tmp_path):
    r, fm, w = _run(tmp_path, 1024)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    wrapped = fm.copy()
    wrapped[:, 16:] = fm[:, :16]          # block 1 (L1 bytes 1024..2047) read from bytes 0..1023
    np.testing.assert_array_equal(r.outputs["out"], wrapped @ w)


def test_load3d_without_a_boundary_reads_the_whole_map(tmp_path):
    r, fm, w = _run(tmp_path, 0)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["out"], fm @ w)


def test_a_boundary_below_1024_bytes_is_an_error(tmp_path):
    r, _, _ = _run(tmp_path, 512)
    assert not r.ok and "1..1023" in r.diagnostics[0].message, [d.render() for d in r.diagnostics]
