"""SelectWithBytesMask (also spelled Select with a SelectWithBytesMaskShapeInfo): a mask of values, not bits, picks the
tensor's element (mask 0) or the scalar, row by row with a mask row at least as long as the source row (public kernel:
NPUKernelBench SelectReduceMaxDSubExpReduceSumDRealDiv). Checked against NumPy, with its 1 KB temporary buffer rule."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void selb(GM_ADDR x, GM_ADDR m, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 1024);
    GlobalTensor<float> xg, yg; GlobalTensor<uint8_t> mg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    mg.SetGlobalBuffer((__gm__ uint8_t *)m, 128);
    yg.SetGlobalBuffer((__gm__ float *)y, 128);
    LocalTensor<float> a = buf.GetWithOffset<float>(64, 0), d0 = buf.GetWithOffset<float>(64, 256), d1 = buf.GetWithOffset<float>(64, 512);
    LocalTensor<uint8_t> mask = buf.GetWithOffset<uint8_t>(128, 1024);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(TMP_BYTES, 2048);
    DataCopy(a, xg, 64);
    DataCopy(mask, mg, 128);
    PipeBarrier<PIPE_ALL>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 32;
    info.maskLastAxis = 64;
    SelectWithBytesMask<float, uint8_t, false>(d0, a, 7.5f, mask, tmp, info);   // mask 0: a, else 7.5
    PipeBarrier<PIPE_V>();
    Select(d1, -1.0f, a, mask, tmp, info);                                       // mask 0: -1, else a (packs the mask)
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, d0, 64);
    DataCopy(yg[64], d1, 64);
}
'''


def _build(tmp_path, tmp_bytes):
    src = tmp_path / "selb.cpp"
    src.write_text(KERNEL.replace("TMP_BYTES", str(tmp_bytes)))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _args(x, m):
    return [GM("x", x), GM("m", m), GM("y", np.zeros(128, np.float32), "out")]


def test_select_with_bytes_mask_against_numpy(tmp_path):
    rng = np.random.default_rng(2)
    x = rng.standard_normal(64).astype(np.float32)
    m = rng.integers(0, 3, 128).astype(np.uint8)      # values 0, 1, 2: any nonzero value selects the other source
    r = run(_build(tmp_path, 1024), _args(x, m), block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    used = m.reshape(2, 64)[:, :32].ravel()           # the first 32 mask values of each 64-value row
    y = r.outputs["y"]
    np.testing.assert_array_equal(y[:64], np.where(used == 0, x, np.float32(7.5)))
    np.testing.assert_array_equal(y[64:], np.where(used == 0, np.float32(-1.0), x))


def test_select_with_bytes_mask_under_1kb_temporary_warns(tmp_path):
    # the API asserts >= 1 KB only in CPU-debug builds; on the NPU a smaller buffer runs (public kernels pass 128 bytes)
    rng = np.random.default_rng(3)
    x = rng.standard_normal(64).astype(np.float32)
    m = rng.integers(0, 2, 128).astype(np.uint8)
    r = run(_build(tmp_path, 128), _args(x, m), block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    warn = [d for d in r.diagnostics if d.kind == "select-bytes-tmp"]
    # once per call site: the two calls at lines 22 and 24
    assert sorted(w.render().split(":")[1] for w in warn) == ["22", "24"] and "1024" in warn[0].render(), [w.render() for w in warn]
    used = m.reshape(2, 64)[:, :32].ravel()
    np.testing.assert_array_equal(r.outputs["y"][:64], np.where(used == 0, x, np.float32(7.5)))
