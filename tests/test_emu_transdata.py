"""TransData (the advanced API): 16-bit data NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D with C0 = N0 = 16, checked
against NumPy on shapes whose C and N are not multiples of 16 and whose H x W rows are padded to 16 on the NCDHW side;
the named errors for a format pair A2 does not convert and for a temporary buffer smaller than the conversion needs."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(1515)
N, C, D, H, W = 20, 13, 2, 3, 5
HW, PHW = H * W, 16
C1, N1 = (C + 15) // 16, (N + 15) // 16

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kTo6hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFrom6hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
constexpr TransDataConfig kSame = {DataFormat::NCDHW, DataFormat::NCDHW};
constexpr int32_t n = @N@, c = @C@, d = @D@, h = @H@, w = @W@;
constexpr int32_t c1 = (c + 15) / 16, n1 = (n + 15) / 16, phw = (h * w + 15) / 16 * 16;
constexpr uint32_t NCDHW = n * c * d * phw, FZ = d * c1 * h * w * n1 * 16 * 16, HD6 = n * d * c1 * h * w * 16;

// MODE 1..4: the four conversions; 5: an unsupported pair; 6: mode 1 with a temporary buffer 32 bytes short
template <typename T, int MODE>
__aicore__ inline void Run(GM_ADDR src, GM_ADDR dst)
{
    constexpr uint32_t SRC = MODE == 1 || MODE == 3 || MODE >= 5 ? NCDHW : MODE == 2 ? FZ : HD6;
    constexpr uint32_t DST = MODE == 2 || MODE == 4 || MODE == 5 ? NCDHW : MODE == 3 ? HD6 : FZ;
    constexpr uint32_t TMP = MODE == 3 ? (d * phw + d * c1 * 16 * phw) * 2
                           : MODE == 4 ? d * c1 * 16 * phw * 2 + 512
                           : MODE == 2 ? n1 * 16 * c1 * 16 * d * phw * 4
                           : (c * d * phw > d * h * w * n1 * 16 ? c * d * phw : d * h * w * n1 * 16) * 2 + n1 * 16 * d * c1 * 16 * phw * 2;
    GlobalTensor<T> sGm, dGm;
    sGm.SetGlobalBuffer((__gm__ T *)src, SRC);
    dGm.SetGlobalBuffer((__gm__ T *)dst, DST);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(qi, 1, SRC * sizeof(T));
    pipe.InitBuffer(qo, 1, DST * sizeof(T));
    pipe.InitBuffer(tb, MODE == 6 ? TMP - 32 : TMP);
    LocalTensor<T> s = qi.AllocTensor<T>();
    DataCopy(s, sGm, SRC);
    qi.EnQue(s);
    s = qi.DeQue<T>();
    LocalTensor<T> o = qo.AllocTensor<T>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    auto ncdhw = MakeLayout(MakeShape(n, c, d, h, w), MakeStride());
    auto fz = MakeLayout(MakeShape(d, c1, h, w, n1, 16, 16), MakeStride());
    auto hd6 = MakeLayout(MakeShape(n, d, c1, h, w, 16), MakeStride());
    if constexpr (MODE == 1 || MODE == 6) {
        TransDataParams<decltype(ncdhw), decltype(fz)> p = {ncdhw, fz};
        TransData<kToFz>(o, s, tmp, p);
    } else if constexpr (MODE == 2) {
        TransDataParams<decltype(fz), decltype(ncdhw)> p = {fz, ncdhw};
        TransData<kFromFz, T, decltype(fz), decltype(ncdhw)>(o, s, tmp, p);
    } else if constexpr (MODE == 3) {
        TransDataParams<decltype(ncdhw), decltype(hd6)> p = {ncdhw, hd6};
        TransData<kTo6hd>(o, s, p);                          // the framework's temporary space
    } else if constexpr (MODE == 4) {
        TransDataParams<decltype(hd6), decltype(ncdhw)> p = {hd6, ncdhw};
        TransData<kFrom6hd>(o, s, tmp, p);
    } else {
        TransDataParams<decltype(ncdhw), decltype(ncdhw)> p = {ncdhw, ncdhw};
        TransData<kSame>(o, s, tmp, p);
    }
    qo.EnQue(o);
    o = qo.DeQue<T>();
    DataCopy(dGm, o, DST);
    qi.FreeTensor(s); qo.FreeTensor(o);
}
extern "C" __global__ __aicore__ void to_fz(GM_ADDR src, GM_ADDR dst)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<half, 1>(src, dst);
}
extern "C" __global__ __aicore__ void from_fz(GM_ADDR src, GM_ADDR dst)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<int16_t, 2>(src, dst);
}
extern "C" __global__ __aicore__ void to_6hd(GM_ADDR src, GM_ADDR dst)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<bfloat16_t, 3>(src, dst);
}
extern "C" __global__ __aicore__ void from_6hd(GM_ADDR src, GM_ADDR dst)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<uint16_t, 4>(src, dst);
}
extern "C" __global__ __aicore__ void same(GM_ADDR src, GM_ADDR dst)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<half, 5>(src, dst);
}
extern "C" __global__ __aicore__ void short_tmp(GM_ADDR src, GM_ADDR dst)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Run<half, 6>(src, dst);
}
'''.replace("@N@", str(N)).replace("@C@", str(C)).replace("@D@", str(D)).replace("@H@", str(H)).replace("@W@", str(W))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    src = tmp_path_factory.mktemp("transdata") / "transdata.cpp"
    src.write_text(KERNEL)
    return {e: build(src, entry=e) for e in ("to_fz", "from_fz", "to_6hd", "from_6hd", "same", "short_tmp")}


def padded_ncdhw(x):
    "(n, c, d, h, w) -> (n, c, d, 16) rows, the padding filled with a marker TransData must not read."
    out = np.full((N, C, D, PHW), 77, x.dtype)
    out[..., :HW] = x.reshape(N, C, D, HW)
    return out


def fz_of(x):
    "NCDHW -> FRACTAL_Z_3D (d, c1, h, w, n1, n0, c0), the C and N padding 0."
    p = np.zeros((N1 * 16, C1 * 16, D, H, W), x.dtype)
    p[:N, :C] = x
    return p.reshape(N1, 16, C1, 16, D, H, W).transpose(4, 2, 5, 6, 0, 1, 3)


def hd6_of(x):
    "NCDHW -> NDC1HWC0 (n, d, c1, h, w, c0), the C padding 0."
    p = np.zeros((N, C1 * 16, D, H, W), x.dtype)
    p[:, :C] = x
    return p.reshape(N, C1, 16, D, H, W).transpose(0, 3, 1, 4, 5, 2)


def _run(b, src, dst_shape, dtype):
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return run(b, [GM("src", np.ascontiguousarray(src).reshape(-1)), GM("dst", np.zeros(int(np.prod(dst_shape)), dtype), "out")],
               block_dim=1)


def test_ncdhw_to_fractal_z_3d(built):
    x = RNG.standard_normal((N, C, D, H, W)).astype(np.float16)
    r = _run(built["to_fz"], padded_ncdhw(x), fz_of(x).shape, np.float16)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["dst"], fz_of(x).reshape(-1))


def test_fractal_z_3d_to_ncdhw(built):
    x = RNG.integers(-30000, 30000, (N, C, D, H, W)).astype(np.int16)
    src = fz_of(x).copy()
    r = _run(built["from_fz"], src, (N, C, D, PHW), np.int16)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    out = r.outputs["dst"].reshape(N, C, D, PHW)
    np.testing.assert_array_equal(out[..., :HW], x.reshape(N, C, D, HW))


def test_ncdhw_to_ndc1hwc0_bf16(built):
    x = RNG.integers(0, 65536, (N, C, D, H, W)).astype(np.uint16)   # bfloat16 bit patterns: moved, not computed
    r = _run(built["to_6hd"], padded_ncdhw(x), hd6_of(x).shape, np.uint16)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["dst"], hd6_of(x).reshape(-1))


def test_ndc1hwc0_to_ncdhw(built):
    x = RNG.integers(0, 65536, (N, C, D, H, W)).astype(np.uint16)
    r = _run(built["from_6hd"], hd6_of(x), (N, C, D, PHW), np.uint16)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["dst"].reshape(N, C, D, PHW)[..., :HW], x.reshape(N, C, D, HW))


def test_a_pair_a2_does_not_convert_is_a_named_error(built):
    x = RNG.standard_normal((N, C, D, H, W)).astype(np.float16)
    r = _run(built["same"], padded_ncdhw(x), (N, C, D, PHW), np.float16)
    assert not r.ok
    assert any(d.kind == "unsupported" and "TransDataConfig" in d.message for d in r.diagnostics), r.diagnostics


def test_a_short_temporary_buffer_is_an_error(built):
    x = RNG.standard_normal((N, C, D, H, W)).astype(np.float16)
    r = _run(built["short_tmp"], padded_ncdhw(x), fz_of(x).shape, np.float16)
    assert not r.ok
    assert any(d.kind == "adv-tmp-space" for d in r.diagnostics), r.diagnostics
