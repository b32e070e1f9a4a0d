"""Cube kernels in the forms of the public ones run against references (issue 15), with small kernels written here in
their style (never their code).

- A kernel whose build system compiles it for the cube core alone (hicann/ascend-transformer-boost's pp matmuls:
  `add_kernel(pp_matmul ascend910b cube ...)`) while the headers it includes also hold vector code that it never
  reaches: `build(..., kernel_type="KERNEL_TYPE_AIC_ONLY")` makes the launch the build's (cube blocks only), where the
  type read from the code would be a mixed one whose vector blocks run the cube code ("cube-on-vector-core").
- GM -> L1 with Nd2NzParams whose dstNzC0Stride is left 0 (SpMM-AscendC/cube-SPMM's 16 x 16 half tiles): outside its
  documented range 1..16384, but rows of one C0 block never apply it; a warning there, an error where a second C0
  block would be placed by it.
- Mmad's form with a bias whose bias tensor is dst itself in L0C (CO1), cube-SPMM's way to accumulate: AscendC's
  implementation takes a CO1 bias as cmatrixSource = false, so C starts from 0 (cmatrixInitVal) or from what L0C
  holds, as without a bias.
- A LocalTensor never placed (default-constructed) as Mmad's dst and Fixpipe's source (ATB's pp_matmul_with_bias and
  pp_matmul_ein_sum keep their L0C tensor so), or as Mmad's A and B: its buffer address is 0, which those
  instructions take in their own memory (L0C, L0A, L0B), so it is that memory from its start; a warning once per call
  site."""
import numpy as np
import pytest

from ascendcraft.emu import GM, Entry, build, run
from ascendcraft.emu_kind import kernel_kind

# A header shared by a library's cube and vector kernels: the tiling reader, and a vector epilogue class template that
# this kernel does not use (its UB queue is vector code all the same)
COMMON_CCE = """
#pragma once
#include "kernel_operator.h"
inline __aicore__ uint32_t ReadTiling(const __gm__ uint8_t *p, uint32_t offset)
{
    return *(const __gm__ uint32_t *)(p + offset);
}
template <typename T>
class ScaleEpilogue {
public:
    __aicore__ inline void Init(AscendC::TPipe *pipe, uint32_t n) { pipe->InitBuffer(que_, 1, n * sizeof(T)); }
    __aicore__ inline void Scale(AscendC::LocalTensor<T> dst, AscendC::LocalTensor<T> src, T s, uint32_t n)
    {
        AscendC::Muls(dst, src, s, n);
    }
private:
    AscendC::TQue<AscendC::TPosition::VECIN, 1> que_;
};
"""

