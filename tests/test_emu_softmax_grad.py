"""SoftmaxGrad / SoftmaxGradFront against the API reference's NumPy formula (public kernels: cann-ops and NPUKernelBench
InplaceFusedMatmulSoftmaxGrad): s = sum(grad * src) per row; isFront writes s into one 32-byte block per row, else
dst = (grad - s) * src. Half and float, the shape from SoftMaxShapeInfo or from the tiling that the host's
SoftMaxGradTilingFunc fills; a misaligned row stops with `norm-shape`."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/activation/softmaxgrad.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t M = 8, K = KLEN, BLK = 32 / sizeof(T);
extern "C" __global__ __aicore__ void sgrad(GM_ADDR g, GM_ADDR x, GM_ADDR y, GM_ADDR f)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<T> gg, xg, yg, fg;
    gg.SetGlobalBuffer((__gm__ T *)g, M * K);
    xg.SetGlobalBuffer((__gm__ T *)x, M * K);
    yg.SetGlobalBuffer((__gm__ T *)y, M * K);
    fg.SetGlobalBuffer((__gm__ T *)f, M * BLK);
    LocalTensor<T> a = buf.GetWithOffset<T>(M * K, 0);
    LocalTensor<T> b = buf.GetWithOffset<T>(M * K, 8192);
    LocalTensor<T> d = buf.GetWithOffset<T>(M * K, 16384);
    LocalTensor<T> fr = buf.GetWithOffset<T>(M * BLK, 24576);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(8192, 32768);
    DataCopy(a, gg, M * K);
    DataCopy(b, xg, M * K);
    PipeBarrier<PIPE_ALL>();
    SoftMaxTiling tiling;
    tiling.srcM = M; tiling.srcK = K; tiling.srcSize = M * K;
    SoftMaxShapeInfo info = {M, K, M, K};
    SoftmaxGrad<T, false>(d, a, b, tmp, tiling, false, info);
    SoftmaxGradFront<T>(fr, a, b, tiling);            // the shape from the tiling
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d, M * K);
    DataCopy(fg, fr, M * BLK);
}
'''
M = 8


def _build(tmp_path, ctype, k):
    src = tmp_path / "sgrad.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("KLEN", str(k)))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def softmax_grad(grad, src, is_front=False):    # the API reference's formula
    dst = np.sum(grad * src, axis=-1, keepdims=True)
    return dst if is_front else (grad - dst) * src


@pytest.mark.parametrize("ctype, dtype, k, tol", [("float", np.float32, 64, 1e-6), ("half", np.float16, 32, 2e-3)])
def test_softmax_grad_against_numpy(tmp_path, ctype, dtype, k, tol):
    rng = np.random.default_rng(6)
    grad = rng.standard_normal((M, k)).astype(dtype)
    e = np.exp(rng.standard_normal((M, k)))
    src = (e / e.sum(-1, keepdims=True)).astype(dtype)      # a softmax output, as the API expects
    blk = 32 // np.dtype(dtype).itemsize
    r = run(_build(tmp_path, ctype, k), [GM("g", grad), GM("x", src), GM("y", np.zeros((M, k), dtype), "out"),
                                         GM("f", np.zeros((M, blk), dtype), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    g64, s64 = grad.astype(np.float64), src.astype(np.float64)
    np.testing.assert_allclose(r.outputs["y"].astype(np.float64), softmax_grad(g64, s64), atol=tol, rtol=tol)
    front = np.broadcast_to(softmax_grad(g64, s64, True), (M, blk))
    np.testing.assert_allclose(r.outputs["f"].astype(np.float64), front, atol=tol, rtol=tol)


def test_softmax_grad_misaligned_row_stops(tmp_path):
    r = run(_build(tmp_path, "float", 60), [GM("g", np.ones((M, 60), np.float32)), GM("x", np.ones((M, 60), np.float32)),
                                            GM("y", np.zeros((M, 60), np.float32), "out"),
                                            GM("f", np.zeros((M, 8), np.float32), "out")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "norm-shape" and "60 elements (240 bytes" in d.message and "SoftMaxGradTilingFunc" in d.hint, d.render()


HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    ge::Shape shape({16, 128});
    uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(shape, 4, false, false);
    uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(shape, 4, true, false);
    optiling::SoftMaxTiling t;
    AscendC::SoftMaxGradTilingFunc(shape, 4, lo, t, false);
    std::printf("%u %u %u %u %u\n", lo, hi, t.srcM, t.srcK, t.srcSize);
}
'''


def test_softmax_grad_host_sizes_and_tiling(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    lo, hi, m, k, size = map(int, subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split())
    assert (m, k, size) == (16, 128, 16 * 128)
    assert lo >= 128 * 4 and lo % 32 == 0 and hi == 16 * lo     # at least one row of float temporaries; at most every row
