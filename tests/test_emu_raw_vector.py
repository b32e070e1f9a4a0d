"""The raw vector intrinsics that kernels ported from the devkit call (cann-ops / NPUKernelBench add_layer_norm):
the address registers VA0..VA7 with scatter_vnchwconv_b16/b32 (TransDataTo5HD on register pairs), vtranspose, vector_dup,
vor / vand under the mask register, and copy_ubuf_to_ubuf. Checked against NumPy; reading a register that was never
loaded, or VA7 as the first of a pair, stops with an error naming the intrinsic."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void rawv(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    GlobalTensor<int16_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ int16_t *)x, 512);
    yg.SetGlobalBuffer((__gm__ int16_t *)y, 1536);
    LocalTensor<int16_t> a = buf.GetWithOffset<int16_t>(512, 0);
    LocalTensor<int16_t> t = buf.GetWithOffset<int16_t>(256, 1024);
    LocalTensor<int16_t> u = buf.GetWithOffset<int16_t>(256, 1536);
    LocalTensor<int16_t> o = buf.GetWithOffset<int16_t>(512, 2048);
    LocalTensor<int16_t> c = buf.GetWithOffset<int16_t>(512, 3072);
    DataCopy(a, xg, 512);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ int16_t *src = (__ubuf__ int16_t *)a.GetPhyAddr();
    __ubuf__ int16_t *dst = (__ubuf__ int16_t *)t.GetPhyAddr();
    uint64_t d0[8], d1[8], s0[8], s1[8];
    for (int i = 0; i < 8; ++i) {
        d0[i] = (uint64_t)(dst + 16 * i); d1[i] = (uint64_t)(dst + 16 * (i + 8));
        s0[i] = (uint64_t)(src + 16 * i); s1[i] = (uint64_t)(src + 16 * (i + 8));
    }
    SETVA
    scatter_vnchwconv_b16(PAIR, 1, 0, 0);             // t = the first 16 x 16 block of a, transposed
    vtranspose((__ubuf__ uint16_t *)u.GetPhyAddr(), (__ubuf__ uint16_t *)(src + 256));   // u = the second, transposed
    SetVectorMask<int16_t>(0x0, 0xffff);                   // the first 16 lanes of each 128
    vector_dup((__ubuf__ int16_t *)o.GetPhyAddr(), (int16_t)7, 2, 1, 1, (uint8_t)8, (uint8_t)0);
    SetVectorMask<int16_t>(~0ULL, ~0ULL);
    vor((__ubuf__ int16_t *)o.GetPhyAddr() + 256, src, src + 256, 2, 1, 1, 1, 8, 8, 8);   // o[256:] = a[:256] | a[256:]
    copy_ubuf_to_ubuf((__ubuf__ int16_t *)c.GetPhyAddr(), src, 0, 2, 4, 4, 0);             // two bursts of 128 B, src gap 128 B
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 256);
    DataCopy(yg[256], u, 256);
    DataCopy(yg[512], o, 512);
    DataCopy(yg[1024], c, 128);
}
'''
LOAD = "set_va_reg_sb(VA0, d0); set_va_reg_sb(VA1, d1); set_va_reg_sb(VA2, s0); set_va_reg_sb(VA3, s1);"


def _run(tmp_path, setva, pair="VA0, VA2"):
    src = tmp_path / "rawv.cpp"
    src.write_text(KERNEL.replace("SETVA", setva).replace("PAIR", pair))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(1).integers(-2**15, 2**15 - 1, 512).astype(np.int16)
    return x, run(b, [GM("x", x), GM("y", np.zeros(1536, np.int16), "out")], block_dim=1)


def test_raw_vector_intrinsics_against_numpy(tmp_path):
    x, r = _run(tmp_path, LOAD)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_array_equal(y[:256], x[:256].reshape(16, 16).T.ravel())
    np.testing.assert_array_equal(y[256:512], x[256:].reshape(16, 16).T.ravel())
    dup = y[512:768].reshape(2, 128)                        # repeat stride 8 blocks = 128 elements: 16 lanes each
    np.testing.assert_array_equal(dup[:, :16], np.full((2, 16), 7, np.int16))
    np.testing.assert_array_equal(y[768:1024], x[:256] | x[256:])
    np.testing.assert_array_equal(y[1024:1152], np.concatenate([x[:64], x[128:192]]))


@pytest.mark.parametrize("setva, pair, says", [
    ("set_va_reg_sb(VA0, d0); set_va_reg_sb(VA2, s0); set_va_reg_sb(VA3, s1);", "VA0, VA2", "never loaded VA1"),
    (LOAD + " set_va_reg_sb(VA7, d0);", "VA7, VA2", "VA7 has no next register"),
])
def test_address_register_misuse_stops(tmp_path, setva, pair, says):
    x, r = _run(tmp_path, setva, pair)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "va-register" and says in d.render() and "scatter_vnchwconv_b16" in d.render(), d.render()