# C[b] = A[b] x B[b]^T for 16 x K halves, one batch per block: GM -> L1 in NZ, fractal by fractal L1 -> L0A / L0B,
# Mmad accumulating over K in L0C, Fixpipe to GM as half
KERNEL_CCE = """
#include "kernel_operator.h"
#include "mm_common.cce"

extern "C" __global__ __aicore__ void mm16_bt(__gm__ uint8_t *a, __gm__ uint8_t *bt, __gm__ uint8_t *c,
                                              __gm__ uint8_t *tiling)
{
    using namespace AscendC;
    const uint32_t kTiles = ReadTiling(tiling, 0);
    const uint32_t c0Stride = ReadTiling(tiling, 4);   // 16: A's and B^T's rows; 0: left unset, as some kernels do
    const uint32_t l0cBias = ReadTiling(tiling, 8);    // 1: every Mmad in the form with a bias, the bias dst itself
    const uint32_t unplaced = ReadTiling(tiling, 12);  // 1: Mmad's dst and Fixpipe's source a LocalTensor never placed,
                                                       // 2: Mmad's dst alone (Fixpipe reads the TBuf at L0C's start),
                                                       // 3: Mmad's A and B (the TBufs at L0A's and L0B's start hold them)
    const uint32_t K = 16 * kTiles;
    const uint32_t off = GetBlockIdx() * 16 * K;
    GlobalTensor<half> aGm, bGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)bt);
    cGm.SetGlobalBuffer((__gm__ half *)c);
    TPipe pipe;
    TBuf<TPosition::A1> l1a;
    TBuf<TPosition::B1> l1b;
    TBuf<TPosition::A2> l0a;
    TBuf<TPosition::B2> l0b;
    TBuf<TPosition::CO1> l0c;
    pipe.InitBuffer(l1a, 16 * K * sizeof(half));
    pipe.InitBuffer(l1b, 16 * K * sizeof(half));
    pipe.InitBuffer(l0a, 512);
    pipe.InitBuffer(l0b, 512);
    pipe.InitBuffer(l0c, 16 * 16 * sizeof(float));
    LocalTensor<half> a1 = l1a.Get<half>(), b1 = l1b.Get<half>(), a2 = l0a.Get<half>(), b2 = l0b.Get<half>();
    LocalTensor<float> c1 = l0c.Get<float>();
    LocalTensor<float> never;                          // default-constructed: buffer address 0
    LocalTensor<float> cm = unplaced == 1 || unplaced == 2 ? never : c1, cf = unplaced == 1 ? never : c1;
    LocalTensor<half> neverAB;
    LocalTensor<half> am = unplaced == 3 ? neverAB : a2, bm = unplaced == 3 ? neverAB : b2;
    Nd2NzParams nz;
    nz.ndNum = 1; nz.nValue = 16; nz.dValue = K; nz.srcNdMatrixStride = 0; nz.srcDValue = K;
    nz.dstNzC0Stride = c0Stride; nz.dstNzNStride = 1; nz.dstNzMatrixStride = 0;
    DataCopy(a1, aGm[off], nz);
    DataCopy(b1, bGm[off], nz);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t kk = 0; kk < kTiles; ++kk) {
        LoadData2DParams ld;
        ld.startIndex = kk; ld.repeatTimes = 1; ld.srcStride = 1; ld.ifTranspose = false;
        LoadData(a2, a1, ld);
        LoadData(b2, b1, ld);   // B^T's NZ fractal is L0B's as it is
        PipeBarrier<PIPE_ALL>();
        MmadParams mp;
        mp.m = 16; mp.n = 16; mp.k = 16; mp.cmatrixInitVal = (kk == 0);
        if (l0cBias) Mmad(c1, a2, b2, c1, mp);
        else Mmad(cm, am, bm, mp);
        PipeBarrier<PIPE_ALL>();
    }
    FixpipeParamsV220 f;
    f.nSize = 16; f.mSize = 16; f.srcStride = 16; f.dstStride = 16; f.ndNum = 1; f.quantPre = QuantMode_t::F322F16;
    Fixpipe<half, float, CFG_ROW_MAJOR>(cGm[GetBlockIdx() * 256], cf, f);
}
"""

SOURCES = {"mm16_bt.cce": KERNEL_CCE, "mm_common.cce": COMMON_CCE}


def _run(kernel_type, batches=3, k_tiles=2, c0_stride=16, l0c_bias=0, unplaced=0):
    rng = np.random.default_rng(15)
    a = rng.uniform(-2, 2, (batches, 16, 16 * k_tiles)).astype(np.float16)
    bt = rng.uniform(-2, 2, (batches, 16, 16 * k_tiles)).astype(np.float16)
    b = build(SOURCES, "mm16_bt", kernel_type=kernel_type)
    assert b.ok, "\n".join(d.render() for d in b.diagnostics)
    tiling = np.frombuffer(np.array([k_tiles, c0_stride, l0c_bias, unplaced], np.uint32).tobytes(), np.uint8).copy()
    r = run(b, [GM("a", a), GM("bt", bt), GM("c", np.zeros((batches, 16, 16), np.float16), "out"), GM("tiling", tiling)],
            block_dim=batches)
    want = np.einsum("bmk,bnk->bmn", a.astype(np.float64), bt.astype(np.float64))
    return r, want


