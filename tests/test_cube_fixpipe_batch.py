"""Fixpipe with ndNum > 1 (several NZ matrices of L0C, srcNdStride x 1024 bytes apart, out as ND matrices dstNdStride
elements apart) and Fixpipe L0C -> L1 (NZ -> NZ as half, Z columns dstStride x 32 bytes apart), on two 16 x 32 x 32 half
products: both C's leave in one Fixpipe, and C0 goes back to L1 as half to be the A of a third product, read there with
the Z-column gap that dstStride left."""
import numpy as np

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(21)

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// a [2, 16, 32], bT [2, 32, 32] (B^T of each batch), c [2, 16, 32] = a[b] x B[b]; d [16, 32] = half(c[0]) x B[1]
extern "C" __global__ __aicore__ void batched(GM_ADDR a, GM_ADDR bT, GM_ADDR c, GM_ADDR d)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm, dGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, 2 * 16 * 32);
    bGm.SetGlobalBuffer((__gm__ half *)bT, 2 * 32 * 32);
    cGm.SetGlobalBuffer((__gm__ float *)c, 2 * 16 * 32);
    dGm.SetGlobalBuffer((__gm__ float *)d, 16 * 32);
    LocalTensor<half> a1(TPosition::A1, 0, 2 * 512);
    LocalTensor<half> b1(TPosition::B1, 2048, 2 * 1024);
    LocalTensor<half> c1(TPosition::A1, 8192, 4 * 256);          // C0 as half NZ: Z columns 2 fractals apart
    Nd2NzParams pa;                                                // both batches: A[b] (16 x 32) NZ = ZZ (one row of fractals)
    pa.ndNum = 2; pa.nValue = 16; pa.dValue = 32; pa.srcNdMatrixStride = 512; pa.srcDValue = 32;
    pa.dstNzC0Stride = 16; pa.dstNzNStride = 1; pa.dstNzMatrixStride = 512;
    DataCopy(a1, aGm, pa);
    Nd2NzParams pb;                                                // B^T[b] (32 x 32) NZ = L0B's ZN
    pb.ndNum = 2; pb.nValue = 32; pb.dValue = 32; pb.srcNdMatrixStride = 1024; pb.srcDValue = 32;
    pb.dstNzC0Stride = 32; pb.dstNzNStride = 1; pb.dstNzMatrixStride = 1024;
    DataCopy(b1, bGm, pb);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> a2(TPosition::A2, 0, 2 * 512);
    LocalTensor<half> b2(TPosition::B2, 0, 2 * 1024);
    LoadData2DParams l;
    l.startIndex = 0; l.repeatTimes = 4; l.srcStride = 1; l.ifTranspose = false;
    LoadData(a2, a1, l);
    l.repeatTimes = 8;
    LoadData(b2, b1, l);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> co1(TPosition::CO1, 0, 2 * 512);
    MmadParams mp;
    mp.m = 16; mp.n = 32; mp.k = 32;
    for (int b = 0; b < 2; ++b) Mmad(co1[b * 512], a2[b * 512], b2[b * 1024], mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = 32; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 32; fp.quantPre = QuantMode_t::NoQuant;
    fp.ndNum = 2; fp.srcNdStride = 2; fp.dstNdStride = 512;        // 2 x 1024 bytes: the second C's 16 x 32 floats
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, co1, fp);
    FixpipeParamsV220 f1;
    f1.nSize = 32; f1.mSize = 16; f1.srcStride = 16; f1.dstStride = 32; f1.quantPre = QuantMode_t::F322F16;
    Fixpipe<half, float, CFG_NZ>(c1, co1, f1);                     // Z column j at j x 32 x 32 bytes: fractals 0 and 2
    TQueSync<PIPE_FIX, PIPE_MTE1> fixToMte1;                       // the FIX -> MTE1 hand-over of c1 (A2 has the event)
    fixToMte1.SetFlag(0);
    fixToMte1.WaitFlag(0);
    SetFlag<HardEvent::FIX_MTE1>(1);
    WaitFlag<HardEvent::FIX_MTE1>(1);
    PipeBarrier<PIPE_ALL>();
    l.startIndex = 0; l.repeatTimes = 2; l.srcStride = 2;
    LoadData(a2, c1, l);
    PipeBarrier<PIPE_ALL>();
    Mmad(co1, a2, b2[1024], mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fd;
    fd.nSize = 32; fd.mSize = 16; fd.srcStride = 16; fd.dstStride = 32; fd.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(dGm, co1, fd);
}
'''


def test_fixpipe_nd_num_and_l0c_to_l1_nz(tmp_path):
    src = tmp_path / "batched.cpp"
    src.write_text(KERNEL)
    b = build(src, entry="batched")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    a = RNG.standard_normal((2, 16, 32)).astype(np.float16)
    bm = RNG.standard_normal((2, 32, 32)).astype(np.float16)
    args = [GM("a", a), GM("bT", np.ascontiguousarray(bm.transpose(0, 2, 1))),
            GM("c", np.empty((2, 16, 32), np.float32), "out"), GM("d", np.empty((16, 32), np.float32), "out")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    c = a.astype(np.float64) @ bm.astype(np.float64)
    np.testing.assert_allclose(r.outputs["c"], c, rtol=1e-5, atol=1e-4)
    d = r.outputs["c"][0].astype(np.float16).astype(np.float64) @ bm[1].astype(np.float64)
    np.testing.assert_allclose(r.outputs["d"], d, rtol=1e-5, atol=1e-4)


# The older FixpipeParams<T> to L1 (ops-nn transpose_batch_mat_mul's l0c_to_l1): burstLen in 32-byte blocks of float,
# dstStride the gap between L1 Z columns (their distance: the gap plus the burst at half size, 16 + 16 = 32 blocks here),
# and the same with a cbufWorkspace, which a scalar quantisation does not read; a per-channel dequantisation (VDEQF16, of
# int32 data) of this float L0C stops at its line.
OLD_L1 = '''    FixpipeParams<float> f1(2, 16 * 16 * 4 / 32, 0, 16);     // 2 bursts of 16 columns, 16 rows of floats each
    f1.quantParams = {QuantMode_t::F322F16};
    LocalTensor<uint64_t> ws(TPosition::A1, 16384, 32);
    Fixpipe(c1, co1, ws, f1);'''
NEW_L1 = '''    FixpipeParamsV220 f1;
    f1.nSize = 32; f1.mSize = 16; f1.srcStride = 16; f1.dstStride = 32; f1.quantPre = QuantMode_t::F322F16;
    Fixpipe<half, float, CFG_NZ>(c1, co1, f1);'''


def test_older_fixpipe_params_to_l1_with_and_without_a_workspace(tmp_path):
    assert NEW_L1 in KERNEL
    a = RNG.standard_normal((2, 16, 32)).astype(np.float16)
    bm = RNG.standard_normal((2, 32, 32)).astype(np.float16)
    args = [GM("a", a), GM("bT", np.ascontiguousarray(bm.transpose(0, 2, 1))),
            GM("c", np.empty((2, 16, 32), np.float32), "out"), GM("d", np.empty((16, 32), np.float32), "out")]
    for code in (OLD_L1, OLD_L1.replace("Fixpipe(c1, co1, ws, f1);", "Fixpipe(c1, co1, f1);")):
        src = tmp_path / "old.cpp"
        src.write_text(KERNEL.replace(NEW_L1, code))
        b = build(src, entry="batched")
        assert b.ok, "\n".join(map(str, b.diagnostics))
        r = run(b, args, block_dim=1)
        assert r.ok, "\n".join(map(str, r.diagnostics))
        d = r.outputs["c"][0].astype(np.float16).astype(np.float64) @ bm[1].astype(np.float64)
        np.testing.assert_allclose(r.outputs["d"], d, rtol=1e-5, atol=1e-4)
    src.write_text(KERNEL.replace(NEW_L1, OLD_L1.replace("QuantMode_t::F322F16", "QuantMode_t::VDEQF16")))
    r = run(build(src, entry="batched"), args, block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == "fixpipe-quant" and "VDEQF16" in errs[0].message and "float" in errs[0].message
    assert "Fixpipe(c1, co1, ws, f1);" in errs[0].source_line


# DataCopy L0C -> L1 with DataCopyCO12DstParams (ops-nn flat_quant): the same NZ -> NZ hand-over as Fixpipe's, srcStride in
# 16-row units, dstStride the L1 Z-column distance in 32-byte blocks; A2 reads neither channelSplit nor nz2ndEn.
CO12_L1 = '''    DataCopyCO12DstParams f1(32, 16, 32, 16, QuantMode_t::F322F16, 0, false, false);
    f1.unitFlag = UFMode3;
    DataCopy(c1, co1, f1);'''


def test_datacopy_co12_to_l1():
    a = RNG.standard_normal((2, 16, 32)).astype(np.float16)
    bm = RNG.standard_normal((2, 32, 32)).astype(np.float16)
    args = [GM("a", a), GM("bT", np.ascontiguousarray(bm.transpose(0, 2, 1))),
            GM("c", np.empty((2, 16, 32), np.float32), "out"), GM("d", np.empty((16, 32), np.float32), "out")]
    b = build({"batched.cpp": KERNEL.replace(NEW_L1, CO12_L1)}, entry="batched")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    d = r.outputs["c"][0].astype(np.float16).astype(np.float64) @ bm[1].astype(np.float64)
    np.testing.assert_allclose(r.outputs["d"], d, rtol=1e-5, atol=1e-4)
    # this path has no NoQuant: float stays float only on the way to GM
    b = build({"batched.cpp": KERNEL.replace(NEW_L1, CO12_L1.replace("F322F16", "NoQuant"))}, entry="batched")
    r = run(b, args, block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and "DataCopy(c1, co1, f1);" in errs[0].source_line
