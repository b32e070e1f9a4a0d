"""LoadData with LoadData3DParamsV2 (img2col, L1 -> L0A / L0B) and Mmad's GEMV mode (m = 1) on the emulator.

Img2col is checked through the matrix product it feeds: a half feature map (NC1HWC0) unrolled into L0A with padding,
strides, dilation and a kernel window, times a weight matrix, against a NumPy convolution written here; the same with
l1H / l1W / padList and the pad value taken from SetFmatrix / SetLoadDataPaddingValue. The transposing loads (A^T in L1
-> A as ZZ in L0A with enTranspose; B -> ZN in L0B) give A x B for half and float, and leaving enTranspose off gives
wrong numbers. GEMV: with m = 1 Mmad reads A as k consecutive elements (one 512-byte fractal holds 256 halves); an
operand past the end of a static LocalTensor (an address on the NPU) is a warning."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(33)


def _img2col(fm, pad, pad_value, hk, wk, stride, dil):
    "fm [C, H, W] -> rows (oh, ow) x columns (c1, kh, kw, c0), as the cube unit unrolls an NC1HWC0 map (C0 = 16)."
    c, h, w = fm.shape
    left, right, top, bottom = pad
    p = np.full((c, h + top + bottom, w + left + right), pad_value, np.float64)
    p[:, top:top + h, left:left + w] = fm
    ho = (h + top + bottom - (hk - 1) * dil - 1) // stride + 1
    wo = (w + left + right - (wk - 1) * dil - 1) // stride + 1
    rows = []
    for oh in range(ho):
        for ow in range(wo):
            cols = []
            for c1 in range(c // 16):
                for i in range(hk):
                    for j in range(wk):
                        cols.append(p[c1 * 16:(c1 + 1) * 16, oh * stride + i * dil, ow * stride + j * dil])
            rows.append(np.concatenate(cols))
    return np.array(rows)


def _check_convolution(b, h, w, c, hk, wk, stride, dil, pad_lr, pad_tb, m_start, m_ext, n=24):
    """Run a built cube_load3d-style kernel (feature map in NC1HWC0, weights transposed) on random half data and
    compare rows m_start .. m_start + m_ext of its product with NumPy's img2col @ weights."""
    assert b.ok, "\n".join(map(str, b.diagnostics))
    fm = RNG.standard_normal((c, h, w)).astype(np.float16)
    nc1hwc0 = np.ascontiguousarray(fm.reshape(c // 16, 16, h, w).transpose(0, 2, 3, 1))
    wmat = RNG.standard_normal((c * hk * wk, n)).astype(np.float16)
    args = [GM("fmap", nc1hwc0), GM("wT", np.ascontiguousarray(wmat.T)), GM("out", np.empty((m_ext, n), np.float32), "out")]
    args += [Scalar(v, "uint32_t") for v in (h, w, c, hk, wk, stride, dil, pad_lr, pad_tb, m_start, m_ext, n)]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    cols = _img2col(fm.astype(np.float64), (pad_lr, pad_lr, pad_tb, pad_tb), -2.0, hk, wk, stride, dil)
    assert cols.shape[0] >= m_start + m_ext
    ref = cols[m_start:m_start + m_ext] @ wmat.astype(np.float64)
    np.testing.assert_allclose(r.outputs["out"], ref, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("entry", ["conv_f16", "conv_f16_regs"])
@pytest.mark.parametrize("h,w,c,hk,wk,stride,dil,pad_lr,pad_tb,m_start,m_ext", [
    (6, 7, 32, 3, 3, 1, 1, 1, 1, 0, 42),     # "same" 3 x 3 convolution, two C1 blocks, m not a multiple of 16
    (9, 8, 16, 3, 2, 2, 2, 2, 1, 3, 16),     # strides 2, dilation 2, uneven padding, rows 3 .. 18 of 20
])
def test_img2col_into_l0a_is_a_convolution(entry, h, w, c, hk, wk, stride, dil, pad_lr, pad_tb, m_start, m_ext):
    b = build(KERNELS / "cube_load3d.cpp", entry=entry)
    _check_convolution(b, h, w, c, hk, wk, stride, dil, pad_lr, pad_tb, m_start, m_ext)


@pytest.mark.parametrize("entry,dtype,k", [("matmul_t_f16", np.float16, 64), ("matmul_t_f32", np.float32, 64),
                                           ("matmul_t_f32", np.float32, 40)])   # k = 40: Mmad's kDirectionAlign
def test_transposing_load3d_brings_a_from_a_transposed_and_b_into_zn(entry, dtype, k):
    m, n = 32, 48
    b = build(KERNELS / "cube_load3d.cpp", entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    a = RNG.standard_normal((m, k)).astype(dtype)
    bm = RNG.standard_normal((k, n)).astype(dtype)
    args = [GM("aT", np.ascontiguousarray(a.T)), GM("b", bm), GM("c", np.empty((m, n), np.float32), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_load3d_without_entranspose_leaves_a_transposed_and_the_product_wrong():
    m, n, k = 32, 48, 64
    b = build(KERNELS / "cube_load3d.cpp", entry="matmul_t_f16_no_transpose")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    args = [GM("aT", np.ascontiguousarray(a.T)), GM("b", bm), GM("c", np.empty((m, n), np.float32), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    r = run(b, args, block_dim=1)
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    assert not r.ok or not np.allclose(r.outputs["c"], ref, rtol=1e-2, atol=1e-1)


GEMV = r'''
#include "kernel_operator.h"
using namespace AscendC;
// y [1, N] = x [1, K] x B, B given as B^T [N, K]; x goes GM -> L1 -> L0A as K consecutive halves (GEMV: m = 1)
extern "C" __global__ __aicore__ void gemv(GM_ADDR x, GM_ADDR bT, GM_ADDR y, uint32_t N, uint32_t K, uint32_t aBytes)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    const uint32_t n1 = (N + 15) / 16;
    GlobalTensor<half> xGm, bGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, K);
    bGm.SetGlobalBuffer((__gm__ half *)bT, N * K);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    LocalTensor<half> a1(TPosition::A1, 0, K);
    LocalTensor<half> b1(TPosition::B1, K * 2, n1 * 16 * K);
    DataCopy(a1, xGm, K);
    Nd2NzParams pb;
    pb.ndNum = 1; pb.nValue = N; pb.dValue = K; pb.srcNdMatrixStride = 0; pb.srcDValue = K;
    pb.dstNzC0Stride = n1 * 16; pb.dstNzNStride = 1; pb.dstNzMatrixStride = 0;
    DataCopy(b1, bGm, pb);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> a2(TPosition::A2, 0, aBytes / 2);
    LoadData2DParams la;
    la.startIndex = 0; la.repeatTimes = K / 256; la.srcStride = 1; la.ifTranspose = false;
    LoadData(a2, a1, la);
    LocalTensor<half> b2(TPosition::B2, 0, n1 * 16 * K);
    LoadData2DParams lb;
    lb.startIndex = 0; lb.repeatTimes = K / 16 * n1; lb.srcStride = 1; lb.ifTranspose = false;
    LoadData(b2, b1, lb);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> c1(TPosition::CO1, 0, 16 * n1 * 16);
    MmadParams mp;
    mp.m = 1; mp.n = N; mp.k = K;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = 1; fp.srcStride = 16; fp.dstStride = N; fp.ndNum = 1;
    fp.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(yGm, c1, fp);
}
'''


def _gemv(tmp_path, n, k, a_bytes):
    src = tmp_path / "gemv.cpp"
    src.write_text(GEMV)
    b = build(src, entry="gemv")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = RNG.standard_normal((1, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    args = [GM("x", x), GM("bT", np.ascontiguousarray(bm.T)), GM("y", np.empty((1, n), np.float32), "out"),
            Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(a_bytes, "uint32_t")]
    return run(b, args, block_dim=1), x.astype(np.float64) @ bm.astype(np.float64)


def test_gemv_reads_a_as_one_row_of_k_elements(tmp_path):
    r, ref = _gemv(tmp_path, 40, 512, 1024)   # x is 2 fractals of 256 consecutive halves, not 32 fractals of 16 x 16
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)


def test_gemv_a_past_its_static_tensor_warns_with_the_gemv_size(tmp_path):
    "A static L0A tensor of 512 bytes for 512 halves: the hardware reads on (a warning), and GEMV needs 1024 bytes, not 32 fractals."
    r, ref = _gemv(tmp_path, 40, 512, 512)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)
    mmad = [d for d in r.diagnostics if d.kind == "cube-beyond-static-tensor" and d.message.startswith("Mmad")]
    assert len(mmad) == 1 and mmad[0].severity == "warning" and mmad[0].context["bytes_needed"] == 1024, mmad


def test_the_impl_names_kernels_call_compute_as_load_data_and_mmad():
    # cann-ops' conv3d backprop kernels call LoadDataImpl / MmadImpl, the functions behind LoadData and Mmad in AscendC's
    # own headers: the same convolution as conv_f16 through them
    text = (KERNELS / "cube_load3d.cpp").read_text()
    assert text.count("        LoadData(a2, a1, p);\n") == 1 and text.count("    Mmad(c1, a2, b2, mp);\n") == 1
    text = text.replace("        LoadData(a2, a1, p);\n", "        LoadDataImpl(a2, a1, p);\n")
    text = text.replace("    Mmad(c1, a2, b2, mp);\n", "    MmadImpl(c1, a2, b2, mp);\n")
    b = build({"cube_load3d_impl.cpp": text}, entry="conv_f16")
    _check_convolution(b, 6, 7, 32, 3, 3, 1, 1, 1, 1, 0, 42)


V2PRO_CALL = ("LoadData(a2, a1, LoadData3DParamsV2Pro(C, false, false, false, false, false, "
              "static_cast<uint64_t>(K) | (static_cast<uint64_t>(mExt) << 16) | (static_cast<uint64_t>(mStart) << 48), "
              "static_cast<uint64_t>(stride) | (static_cast<uint64_t>(stride) << 8) | (static_cast<uint64_t>(Wk) << 16) | "
              "(static_cast<uint64_t>(Hk) << 24) | (static_cast<uint64_t>(dilation) << 32) | "
              "(static_cast<uint64_t>(dilation) << 40)));")


@pytest.mark.parametrize("h,w,c,hk,wk,stride,dil,pad_lr,pad_tb,m_start,m_ext", [
    (6, 7, 32, 3, 3, 1, 1, 1, 1, 0, 42),
    (9, 8, 16, 3, 2, 2, 2, 2, 1, 3, 16),
])
def test_load3d_v2pro_packs_the_same_load(tmp_path, h, w, c, hk, wk, stride, dil, pad_lr, pad_tb, m_start, m_ext):
    """LoadData3DParamsV2Pro (ops-nn transpose_batch_mat_mul): extConfig / filterConfig carry the fields packed, l1H /
    l1W / padList come from Load3DSetFMatrixCal's register and the pad value from SetLoadDataPaddingValue's."""
    src = (KERNELS / "cube_load3d.cpp").read_text()
    src = src.replace("SetFmatrix(H, W, pads, FmatrixMode::FMATRIX_LEFT);", "Load3DSetFMatrixCal(H, W, pads);", 1)
    src = src.replace("LoadData<half, FROM_REGISTERS>(a2, a1, p);", V2PRO_CALL, 1)
    assert "Load3DSetFMatrixCal" in src and "LoadData3DParamsV2Pro" in src
    (tmp_path / "v2pro.cpp").write_text(src)
    b = build(tmp_path / "v2pro.cpp", entry="conv_f16_regs")
    _check_convolution(b, h, w, c, hk, wk, stride, dil, pad_lr, pad_tb, m_start, m_ext)
