"""The 4:2 structured-sparse matrix product of the A2 cube: LoadDataWithSparse (dense B fractals L1 -> L0B with their
2-bit index fractals into the index buffer) and MmadWithSparse (A x B with A's columns picked by the indices), checked
against NumPy: the plain product, B loaded in two parts (startIndex, a later L0B offset), accumulation onto L0C, the
degenerate index pairs of the selection table, and the named errors for the forms the emulator does not do."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(415)

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// a: A (M x K int8) as NZ fractals; b: the dense B (K/2 x N) as ZN fractals; idx: its indices (ZN, 128-byte fractals);
// c: C (M x N int32, row-major). SPLIT: B loaded in two LoadDataWithSparse calls; TWICE: C = A x B computed twice onto L0C.
template <uint32_t M, uint32_t N, uint32_t K, bool SPLIT = false, bool TWICE = false>
__aicore__ inline void SparseGemm(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    constexpr uint32_t MB = M / 16, NB = N / 16, KBA = K / 32, KBB = K / 2 / 32, FRAC = 512;
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint8_t> iGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int8_t *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ int8_t *)b, K / 2 * N);
    iGm.SetGlobalBuffer((__gm__ uint8_t *)idx, K / 8 * N);
    cGm.SetGlobalBuffer((__gm__ int32_t *)c, M * N);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1, qi1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, M * K);
    pipe.InitBuffer(qb1, 1, K / 2 * N);
    pipe.InitBuffer(qi1, 1, K / 8 * N);
    pipe.InitBuffer(qa2, 1, M * K);
    pipe.InitBuffer(qb2, 1, K / 2 * N);
    pipe.InitBuffer(qc, 1, M * N * 4);
    LocalTensor<int8_t> a1 = qa1.AllocTensor<int8_t>(), b1 = qb1.AllocTensor<int8_t>();
    LocalTensor<uint8_t> i1 = qi1.AllocTensor<uint8_t>();
    DataCopy(a1, aGm, M * K);
    DataCopy(b1, bGm, K / 2 * N);
    DataCopy(i1, iGm, K / 8 * N);
    qa1.EnQue(a1); qb1.EnQue(b1); qi1.EnQue(i1);
    a1 = qa1.DeQue<int8_t>(); b1 = qb1.DeQue<int8_t>(); i1 = qi1.DeQue<uint8_t>();
    LocalTensor<int8_t> a2 = qa2.AllocTensor<int8_t>(), b2 = qb2.AllocTensor<int8_t>();
    LoadData2DParams l;
    l.repeatTimes = KBA; l.srcStride = MB; l.ifTranspose = false;
    for (uint32_t i = 0; i < MB; ++i) LoadData(a2[i * KBA * FRAC], a1[i * FRAC], l);
    LoadData2DParams s;
    if (SPLIT) {
        constexpr uint32_t HALF = KBB * NB / 2;
        s.startIndex = 0; s.repeatTimes = HALF;
        LoadDataWithSparse(b2, b1, i1, s);
        s.startIndex = HALF; s.repeatTimes = KBB * NB - HALF;
        LoadDataWithSparse(b2[HALF * FRAC], b1, i1, s);
    } else {
        s.repeatTimes = KBB * NB;
        LoadDataWithSparse(b2, b1, i1, s);
    }
    qa2.EnQue(a2); qb2.EnQue(b2);
    a2 = qa2.DeQue<int8_t>(); b2 = qb2.DeQue<int8_t>();
    LocalTensor<int32_t> co1 = qc.AllocTensor<int32_t>();
    MmadWithSparse(co1, a2, b2, {M, N, K, false, 0, false, false, false});
    if (TWICE) {
        MmadParams mp;
        mp.m = M; mp.n = N; mp.k = K; mp.cmatrixInitVal = false;   // accumulate onto L0C
        MmadWithSparse(co1, a2, b2, mp);
    }
    qc.EnQue(co1);
    co1 = qc.DeQue<int32_t>();
    FixpipeParamsV220 f;
    f.nSize = N; f.mSize = M; f.srcStride = M; f.dstStride = N;
    Fixpipe<int32_t, int32_t, CFG_ROW_MAJOR>(cGm, co1, f);
    qc.FreeTensor(co1); qa2.FreeTensor(a2); qb2.FreeTensor(b2); qa1.FreeTensor(a1); qb1.FreeTensor(b1); qi1.FreeTensor(i1);
}
extern "C" __global__ __aicore__ void sparse_plain(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SparseGemm<32, 48, 128>(a, b, idx, c);
}
extern "C" __global__ __aicore__ void sparse_split(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SparseGemm<16, 64, 128, true>(a, b, idx, c);
}
extern "C" __global__ __aicore__ void sparse_twice(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SparseGemm<16, 32, 64, false, true>(a, b, idx, c);
}
extern "C" __global__ __aicore__ void sparse_kalign(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa2, 1, 1024); pipe.InitBuffer(qb2, 1, 1024); pipe.InitBuffer(qc, 1, 1024);
    LocalTensor<int8_t> a2 = qa2.AllocTensor<int8_t>(), b2 = qb2.AllocTensor<int8_t>();
    LocalTensor<int32_t> co1 = qc.AllocTensor<int32_t>();
    MmadParams mp;
    mp.m = 16; mp.n = 16; mp.k = 62;
    MmadWithSparse(co1, a2, b2, mp);
}
'''


def make_sparse(n, k):
    "B^T (n x k int8) with exactly two non-zeros in each group of 4; the dense values (n x k/2) and their 2-bit indices."
    bt = np.zeros((n, k), np.int8)
    dense = np.zeros((n, k // 2), np.int8)
    idx = np.zeros((n, k // 2), np.uint8)
    for r in range(n):
        for g in range(k // 4):
            p0, p1 = sorted(RNG.choice(4, 2, replace=False))
            v0, v1 = RNG.integers(-128, 128, 2)
            v0 = v0 or 1
            v1 = v1 or -1
            bt[r, 4 * g + p0], bt[r, 4 * g + p1] = v0, v1
            dense[r, 2 * g: 2 * g + 2] = v0, v1
            idx[r, 2 * g: 2 * g + 2] = p0, p1 - 1     # the first among elements 0..2, the second among 1..3
    return bt, dense, idx


def nz(x, rows=16, cols=32):
    "A row-major matrix as NZ fractals of rows x cols (fractal columns outermost), flattened."
    r, c = x.shape
    return np.ascontiguousarray(x.reshape(r // rows, rows, c // cols, cols).transpose(2, 0, 1, 3)).reshape(-1)


def pack_index(idx):
    "2-bit indices (n x k/2), four to a byte with the first in the low bits, as ZN index fractals (16 n x 8 bytes)."
    n, kd = idx.shape
    q = idx.reshape(n, kd // 4, 4).astype(np.uint32)
    packed = (q[..., 0] | q[..., 1] << 2 | q[..., 2] << 4 | q[..., 3] << 6).astype(np.uint8)
    return nz(packed, 16, 8)


def _build(tmp_path, entry):
    src = tmp_path / "sparse.cpp"
    src.write_text(KERNEL)
    b = build(src, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _run(tmp_path, entry, a, dense, idx):
    m, n = a.shape[0], dense.shape[0]
    args = [GM("a", nz(a)), GM("b", nz(dense)), GM("idx", pack_index(idx)), GM("c", np.empty((m, n), np.int32), "out")]
    r = run(_build(tmp_path, entry), args, block_dim=1)
    return r


@pytest.mark.parametrize("entry,m,n,k", [("sparse_plain", 32, 48, 128), ("sparse_split", 16, 64, 128)])
def test_sparse_product_matches_numpy(tmp_path, entry, m, n, k):
    a = RNG.integers(-128, 128, (m, k)).astype(np.int8)
    bt, dense, idx = make_sparse(n, k)
    r = _run(tmp_path, entry, a, dense, idx)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], a.astype(np.int64) @ bt.T.astype(np.int64))


def test_accumulates_onto_l0c_and_the_degenerate_pairs(tmp_path):
    "cmatrixInitVal = false adds onto L0C; the pairs (1, 0) and (2, 0) take element 1 / element 2 of the group twice."
    m, n, k = 16, 32, 64
    a = RNG.integers(-128, 128, (m, k)).astype(np.int8)
    bt, dense, idx = make_sparse(n, k)
    want = bt.T.astype(np.int64).copy()          # the effective k x n B
    for r, g, i0 in [(0, 0, 1), (5, 3, 2), (31, 15, 1), (17, 8, 2)]:
        idx[r, 2 * g: 2 * g + 2] = i0, 0
        want[4 * g: 4 * g + 4, r] = 0
        want[4 * g + i0, r] = int(dense[r, 2 * g]) + int(dense[r, 2 * g + 1])
    res = _run(tmp_path, "sparse_twice", a, dense, idx)
    assert res.ok, "\n".join(map(str, res.diagnostics))
    np.testing.assert_array_equal(res.outputs["c"], 2 * (a.astype(np.int64) @ want))


def test_an_index_pair_outside_the_table_is_a_named_error(tmp_path):
    m, n, k = 32, 48, 128
    a = RNG.integers(-128, 128, (m, k)).astype(np.int8)
    _, dense, idx = make_sparse(n, k)
    idx[3, 6] = 3
    r = _run(tmp_path, "sparse_plain", a, dense, idx)
    assert not r.ok
    assert any(d.kind == "unsupported" and "index pair" in d.message for d in r.diagnostics), r.diagnostics


def test_k_not_a_multiple_of_4_is_a_named_error(tmp_path):
    r = run(_build(tmp_path, "sparse_kalign"), [GM("a", np.zeros(1, np.int8)), GM("b", np.zeros(1, np.int8)),
                                                GM("idx", np.zeros(1, np.uint8)), GM("c", np.zeros(1, np.int32), "out")],
            block_dim=1)
    assert not r.ok
    assert any(d.kind == "unsupported" and "multiple of 4" in d.message for d in r.diagnostics), r.diagnostics
