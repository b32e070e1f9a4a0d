"""LoadData (2D) from GM with LoadData2DParams (cann-ops conv3dv2's weight load, GM -> B1): repeat r copies the 512-byte
fractal startIndex + r * srcStride of the global tensor to fractal r * (1 + dstGap) of the L1 tensor. Checked through a
16 x 32 x 16 half GEMM whose A and B^T fractals sit in GM between others (startIndex, srcStride, dstGap), against
NumPy; the official headers' GM -> A1 / B1 form (api probes)."""
import numpy as np

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(17)

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// af: 3 fractals of 16 x 16 half, A's K blocks at 0 and 2; bf: B^T's K blocks at 1 and 2; c [16, 16] float = A x B
extern "C" __global__ __aicore__ void load_gm(GM_ADDR af, GM_ADDR bf, GM_ADDR c)
{
    constexpr uint32_t FRAC = 256;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)af, 3 * FRAC);
    bGm.SetGlobalBuffer((__gm__ half *)bf, 3 * FRAC);
    cGm.SetGlobalBuffer((__gm__ float *)c, FRAC);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, 3 * FRAC * 2);
    pipe.InitBuffer(qb1, 1, 2 * FRAC * 2);
    pipe.InitBuffer(qa2, 1, 2 * FRAC * 2);
    pipe.InitBuffer(qb2, 1, 2 * FRAC * 2);
    pipe.InitBuffer(qc, 1, FRAC * 4);
    LocalTensor<half> a1 = qa1.AllocTensor<half>(), b1 = qb1.AllocTensor<half>();
    LoadData2DParams g;
    g.startIndex = 0; g.repeatTimes = 2; g.srcStride = 2; g.dstGap = 1;     // A1 fractals 0 and 2
    LoadData(a1, aGm, g);
    g.startIndex = 1; g.repeatTimes = 2; g.srcStride = 1; g.dstGap = 0;     // B1 fractals 0 and 1
    LoadData(b1, bGm, g);
    qa1.EnQue(a1); qb1.EnQue(b1);
    a1 = qa1.DeQue<half>(); b1 = qb1.DeQue<half>();
    LocalTensor<half> a2 = qa2.AllocTensor<half>(), b2 = qb2.AllocTensor<half>();
    LoadData2DParams l;
    l.startIndex = 0; l.repeatTimes = 2; l.srcStride = 2; l.dstGap = 0; l.ifTranspose = false;
    LoadData(a2, a1, l);
    l.srcStride = 1;
    LoadData(b2, b1, l);
    qa2.EnQue(a2); qb2.EnQue(b2);
    a2 = qa2.DeQue<half>(); b2 = qb2.DeQue<half>();
    qa1.FreeTensor(a1); qb1.FreeTensor(b1);
    LocalTensor<float> co1 = qc.AllocTensor<float>();
    MmadParams mp;
    mp.m = 16; mp.n = 16; mp.k = 32;
    Mmad(co1, a2, b2, mp);
    qa2.FreeTensor(a2); qb2.FreeTensor(b2);
    qc.EnQue(co1);
    co1 = qc.DeQue<float>();
    FixpipeParamsV220 f;
    f.nSize = 16; f.mSize = 16; f.srcStride = 16; f.dstStride = 16; f.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, co1, f);
    qc.FreeTensor(co1);
}
'''


def test_load_data_from_gm_places_fractals_by_start_stride_and_gap(tmp_path):
    a = RNG.standard_normal((16, 32)).astype(np.float16)
    bt = RNG.standard_normal((16, 32)).astype(np.float16)        # B^T [N, K]
    junk = np.full((16, 16), 100, np.float16)
    af = np.stack([a[:, :16], junk, a[:, 16:]])                   # A's K blocks 0 and 2 fractals apart
    bf = np.stack([junk, bt[:, :16], bt[:, 16:]])                 # B^T's from fractal 1 on, one apart
    path = tmp_path / "load_gm.cpp"
    path.write_text(KERNEL)
    b = build(path, entry="load_gm")
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("af", af.reshape(-1)), GM("bf", bf.reshape(-1)), GM("c", np.empty(256, np.float32), "out")], block_dim=1)
    assert r.ok and not r.errors, "\n".join(d.render() for d in r.diagnostics)
    want = a.astype(np.float64) @ bt.astype(np.float64).T
    np.testing.assert_allclose(r.outputs["c"].reshape(16, 16), want, rtol=1e-3, atol=1e-3)


def test_load_data_from_gm_past_the_tensor_is_an_error(tmp_path):
    "Two repeats 2 fractals apart from fractal 2 read fractal 4 of a 3-fractal GM tensor: out of the buffer given."
    src = KERNEL.replace("g.startIndex = 0; g.repeatTimes = 2; g.srcStride = 2; g.dstGap = 1;",
                         "g.startIndex = 2; g.repeatTimes = 2; g.srcStride = 2; g.dstGap = 1;", 1)
    assert src != KERNEL
    path = tmp_path / "load_gm_over.cpp"
    path.write_text(src)
    b = build(path, entry="load_gm")
    assert b.ok, "\n".join(d.render() for d in b.errors)
    z = np.zeros(3 * 256, np.float16)
    r = run(b, [GM("af", z), GM("bf", z.copy()), GM("c", np.empty(256, np.float32), "out")], block_dim=1)
    assert not r.ok and r.errors, r


def test_load_data_from_gm_of_int4_compiles_and_stops_with_a_named_error(tmp_path):
    "The official A2 build compiles LoadData GM -> L1 of int4b_t and asserts when it runs: ours stops at the call."
    src = (KERNEL.replace("    LoadData(b1, bGm, g);\n",
                          "    LoadData(b1, bGm, g);\n    LoadData(b1.ReinterpretCast<int4b_t>(), g4, g);\n", 1)
           .replace("    TPipe pipe;\n", "    TPipe pipe;\n    GlobalTensor<int4b_t> g4;\n"
                    "    g4.SetGlobalBuffer((__gm__ int4b_t *)bf, 6 * FRAC);\n", 1))
    assert src.count("g4") == 3
    path = tmp_path / "load_gm_int4.cpp"
    path.write_text(src)
    b = build(path, entry="load_gm")
    assert b.ok, "\n".join(d.render() for d in b.errors)
    z = np.zeros(3 * 256, np.float16)
    r = run(b, [GM("af", z), GM("bf", z.copy()), GM("c", np.empty(256, np.float32), "out")], block_dim=1)
    assert not r.ok and r.errors[0].kind == "unsupported" and "int4b_t" in r.errors[0].message, r
