"""The cube core on the emulator (runtime/emu_cube.cpp, include/ascendcraft_emu/cube.h): a GEMM written with the
low-level cube API (DataCopy ND->NZ into L1, LoadData into L0A/L0B, Mmad with init and accumulate, Fixpipe NZ->ND)
checked against NumPy for half (fp32 accumulation, half or float output) and int8 (int32 accumulation); a kernel that
loads A's fractals in the wrong order gives wrong numbers, as on the NPU; an L0A overflow is an error at its line;
and trace mode records the MTE2, MTE1, M and FIX pipe work."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run, trace, op_names

KERNELS = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(15)


def _gemm(entry, m, n, k, *, int8=False, b_trans=False, out_dtype=np.float16):
    b = build(KERNELS / "cube_gemm.cpp", entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    if int8:
        a = RNG.integers(-128, 128, (m, k)).astype(np.int8)
        bm = RNG.integers(-128, 128, (k, n)).astype(np.int8)
        ref = a.astype(np.int64) @ bm.astype(np.int64)
        out = np.empty((m, n), np.int32)
    else:
        a = RNG.standard_normal((m, k)).astype(np.float16)
        bm = RNG.standard_normal((k, n)).astype(np.float16)
        ref = a.astype(np.float64) @ bm.astype(np.float64)
        out = np.empty((m, n), out_dtype)
    b_in = np.ascontiguousarray(bm.T) if b_trans else bm
    args = [GM("a", a), GM("b", b_in), GM("c", out, "out"), Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    return b, args, run(b, args, block_dim=1), ref


@pytest.mark.parametrize("m,entry", [(32, "gemm_f16"), (16, "gemm_f16"), (32, "gemm_f16_aic_only")])
def test_gemm_half_matches_numpy(m, entry):
    # m = 16 runs k as two Mmads, the second accumulating onto L0C; the AIC_ONLY kernel runs its `if ASCEND_IS_AIV`-guarded
    # cube code as a cube core
    _, _, r, ref = _gemm(entry, m, 48, 64)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), ref, rtol=2e-3, atol=2e-2)  # half output rounding


def test_gemm_half_transposed_b_float_output_is_fp32_accurate():
    _, _, r, ref = _gemm("gemm_f16_bt_f32", 32, 48, 64, b_trans=True, out_dtype=np.float32)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


def test_gemm_int8_accumulates_exactly_in_int32():
    _, _, r, ref = _gemm("gemm_i8", 32, 48, 64, int8=True, b_trans=True)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], ref)


@pytest.mark.parametrize("entry", ["gemm_i8_trans_load", "gemm_f16_trans_load"])
def test_load_data_with_transpose_brings_b_into_l0b_as_mmad_reads_it(entry):
    "B [K, N] in GM -> NZ in L1 -> LoadDataWithTranspose (int8: 32 x 32-byte squares split in two fractals) -> Mmad."
    int8 = "i8" in entry
    _, _, r, ref = _gemm(entry, 32, 64, 64, int8=int8, out_dtype=np.float32)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    if int8: np.testing.assert_array_equal(r.outputs["c"], ref)
    else: np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


def test_gemm_with_the_bias_table_starts_c_from_the_bias_row():
    "L1 (half) -> bias table (float, DataCopy on MTE1), then Mmad(c, a, b, bias, p): each row of C is bias + A x B."
    m, n, k = 32, 64, 64
    b = build(KERNELS / "cube_gemm.cpp", entry="gemm_f16_bias")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    bias = RNG.standard_normal(n).astype(np.float16)
    args = [GM("a", a), GM("b", np.ascontiguousarray(bm.T)), GM("bias", bias), GM("c", np.empty((m, n), np.float32), "out"),
            Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")]
    r = run(b, args, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    ref = a.astype(np.float64) @ bm.astype(np.float64) + bias.astype(np.float64)
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
    # the bias table holds 1 KB (256 floats): a longer bias row is an error at its InitBuffer
    r = run(b, args[:4] + [Scalar(m, "uint32_t"), Scalar(512, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
    e = [d for d in r.errors if d.kind == "l1-overflow"]
    assert not r.ok and e and "bias table" in e[0].message and "InitBuffer" in e[0].source_line, r.diagnostics


def _bf16(x: np.ndarray) -> np.ndarray:
    "float32 -> bfloat16 bit patterns (round to nearest even), as uint16."
    u = x.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_gemm_bf16_accumulates_in_fp32():
    m, n, k = 32, 48, 64
    a, bt = RNG.standard_normal((m, k)).astype(np.float32), RNG.standard_normal((n, k)).astype(np.float32)
    a16, b16 = _bf16(a), _bf16(bt)
    up = lambda h: (h.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    ref = up(a16) @ up(b16).T                                  # exact products of the bf16 inputs, summed in float64
    b = build(KERNELS / "cube_gemm.cpp", entry="gemm_bf16_bt_f32")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a16), GM("b", b16), GM("c", np.empty((m, n), np.float32), "out"), Scalar(m, "uint32_t"),
                Scalar(n, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)   # fp32 accumulation, not bf16


def test_misaligned_l0_operand_is_an_error_at_its_line():
    b, args, r, _ = _gemm("gemm_f16_misaligned_l0a", 32, 48, 64)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "cube-misaligned")
    assert "LoadData(a2[" in (KERNELS / "cube_gemm.cpp").read_text().splitlines()[d.line - 1]
    assert "L0A" in d.message and "512" in d.message


def test_l1_overflow_is_an_error_at_its_line():
    from ascendcraft.emu import Scalar as S
    kernel = KERNELS / "cross_mixed.cpp"
    b = build(kernel, entry="matmul_relu")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    n, k = 256, 1024                                           # B^T alone needs 512 KB of L1
    args = [GM("a", np.zeros((32, k), np.float16)), GM("bt", np.zeros((n, k), np.float16)),
            GM("y", np.empty((32, n), np.float32), "out"), GM("ws", np.empty(2 * 16 * n, np.float32), "workspace"),
            S(n, "uint32_t"), S(k, "uint32_t"), S(1, "uint32_t")]
    r = run(b, args, block_dim=1)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "l1-overflow")
    assert "InitBuffer(inB1" in kernel.read_text().splitlines()[d.line - 1] and "524288" in d.message


def test_wrong_fractal_layout_gives_wrong_numbers():
    _, _, r, ref = _gemm("gemm_f16_wrong_layout", 32, 48, 64)
    assert r.ok  # the hardware does not notice either: the numbers are wrong
    err = np.abs(r.outputs["c"].astype(np.float64) - ref)
    assert err.max() > 1.0 and (err > 0.1).mean() > 0.5


def test_l0_overflow_is_an_error_at_its_line():
    b = build(KERNELS / "cube_l0_overflow.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", np.zeros(16, np.float16))], block_dim=1)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "l0-overflow")
    src = (KERNELS / "cube_l0_overflow.cpp").read_text().splitlines()
    assert "InitBuffer(inA2" in src[d.line - 1]
    assert "L0A" in d.message and "65536" in d.message


def test_trace_records_cube_pipes():
    b, args, r, _ = _gemm("gemm_f16", 32, 48, 64)
    t = trace(b, args, block_dim=1)
    names = op_names()
    ops = {names[o] for o in np.unique(t.records["op"])}
    assert {"LoadData", "Mmad", "Fixpipe", "DataCopy"} <= ops
    mm = t.records[t.records["op"] == names.index("Mmad")]
    assert len(mm) == 1 and int(mm["repeats"][0]) == 2 * 3 * 4      # fractal products: m1 * n1 * k1
    assert int(mm["elems"][0]) == 32 * 48 * 64
    pipes = {int(p) for p in t.records["pipe"][t.records["kind"] == 0]}
    assert {2, 4, 5, 6} <= pipes   # MTE2, MTE1, M, FIX


# ---- the Matmul high-level API ------------------------------------------------------------------------
TCUBE_FIELDS = ("usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN "
                "isBias transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN singleBatchM "
                "singleBatchN stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C").split() + \
               [f"{m}LayoutInfo{d}" for m, ds in (("A", "BSNGD"), ("B", "BSNGD")) for d in ds] + \
               ["CLayoutInfoB", "CLayoutInfoS1", "CLayoutInfoN", "CLayoutInfoG", "CLayoutInfoS2", "BatchNum", "mxTypePara"]


def tcube_tiling(**values) -> bytes:
    "TCubeTiling's bytes as a host tiling function writes them (51 int32 fields)."
    assert set(values) <= set(TCUBE_FIELDS)
    return np.array([values.get(f, 0) for f in TCUBE_FIELDS], np.int32).tobytes()


@pytest.mark.parametrize("entry,use_iterate", [("matmul_bias_f16", 0), ("matmul_bias_f16", 1), ("matmul_bias_i8", 1)])
def test_matmul_api_kernel_matches_numpy(entry, use_iterate):
    from ascendcraft.emu import Tiling
    m, n, k = 100, 96, 64                      # M is irregular: the bottom tiles are 36 rows
    sm, sn = 64, 48
    int8 = entry.endswith("i8")
    if int8:
        a = RNG.integers(-128, 128, (m, k)).astype(np.int8)
        bm = RNG.integers(-128, 128, (k, n)).astype(np.int8)
        bias = RNG.integers(-1000, 1000, n).astype(np.int32)
        ref = a.astype(np.int64) @ bm.astype(np.int64) + bias
        b_in, out = np.ascontiguousarray(bm.T), np.empty((m, n), np.int32)
    else:
        a = RNG.standard_normal((m, k)).astype(np.float16)
        bm = RNG.standard_normal((k, n)).astype(np.float16)
        bias = RNG.standard_normal(n).astype(np.float32)
        ref = a.astype(np.float64) @ bm.astype(np.float64) + bias
        b_in, out = bm, np.empty((m, n), np.float32)
    tiles = -(-m // sm) * -(-n // sn)
    tiling = tcube_tiling(usedCoreNum=tiles, M=m, N=n, Ka=k, Kb=k, singleCoreM=sm, singleCoreN=sn, singleCoreK=k,
                          baseM=32, baseN=32, baseK=32, depthA1=1, depthB1=1, stepM=1, stepN=1, isBias=1, iterateOrder=0,
                          dbL0A=2, dbL0B=2, dbL0C=1) + np.int32(use_iterate).tobytes()
    b = build(KERNELS / "matmul_api_bias.cpp", entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    args = [GM("a", a), GM("b", b_in), GM("bias", bias), GM("c", out, "out"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
            Tiling(tiling)]
    r = run(b, args, block_dim=tiles)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    if int8:
        np.testing.assert_array_equal(r.outputs["c"], ref)
    else:
        np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)
    t = trace(b, args, block_dim=tiles)
    names = op_names()
    mm = t.records[(t.records["op"] == names.index("Matmul")) & (t.records["pipe"] == 5)]
    assert int(mm["elems"].sum()) == m * n * k   # every product once, over all blocks and base blocks


def test_matmul_api_block_into_ub_for_a_vector_epilogue():
    from ascendcraft.emu import Tiling
    m = n = k = 64
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    c = a.astype(np.float64) @ bm.astype(np.float64)
    ref = np.where(c >= 0, c, 0.1 * c)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, iterateOrder=0) + np.float32(0.1).tobytes()
    b = build(KERNELS / "matmul_api_epilogue.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("y", np.empty((m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)


def test_matmul_api_iterate_batch_broadcasts_b():
    from ascendcraft.emu import Tiling
    batch, m, n, k = 3, 32, 48, 64
    a = RNG.standard_normal((batch, m, k)).astype(np.float16)
    bm = RNG.standard_normal((k, n)).astype(np.float16)
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, stepM=1, stepN=1, BatchNum=batch) + np.uint32(batch).tobytes()
    b = build(KERNELS / "matmul_api_batch.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.empty((batch, m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], ref, rtol=1e-5, atol=1e-4)


# Fill (InitConstValue, its older name) sets blocks of an L1 / L0 tensor: 32-byte blocks in L1, 512-byte fractals in L0,
# dstGap blocks skipped between repeats. A (16 x 64 half in L1, NZ: fractal f holds K columns 16f..16f+15) is zeroed,
# then fractals 0 and 2 set to 1 (2 repeats of 16 blocks, 16 blocks apart); B in L0B is zeroed, then fractals 0 and 1
# set to 2 (1 repeat of 2 fractals). Only K columns 0..15 meet: C = 16 x 1 x 2 = 32 everywhere.
FILL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fill_mmad(GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc1;
    pipe.InitBuffer(qa1, 1, 16 * 64 * sizeof(half));
    pipe.InitBuffer(qa2, 1, 4 * 512);
    pipe.InitBuffer(qb2, 1, 4 * 512);
    pipe.InitBuffer(qc1, 1, 16 * 16 * sizeof(float));
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float *)c, 256);
    LocalTensor<half> a1 = qa1.AllocTensor<half>();
    LocalTensor<half> a2 = qa2.AllocTensor<half>();
    LocalTensor<half> b2 = qb2.AllocTensor<half>();
    LocalTensor<float> c1 = qc1.AllocTensor<float>();
    InitConstValue(a1, InitConstValueParams<half>(1, 64, 0, (half)0));
    Fill(a1, InitConstValueParams<half>(2, 16, 16, (half)1));
    Fill(b2, InitConstValueParams<half>(1, 4, 0, (half)0));
    Fill(b2, InitConstValueParams<half>(1, 2, 0, (half)2));
    Fill(b2, InitConstValueParams<half>(0, 4, 0, (half)9));      // 0 repeats: nothing
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, a1, LoadData2DParams(0, 4, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    MmadParams mm;
    mm.m = 16; mm.n = 16; mm.k = 64;
    Mmad(c1, a2, b2, mm);
    PipeBarrier<PIPE_ALL>();
    Fixpipe(cGm, c1, FixpipeParamsV220(16, 16, 16, 16, false));
    PipeBarrier<PIPE_ALL>();
    qa1.FreeTensor(a1); qa2.FreeTensor(a2); qb2.FreeTensor(b2); qc1.FreeTensor(c1);
}
'''


def test_fill_sets_l1_blocks_and_l0_fractals_with_gaps():
    r = run(build({"fill.cpp": FILL}), [GM("c", np.full(256, -1, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["c"], np.full(256, 32, np.float32))