def test_a_kernel_built_for_the_cube_core_runs_on_cube_blocks_only():
    r, want = _run("KERNEL_TYPE_AIC_ONLY")
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), want, rtol=2e-3, atol=2e-3)


def test_the_launch_is_the_declared_type_s_even_where_it_is_wrong():
    # the same cube kernel declared for the vector core: its blocks are vector blocks, and its cube copies are refused
    r, _ = _run("KERNEL_TYPE_AIV_ONLY", batches=1, k_tiles=1)
    assert not r.ok and any(d.kind == "cube-on-vector-core" for d in r.diagnostics)


def test_the_declared_type_wins_over_what_the_included_headers_use():
    entry = Entry("mm16_bt", "mm16_bt.cce", 1, ())
    declared = kernel_kind(SOURCES, entry, "KERNEL_TYPE_AIC_ONLY")
    assert (declared.name, declared.reason) == ("KERNEL_TYPE_AIC_ONLY", "declared by the build (KERNEL_TYPE_AIC_ONLY)")


def test_an_unknown_declared_type_is_refused_with_the_names_it_takes():
    with pytest.raises(ValueError, match=r"mm16_bt.*'AIC'.*KERNEL_TYPE_AIC_ONLY"):
        kernel_kind(SOURCES, Entry("mm16_bt", "mm16_bt.cce", 1, ()), "AIC")


def test_an_unset_c0_stride_of_one_c0_block_rows_is_a_warning_and_the_copy_goes_on():
    r, want = _run("KERNEL_TYPE_AIC_ONLY", batches=2, k_tiles=1, c0_stride=0)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), want, rtol=2e-3, atol=2e-3)
    warned = [d for d in r.diagnostics if d.kind == "copy-params"]
    # once per call site (A's copy and B^T's), not per block or call
    assert sorted(d.source_line.strip() for d in warned) == ["DataCopy(a1, aGm[off], nz);", "DataCopy(b1, bGm[off], nz);"]
    assert all(d.severity == "warning" and "dstNzC0Stride = 0" in d.message for d in warned)


def test_an_unset_c0_stride_is_an_error_where_rows_span_two_c0_blocks():
    r, _ = _run("KERNEL_TYPE_AIC_ONLY", batches=1, k_tiles=2, c0_stride=0)
    assert not r.ok
    assert any(d.kind == "copy-params" and d.severity == "error" and "dstNzC0Stride = 0" in d.message for d in r.diagnostics)


def test_mmad_with_dst_as_its_l0c_bias_starts_from_zero_then_accumulates():
    # cmatrixInitVal on the first k tile (L0C's stale contents must not count), accumulating over the next two
    r, want = _run("KERNEL_TYPE_AIC_ONLY", batches=2, k_tiles=3, l0c_bias=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), want, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("unplaced", [1, 2, 3])
def test_a_never_placed_tensor_as_mmad_dst_and_fixpipe_source_is_l0c_from_its_start(unplaced):
    # 2: the product made through the unplaced tensor is read back through the TBuf that starts L0C; 3: A and B are
    # read through unplaced tensors from L0A's and L0B's start, where LoadData put them
    r, want = _run("KERNEL_TYPE_AIC_ONLY", batches=2, k_tiles=2, unplaced=unplaced)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), want, rtol=2e-3, atol=2e-3)
    warned = [d for d in r.diagnostics if d.kind == "cube-unplaced-tensor"]
    sites = ["Fixpipe<half, float, CFG_ROW_MAJOR>(cGm[GetBlockIdx() * 256], cf, f);"] if unplaced == 1 else []
    # once per call site (the Mmad's, whichever of its operands; the Fixpipe's), not per block or call
    assert sorted(d.source_line.strip() for d in warned) == sorted(["else Mmad(cm, am, bm, mp);", *sites])
    assert all(d.severity == "warning" and "never placed" in d.message for d in warned)
