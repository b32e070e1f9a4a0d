"""4-bit integers (int4b_t) on the cube unit, the low-level way: DataCopy GM -> L1 with Nd2NzParams (the column counts in
bytes, two elements each), LoadData 2D L1 -> L0A / L0B (whole 512-byte fractals of 16 x 64 elements), Mmad
(int32_t, int4b_t, int4b_t) and Fixpipe to GM as int32; LocalTensor<int4b_t> offsets count 4-bit elements. Checked
against NumPy at irregular M, N and K (K even), and a GEMV row (m = 1)."""
import numpy as np

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(44)


def pack(x: np.ndarray) -> np.ndarray:
    "int4 values (-8..7), two per byte: the even element in the low half."
    flat = x.astype(np.int8).reshape(-1)
    assert flat.size % 2 == 0
    lo, hi = flat[0::2].astype(np.uint8) & 0xF, flat[1::2].astype(np.uint8) & 0xF
    return (lo | (hi << 4)).astype(np.uint8)


KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// a [M, K] and bT [N, K] (B^T) of int4b_t, two per byte; c [M, N] int32 = a x B
template <uint32_t M, uint32_t N, uint32_t K, bool TWICE = false>
__aicore__ inline void Gemm(GM_ADDR a, GM_ADDR bT, GM_ADDR c)
{
    constexpr uint32_t MA = (M + 15) / 16 * 16, NA = (N + 15) / 16 * 16, KB = (K + 63) / 64;   // K in 64-element C0 blocks
    constexpr uint32_t FRAC = 16 * 64;                                                             // int4 elements of a fractal
    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int4b_t *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ int4b_t *)bT, N * K);
    cGm.SetGlobalBuffer((__gm__ int32_t *)c, M * N);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, MA * KB * 32);
    pipe.InitBuffer(qb1, 1, NA * KB * 32);
    pipe.InitBuffer(qa2, 1, MA * KB * 32);
    pipe.InitBuffer(qb2, 1, NA * KB * 32);
    pipe.InitBuffer(qc, 1, MA * NA * 4);
    LocalTensor<int4b_t> a1 = qa1.AllocTensor<int4b_t>(), b1 = qb1.AllocTensor<int4b_t>();
    Nd2NzParams p;                       // the byte columns: K / 2 of them
    p.ndNum = 1; p.nValue = M; p.dValue = K / 2; p.srcDValue = K / 2; p.srcNdMatrixStride = 0;
    p.dstNzC0Stride = M == 1 ? 1 : MA; p.dstNzNStride = 1; p.dstNzMatrixStride = 0;   // GEMV: A's row stays contiguous
    DataCopy(a1, aGm, p);
    p.nValue = N; p.dstNzC0Stride = NA;
    DataCopy(b1, bGm, p);
    qa1.EnQue(a1); qb1.EnQue(b1);
    a1 = qa1.DeQue<int4b_t>(); b1 = qb1.DeQue<int4b_t>();
    LocalTensor<int4b_t> a2 = qa2.AllocTensor<int4b_t>(), b2 = qb2.AllocTensor<int4b_t>();
    LoadData2DParams l;                  // L0A (ZZ): each 16-row block's KB fractals, MA / 16 fractals apart in L1 (NZ)
    l.repeatTimes = KB; l.srcStride = MA / 16; l.dstGap = 0; l.ifTranspose = false;
    if (M == 1) {                        // GEMV (m = 1): L0A holds A's K elements one after another
        l.repeatTimes = (K + 1023) / 1024; l.srcStride = 1;
        LoadData(a2, a1, l);
    } else {
        for (uint32_t i = 0; i < MA / 16; ++i) LoadData(a2[i * KB * FRAC], a1[i * FRAC], l);
    }
    l.startIndex = 0; l.repeatTimes = KB * (NA / 16); l.srcStride = 1;    // B^T's NZ is L0B's ZN, fractal for fractal
    LoadData(b2, b1, l);
    qa2.EnQue(a2); qb2.EnQue(b2);
    a2 = qa2.DeQue<int4b_t>(); b2 = qb2.DeQue<int4b_t>();
    qa1.FreeTensor(a1); qb1.FreeTensor(b1);
    LocalTensor<int32_t> co1 = qc.AllocTensor<int32_t>();
    MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    Mmad(co1, a2, b2, mp);
    if (TWICE) {                         // MmadParams.isBias (the older accumulate flag): C += A x B
        mp.isBias = true;
        Mmad(co1, a2, b2, mp);
    }
    qc.EnQue(co1);
    co1 = qc.DeQue<int32_t>();
    FixpipeParamsV220 f;
    f.nSize = N; f.mSize = M; f.srcStride = MA; f.dstStride = N; f.quantPre = QuantMode_t::NoQuant;
    Fixpipe<int32_t, int32_t, CFG_ROW_MAJOR>(cGm, co1, f);
    qc.FreeTensor(co1); qa2.FreeTensor(a2); qb2.FreeTensor(b2);
}
extern "C" __global__ __aicore__ void gemm_s4(GM_ADDR a, GM_ADDR bT, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Gemm<40, 50, 70>(a, bT, c);
}
extern "C" __global__ __aicore__ void gemv_s4(GM_ADDR a, GM_ADDR bT, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Gemm<1, 24, 130>(a, bT, c);
}
extern "C" __global__ __aicore__ void gemm_s4_twice(GM_ADDR a, GM_ADDR bT, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    Gemm<32, 16, 64, true>(a, bT, c);
}
// LocalTensor<int4b_t>: GetSize and operator[] count 4-bit elements; GetValue / SetValue reach one half of a byte
extern "C" __global__ __aicore__ void nibbles(GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 64);
    LocalTensor<int4b_t> t = q.AllocTensor<int4b_t>();
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    for (uint32_t i = 0; i < 128; ++i) t.SetValue(i, int4b_t(static_cast<int32_t>(i % 16) - 8));
    LocalTensor<int4b_t> u = t[6];
    o.SetValue(0, t.GetSize());
    o.SetValue(1, u.GetSize());
    o.SetValue(2, static_cast<int8_t>(u.GetValue(0)));      // element 6: -2
    o.SetValue(3, static_cast<int8_t>(u.GetValue(3)));      // element 9: 1
    u.SetValue(1, int4b_t(5));                                       // element 7 (the high half of byte 3)
    o.SetValue(4, static_cast<int8_t>(t.GetValue(7)));
    o.SetValue(5, static_cast<int8_t>(t.GetValue(6)));      // its byte's low half is unchanged
    o.SetValue(6, static_cast<int32_t>(u.GetPhyAddr(2) - t.GetPhyAddr()));   // bytes: (6 + 2) / 2
    q.FreeTensor(t);
}
'''


def _build(tmp_path, entry):
    src = tmp_path / "s4.cpp"
    src.write_text(KERNEL)
    b = build(src, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _gemm(tmp_path, entry, m, n, k, times=1):
    a = RNG.integers(-8, 8, (m, k))
    bm = RNG.integers(-8, 8, (k, n))
    args = [GM("a", pack(a)), GM("bT", pack(np.ascontiguousarray(bm.T))), GM("c", np.empty((m, n), np.int32), "out")]
    r = run(_build(tmp_path, entry), args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], times * (a @ bm))
    return a, bm


def test_int4_gemm_irregular_shape(tmp_path):
    a, bm = _gemm(tmp_path, "gemm_s4", 40, 50, 70)
    # reading the bytes as int8 pairs (the wrong element type) gives other numbers: the test sees the 4-bit layout
    lo = pack(a).view(np.int8).reshape(40, 35).astype(np.int64)
    assert not np.array_equal(lo @ pack(bm.T).view(np.int8).reshape(50, 35).T.astype(np.int64), a @ bm)


def test_int4_gemv(tmp_path):
    _gemm(tmp_path, "gemv_s4", 1, 24, 130)


def test_mmad_is_bias_accumulates(tmp_path):
    _gemm(tmp_path, "gemm_s4_twice", 32, 16, 64, times=2)


def test_int4_local_tensor_counts_nibbles(tmp_path):
    r = run(_build(tmp_path, "nibbles"), [GM("out", np.empty(8, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["out"][:7]) == [128, 122, -2, 1, 5, -2, 4]


# B given as [K, N] (not transposed): in L1 its NZ holds 16 (k) x 64 (n) fractals; LoadDataWithTranspose turns each
# 64 x 64 square (four fractals down one column block) into four 16 (n) x 64 (k) fractals of B^T: L0B's ZN.
TRANSPOSE_KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
template <uint32_t M, uint32_t N, uint32_t K, bool TO_L0A = false>
__aicore__ inline void GemmKN(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    constexpr uint32_t MA = (M + 15) / 16 * 16, KB = K / 64, NB = N / 64, FRAC = 16 * 64;   // K, N: multiples of 64
    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int4b_t *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ int4b_t *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ int32_t *)c, M * N);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, MA * K / 2);
    pipe.InitBuffer(qb1, 1, K * N / 2);
    pipe.InitBuffer(qa2, 1, MA * K / 2);
    pipe.InitBuffer(qb2, 1, K * N / 2);
    pipe.InitBuffer(qc, 1, MA * N * 4);
    LocalTensor<int4b_t> a1 = qa1.AllocTensor<int4b_t>(), b1 = qb1.AllocTensor<int4b_t>();
    Nd2NzParams p;
    p.ndNum = 1; p.nValue = M; p.dValue = K / 2; p.srcDValue = K / 2; p.srcNdMatrixStride = 0;
    p.dstNzC0Stride = MA; p.dstNzNStride = 1; p.dstNzMatrixStride = 0;
    DataCopy(a1, aGm, p);
    p.nValue = K; p.dValue = N / 2; p.srcDValue = N / 2; p.dstNzC0Stride = K;   // B [K, N]: NZ of 16 (k) x 64 (n) fractals
    DataCopy(b1, bGm, p);
    qa1.EnQue(a1); qb1.EnQue(b1);
    a1 = qa1.DeQue<int4b_t>(); b1 = qb1.DeQue<int4b_t>();
    LocalTensor<int4b_t> a2 = qa2.AllocTensor<int4b_t>(), b2 = qb2.AllocTensor<int4b_t>();
    LoadData2DParams l;
    l.repeatTimes = KB; l.srcStride = MA / 16; l.dstGap = 0; l.ifTranspose = false;
    for (uint32_t i = 0; i < MA / 16; ++i) LoadData(a2[i * KB * FRAC], a1[i * FRAC], l);
    LoadData2dTransposeParams t;       // for each k block j: the NB squares (j, c), c = 0.., K / 64 squares apart in L1
    t.repeatTimes = NB; t.srcStride = K / 64; t.dstGap = 3; t.dstFracGap = 0;
    for (uint32_t j = 0; j < KB; ++j) {
        t.startIndex = j;
        if (TO_L0A) LoadDataWithTranspose(a2, b1, t);
        else LoadDataWithTranspose(b2[j * (N / 16) * FRAC], b1, t);   // L0B fractal (n block, k block j): j * N / 16 + n
    }
    qa2.EnQue(a2); qb2.EnQue(b2);
    a2 = qa2.DeQue<int4b_t>(); b2 = qb2.DeQue<int4b_t>();
    qa1.FreeTensor(a1); qb1.FreeTensor(b1);
    LocalTensor<int32_t> co1 = qc.AllocTensor<int32_t>();
    MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    Mmad(co1, a2, b2, mp);
    qc.EnQue(co1);
    co1 = qc.DeQue<int32_t>();
    FixpipeParamsV220 f;
    f.nSize = N; f.mSize = M; f.srcStride = MA; f.dstStride = N; f.quantPre = QuantMode_t::NoQuant;
    Fixpipe<int32_t, int32_t, CFG_ROW_MAJOR>(cGm, co1, f);
    qc.FreeTensor(co1); qa2.FreeTensor(a2); qb2.FreeTensor(b2);
}
extern "C" __global__ __aicore__ void gemm_s4_kn(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GemmKN<40, 128, 192>(a, b, c);
}
extern "C" __global__ __aicore__ void gemm_s4_kn_l0a(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GemmKN<16, 64, 64, true>(a, b, c);
}
'''


