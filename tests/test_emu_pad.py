"""Pad / UnPad (lib/pad) against NumPy: a width that is not 32-byte aligned padded out to 32 bytes on either side; an
aligned width whose last columns are not data padded on the right; UnPad removing right columns; the shape from the
tiling struct (an empty tiling stops with an error naming PadTilingFunc). Public kernels: cann-ops rfft1_d, stft
(include the header), the asc-devkit pad / unpad examples."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
#include "lib/pad/kernel_operator_pad_intf.h"
using namespace AscendC;
using T = CTYPE;
PARAMS
extern "C" __global__ __aicore__ void padk(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32768);
    GlobalTensor<T> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ T *)x, H * W);
    yg.SetGlobalBuffer((__gm__ T *)y, H * AW);
    zg.SetGlobalBuffer((__gm__ T *)z, H * (AW - 1));
    LocalTensor<T> a = buf.GetWithOffset<T>(H * AW, 0);
    LocalTensor<T> p = buf.GetWithOffset<T>(H * AW, 8192);
    LocalTensor<T> u = buf.GetWithOffset<T>(H * AW, 16384);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(4096, 24576);
    DataCopy(a, xg, H * W);
    PipeBarrier<PIPE_ALL>();
    PadTiling pt;
    pt.srcHeight = TH; pt.srcWidth = W; pt.srcOriWidth = ORI;
    PadParams pp{LEFT, RIGHT, 321};
    Pad(p, a, pp, tmp, pt);
    PipeBarrier<PIPE_V>();
    UnPadTiling ut;
    ut.srcHeight = H; ut.srcWidth = AW;
    UnPadParams up{0, 1};
    UnPad(u, p, up, ut);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, p, H * AW);
    DataCopy(zg, u, H * (AW - 1));
}
'''
H = 16
PAD_LINE = KERNEL.replace("PARAMS", "a\nb").splitlines().index("    Pad(p, a, pp, tmp, pt);") + 1   # PARAMS is 2 lines


def _run(tmp_path, ctype, dtype, w, ori, left, right, th=H):
    aw = -(-w * np.dtype(dtype).itemsize // 32) * 32 // np.dtype(dtype).itemsize
    src = tmp_path / "padk.cpp"
    params = f"constexpr uint32_t H = {H}, W = {w}, AW = {aw}, ORI = {ori}, TH = {th};\n" \
             f"constexpr uint16_t LEFT = {left}, RIGHT = {right};"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("PARAMS", params))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = (np.arange(H * w) % 1000).astype(dtype)
    return x, aw, run(b, [GM("x", x), GM("y", np.zeros(H * aw, dtype), "out"), GM("z", np.zeros(H * (aw - 1), dtype), "out")],
                      block_dim=1)


@pytest.mark.parametrize("ctype, dtype", [("half", np.float16), ("float", np.float32), ("int32_t", np.int32),
                                          ("int16_t", np.int16)])
def test_pad_unaligned_width_then_unpad(tmp_path, ctype, dtype):
    w = 15 if np.dtype(dtype).itemsize == 2 else 7      # one element short of 32 bytes
    x, aw, r = _run(tmp_path, ctype, dtype, w, w, 0, 1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = np.concatenate([x.reshape(H, w), np.full((H, 1), 321, dtype)], axis=1)
    np.testing.assert_array_equal(r.outputs["y"].reshape(H, aw), want)
    np.testing.assert_array_equal(r.outputs["z"].reshape(H, aw - 1), x.reshape(H, w))   # UnPad takes the column off again


def test_pad_both_sides_of_an_unaligned_width(tmp_path):
    x, aw, r = _run(tmp_path, "half", np.float16, 13, 13, 2, 1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    pad = np.full((H, 1), 321, np.float16)
    want = np.concatenate([pad, pad, x.reshape(H, 13), pad], axis=1)
    np.testing.assert_array_equal(r.outputs["y"].reshape(H, aw), want)


def test_pad_the_tail_of_an_aligned_width(tmp_path):
    x, aw, r = _run(tmp_path, "half", np.float16, 16, 14, 0, 2)     # columns 14 and 15 are not data
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = x.reshape(H, 16).copy()
    want[:, 14:] = 321
    np.testing.assert_array_equal(r.outputs["y"].reshape(H, 16), want)


@pytest.mark.parametrize("w, ori, left, right, th, says", [
    (16, 14, 1, 1, H, "only rightPad may be set"),
    (13, 13, 2, 2, H, "exceeds the row rounded up to 32 bytes"),
    (15, 15, 0, 1, 0, "PadTilingFunc"),
])
def test_pad_misuse_stops(tmp_path, w, ori, left, right, th, says):
    x, aw, r = _run(tmp_path, "half", np.float16, w, ori, left, right, th)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "bad-argument" and says in d.render() and d.line == PAD_LINE, d.render()