def test_int4_load_with_transpose_into_l0b_takes_b_as_k_by_n(tmp_path):
    """LoadDataWithTranspose of int4b_t (A2, into L0B only): four 16 x 64 fractals make a 64 x 64 square, transposed
    and split again into four: B as stored ([K, N]) gives a x B (a copy without the transpose would give L0B B's own
    fractals, and other numbers)."""
    src = tmp_path / "s4kn.cpp"
    src.write_text(TRANSPOSE_KERNEL)
    b = build(src, entry="gemm_s4_kn")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m, n, k = 40, 128, 192
    a, bm = RNG.integers(-8, 8, (m, k)), RNG.integers(-8, 8, (k, n))
    r = run(b, [GM("a", pack(a)), GM("b", pack(bm)), GM("c", np.empty((m, n), np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], a @ bm)


def test_int4_load_with_transpose_into_l0a_is_an_error_naming_the_line(tmp_path):
    src = tmp_path / "s4kn.cpp"
    src.write_text(TRANSPOSE_KERNEL)
    b = build(src, entry="gemm_s4_kn_l0a")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", pack(RNG.integers(-8, 8, (16, 64)))), GM("b", pack(RNG.integers(-8, 8, (64, 64)))),
                GM("c", np.empty((16, 64), np.int32), "out")], block_dim=1)
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "cube-position" and "L0B (B2) only" in err.message
    assert "LoadDataWithTranspose(a2, b1, t)" in err.render()
