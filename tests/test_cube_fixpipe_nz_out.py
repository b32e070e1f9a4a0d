"""Fixpipe's NZ output (NZ2NZ): L0C -> GM with CFG_NZ, with DataCopy(DataCopyCO12DstParams) without nz2ndEn and with the
older FixpipeParams<T> without nz2ndEn; and L0C -> L1 with the requantisations to int8 / uint8 (the result then feeds a
second Mmad from L1). The reference below is written from the API reference's NZ2NZ description: the output is cut into Z
columns of W channels, each holding its mSize rows one after the other (a row W x the output size in bytes), Z column g
at g x dstStride x 32 bytes. W is 16 (half, float, int32_t), 8 for float with the channel split (16 x 8 fractals), 32 for
int8_t / uint8_t (the channel merge: two neighbouring 16 x 16 fractals make one 16 x 32; when nSize / 16 is odd the last
16 channels stay 16 wide). The older FixpipeParams<T> give dstStride as the gap between bursts: the distance adds a burst
(burstLen x sizeof(out) / sizeof(L0C type) blocks). Misuses are errors at the call's line."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run
from test_cube_fixpipe_vector_quant import reference, word

GEMM = Path(__file__).parent / "emu_kernels" / "good" / "cube_gemm.cpp"
FIXPIPE = "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
QUANT = ("        if constexpr (std::is_same<OT, half>::value) p.quantPre = QuantMode_t::F322F16;\n"
         "        else p.quantPre = QuantMode_t::NoQuant;\n")
MODES = {"NoQuant": 0, "F322F16": 1, "DEQF16": 3, "QF322B8_PRE": 5, "VQF322B8_PRE": 6, "REQ8": 7}
SET = ("        p.nSize = g_nsize; p.dstStride = g_stride; p.isChannelSplit = g_split != 0;\n"
       "        p.quantPre = static_cast<QuantMode_t>(g_mode); p.deqScalar = g_words ? *(__gm__ uint64_t *)g_words : 0;\n")
FORMS = {
    "v220": SET + "        Fixpipe<OT, CT, CFG_NZ>(cGm, c1, p);   // NZ out\n",
    "v220_nd_split": SET + "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);   // ND with the split\n",
    "datacopy": """        DataCopyCO12DstParams d(static_cast<uint16_t>(g_nsize), static_cast<uint16_t>(M), g_stride,
                                static_cast<uint16_t>(m1 * 16), static_cast<QuantMode_t>(g_mode), 0, g_split != 0, false);
        SetFixpipePreQuantFlag(*(__gm__ uint64_t *)g_words);
        DataCopy(cGm, c1, d);   // NZ out
""",
    "older": """        FixpipeParams<CT> f(static_cast<uint16_t>(n1), static_cast<uint16_t>(M * 16 * sizeof(CT) / 32), 0, g_stride);
        f.quantParams = QuantParams(static_cast<QuantMode_t>(g_mode), *(__gm__ uint64_t *)g_words);
        Fixpipe(cGm, c1, f);   // NZ out, the older form
""",
    # into L1, then L1 -> GM as it lies (the asc-devkit's fixpipe_l0c2l1 example reads its result so)
    "l1": SET + """        TBuf<TPosition::C1> outL1;
        pipe.InitBuffer(outL1, g_l1bytes);
        LocalTensor<OT> o1 = outL1.Get<OT>();
        Fixpipe<OT, CT, CFG_NZ>(o1, c1, p);   // into L1
        SetFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        DataCopy(cGm, o1, DataCopyParams(1, static_cast<uint16_t>(g_l1bytes / 32), 0, 0));
""",
    "l1_workspace": SET + """        GlobalTensor<uint64_t> wGm;
        wGm.SetGlobalBuffer((__gm__ uint64_t *)g_words, g_nsize);
        TBuf<TPosition::C1> wordsL1, outL1;
        pipe.InitBuffer(wordsL1, (g_nsize * 8 + 127) / 128 * 128);
        pipe.InitBuffer(outL1, g_l1bytes);
        LocalTensor<uint64_t> w1 = wordsL1.Get<uint64_t>();
        DataCopy(w1, wGm, (g_nsize * 8 + 31) / 32 * 4);
        LocalTensor<OT> o1 = outL1.Get<OT>();
        SetFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
        Fixpipe<OT, CT, CFG_NZ>(o1, c1, w1, p);   // into L1, one word a channel
        SetFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
        DataCopy(cGm, o1, DataCopyParams(1, static_cast<uint16_t>(g_l1bytes / 32), 0, 0));
""",
}
FORMS["v220_src1"] = FORMS["v220"].replace("p.nSize = g_nsize;", "p.nSize = g_nsize; p.srcStride = 1;")
FORMS["v220_off16"] = FORMS["v220"].replace("Fixpipe<OT, CT, CFG_NZ>(cGm, c1, p);", "Fixpipe<OT, CT, CFG_NZ>(cGm[4], c1, p);")
# the words and the output at the same L1 bytes (the asc-devkit's fixpipe_l0c2l1 scenario 3 puts both at address 0): the
# Fixpipe reads the words into its buffer before it writes
FORMS["l1_workspace_shared"] = FORMS["l1_workspace"].replace(
    "        pipe.InitBuffer(wordsL1, (g_nsize * 8 + 127) / 128 * 128);\n        pipe.InitBuffer(outL1, g_l1bytes);\n",
    "        pipe.InitBuffer(wordsL1, (g_nsize * 8 + 127) / 128 * 128 + g_l1bytes);\n").replace(
    "LocalTensor<OT> o1 = outL1.Get<OT>();", "LocalTensor<OT> o1 = wordsL1.Get<OT>();")
ENTRIES = """
__gm__ uint8_t *g_words = nullptr;
uint32_t g_nsize = 0, g_stride = 0, g_split = 0, g_mode = 0, g_l1bytes = 0;
#define ENTRY(NAME, AT, CT, OT, BT)                                                                                  \\
    extern "C" __global__ __aicore__ void NAME(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR w, uint32_t m, uint32_t n,  \\
                                               uint32_t k, uint32_t nsize, uint32_t stride, uint32_t split,           \\
                                               uint32_t mode, uint32_t l1bytes)                                       \\
    {                                                                                                                 \\
        g_words = w; g_nsize = nsize; g_stride = stride; g_split = split; g_mode = mode; g_l1bytes = l1bytes;        \\
        CubeGemm<AT, CT, OT, BT, false> op;                                                                           \\
        op.Init(a, b, c, m, n, k);                                                                                    \\
        op.Process();                                                                                                 \\
    }
ENTRY(f16_to_f32, half, float, float, false)
ENTRY(f16_to_f16, half, float, half, false)
ENTRY(f16_to_i8, half, float, int8_t, false)
ENTRY(i8_to_i8, int8_t, int32_t, int8_t, true)
ENTRY(i8_to_u8, int8_t, int32_t, uint8_t, true)
ENTRY(i8_to_f16, int8_t, int32_t, half, true)
ENTRY(i8_to_i32, int8_t, int32_t, int32_t, true)
"""
OUT = {"f16_to_f32": np.float32, "f16_to_f16": np.float16, "f16_to_i8": np.int8, "i8_to_i8": np.int8,
       "i8_to_u8": np.uint8, "i8_to_f16": np.float16, "i8_to_i32": np.int32}
_built = {}


def _build(tmp_path, form, entry):
    if (form, entry) in _built: return _built[form, entry]
    src = GEMM.read_text()
    assert FIXPIPE in src and QUANT in src
    src = src.replace("#include \"kernel_operator.h\"\n", "#include \"kernel_operator.h\"\nextern __gm__ uint8_t *g_words;\n"
                      "extern uint32_t g_nsize, g_stride, g_split, g_mode, g_l1bytes;\n", 1)
    src = src.replace(QUANT, "").replace(FIXPIPE, FORMS[form]) + ENTRIES
    path = tmp_path / f"{form}.cpp"
    path.write_text(src)
    b = build(path, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    _built[form, entry] = (b, src)
    return b, src


def nz_reference(c, w, stride_bytes, size):
    """`c` (m x n, the output type) laid out NZ as the API reference describes: Z column g (channels g*w .. g*w + width)
    at g * stride_bytes, its m rows of width channels one after the other; bytes it does not reach stay 0."""
    m, n = c.shape
    out = np.zeros(size, np.uint8)
    for g in range(-(-n // w)):
        block = np.ascontiguousarray(c[:, g * w:min(n, (g + 1) * w)]).view(np.uint8).ravel()
        out[g * stride_bytes:g * stride_bytes + block.size] = block
    return out


def _run(form, entry, tmp_path, m=32, n=64, k=64, stride=None, split=0, mode="NoQuant", words=None, size=None,
         l1bytes=0, seed=5):
    b, src = _build(tmp_path, form, entry)
    rng = np.random.default_rng(seed)
    if entry.startswith("f16"):
        a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
        acc, bT = a.astype(np.float32) @ bm.astype(np.float32), bm
    else:
        a, bm = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
        acc, bT = a.astype(np.int64) @ bm.astype(np.int64), np.ascontiguousarray(bm.T)
    gm_words = np.zeros(max(n, 4), np.uint64)
    if words is not None: gm_words[:len(words)] = words
    size = size or 4 * m * n * 4
    r = run(b, [GM("a", a), GM("b", bT), GM("c", np.zeros(size, np.uint8), "inout"), GM("w", gm_words),
                *[Scalar(v, "uint32_t") for v in (m, n, k, n, stride, split, MODES[mode], l1bytes)]], block_dim=1)
    return r, acc, src


def _err(r, src, marker):
    err = next(d for d in r.diagnostics if d.is_error)
    assert marker in src.splitlines()[err.line - 1], (err, src.splitlines()[err.line - 1])
    return err


@pytest.mark.parametrize("entry, w", [("f16_to_f32", 16), ("f16_to_f16", 16), ("i8_to_i32", 16)])
def test_nz_to_gm_keeps_the_fractals_with_dst_stride_between_z_columns(entry, w, tmp_path):
    """float / half / int32_t out: Z columns of 16 channels; a dstStride larger than a column (here 3 blocks more)
    leaves a gap that stays as it was."""
    m, n = 32, 64
    os = np.dtype(OUT[entry]).itemsize
    stride = m * w * os // 32 + 3
    r, acc, _ = _run("v220", entry, tmp_path, m=m, n=n, stride=stride, mode="F322F16" if entry == "f16_to_f16" else "NoQuant")
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = nz_reference(acc.astype(OUT[entry]), w, stride * 32, 4 * m * n * 4)
    got = r.outputs["c"]
    if entry == "f16_to_f16":   # half rounding of fp32 sums: compare as numbers
        np.testing.assert_allclose(got.view(np.float16).astype(np.float32), want.view(np.float16).astype(np.float32),
                                   rtol=1e-3, atol=1e-3)
    elif entry == "f16_to_f32":
        np.testing.assert_allclose(got.view(np.float32), want.view(np.float32), rtol=1e-5, atol=1e-4)
    else:
        np.testing.assert_array_equal(got, want)
    assert not got[m * w * os:stride * 32].any()   # the gap after Z column 0


def test_nz_is_not_nd_a_host_reading_it_as_rows_gets_wrong_numbers(tmp_path):
    m, n = 32, 64
    r, acc, _ = _run("v220", "i8_to_i32", tmp_path, m=m, n=n, stride=m * 16 * 4 // 32, size=m * n * 4)
    assert r.ok
    got = r.outputs["c"].view(np.int32)
    assert not np.array_equal(got.reshape(m, n), acc.astype(np.int32))          # read as ND: wrong
    np.testing.assert_array_equal(got, acc.astype(np.int32).reshape(m, n // 16, 16).transpose(1, 0, 2).ravel())


def test_float_channel_split_makes_16_by_8_fractals(tmp_path):
    m, n = 32, 64
    stride = m * 8 * 4 // 32
    r, acc, _ = _run("v220", "f16_to_f32", tmp_path, m=m, n=n, stride=stride, split=1, size=m * n * 4)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = nz_reference(acc.astype(np.float32), 8, stride * 32, m * n * 4)
    np.testing.assert_allclose(r.outputs["c"].view(np.float32), want.view(np.float32), rtol=1e-5, atol=1e-4)
    # without the split the same call writes 16-wide fractals: different bytes
    r2, _, _ = _run("v220", "f16_to_f32", tmp_path, m=m, n=n, stride=2 * stride, split=0, size=m * n * 4)
    assert r2.ok and not np.allclose(r2.outputs["c"].view(np.float32), want.view(np.float32))


@pytest.mark.parametrize("n", [64, 48])
def test_int8_nz_merges_channel_pairs_into_16_by_32_fractals(n, tmp_path):
    """REQ8 int32 -> int8 in NZ: Z columns of 32 channels; with n / 16 odd (48) the last 16 channels stay 16 wide."""
    m = 32
    stride = m   # m rows of 32 bytes a Z column
    wd = word(0.004, offset=2, signed=True)
    r, acc, _ = _run("v220", "i8_to_i8", tmp_path, m=m, n=n, stride=stride, mode="REQ8", words=[wd], size=m * 64 * 2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    q = reference(acc, [wd] * n, "REQ8").astype(np.int64).astype(np.int8)
    want = nz_reference(q, 32, stride * 32, m * 64 * 2)
    np.testing.assert_array_equal(r.outputs["c"], want)
    assert (q < 0).any() and len(np.unique(q)) > 20
    if n == 48:   # the last group: 16 bytes a row, not 32
        np.testing.assert_array_equal(r.outputs["c"][stride * 32:stride * 32 + 16], q[0, 32:48].view(np.uint8))


def test_datacopy_without_nz2nd_writes_nz_with_deqf16(tmp_path):
    m, n = 32, 64
    wd = word(0.01)
    r, acc, _ = _run("datacopy", "i8_to_f16", tmp_path, m=m, n=n, stride=m, mode="DEQF16", words=[wd], size=m * n * 2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = nz_reference(reference(acc, [wd] * n, "DEQF16"), 16, m * 32, m * n * 2)
    np.testing.assert_array_equal(r.outputs["c"], want)


def test_older_fixpipe_params_dst_stride_is_the_gap_between_bursts(tmp_path):
    m, n = 32, 64
    gap = 4   # blocks between bursts; a burst of float out is m * 16 * 4 / 32 blocks
    r, acc, _ = _run("older", "i8_to_i32", tmp_path, m=m, n=n, stride=gap, words=[0])
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], nz_reference(acc.astype(np.int32), 16, (m * 2 + gap) * 32, 4 * m * n * 4))


@pytest.mark.parametrize("mode, form", [("QF322B8_PRE", "l1"), ("VQF322B8_PRE", "l1_workspace"),
                                        ("VQF322B8_PRE", "l1_workspace_shared")])
def test_requantised_into_l1_as_int8_nz(mode, form, tmp_path):
    """float L0C -> int8 in L1 (the asc-devkit's fixpipe_l0c2l1 scenarios 2 and 3): 16 x 32 fractals, dstStride in 32-byte
    blocks; copied L1 -> GM as it lies. The per-channel words may share their L1 bytes with the output."""
    m, n = 32, 64
    words = [word(s, offset=1, signed=True) for s in np.random.default_rng(4).uniform(2, 9, n)]
    if mode == "QF322B8_PRE": words = [words[0]] * n
    r, acc, _ = _run(form, "f16_to_i8", tmp_path, m=m, n=n, stride=m, mode=mode, words=words, size=m * n, l1bytes=m * n)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    q = reference(acc, words, mode).astype(np.int64).astype(np.int8)
    np.testing.assert_array_equal(r.outputs["c"], nz_reference(q, 32, m * 32, m * n))
    assert (q < 0).any() and len(np.unique(q)) > 20


def test_requantised_into_l1_as_uint8(tmp_path):
    m, n = 32, 64
    wd = word(0.003, offset=5, signed=False)
    r, acc, _ = _run("l1", "i8_to_u8", tmp_path, m=m, n=n, stride=m, mode="REQ8", words=[wd], size=m * n, l1bytes=m * n)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    q = reference(acc, [wd] * n, "REQ8").astype(np.int64).astype(np.uint8)
    np.testing.assert_array_equal(r.outputs["c"], nz_reference(q, 32, m * 32, m * n))
    assert (q == 0).any() and (q > 5).any()


# ---- misuses: errors at the call's line ----
def test_int8_nz_with_a_16_channel_stride_is_an_error(tmp_path):
    """A dstStride written for 16-channel Z columns (m x 16 bytes) where int8 merges 32 channels: the columns overlap."""
    r, _, src = _run("v220", "i8_to_i8", tmp_path, stride=32 * 16 // 32, mode="REQ8", words=[word(0.01)])
    err = _err(r, src, "// NZ out")
    assert err.kind == "fixpipe-params" and "overlap" in err.message and "16 x 32" in err.hint


def test_channel_split_with_half_out_is_an_error(tmp_path):
    r, _, src = _run("v220", "f16_to_f16", tmp_path, stride=32, split=1, mode="F322F16")
    err = _err(r, src, "// NZ out")
    assert err.kind == "fixpipe-params" and "float in and float out" in err.message


def test_channel_split_with_nd_output_is_an_error(tmp_path):
    r, _, src = _run("v220_nd_split", "f16_to_f32", tmp_path, stride=64, split=1)
    err = _err(r, src, "// ND with the split")
    assert err.kind == "fixpipe-params" and "NZ output only" in err.message


def test_nz_nsize_not_a_multiple_of_16_is_an_error(tmp_path):
    r, _, src = _run("v220", "f16_to_f32", tmp_path, n=40, stride=64)
    err = _err(r, src, "// NZ out")
    assert err.kind == "fixpipe-params" and "nSize = 40" in err.message


def test_one_16_column_group_reads_no_src_stride(tmp_path):
    """srcStride is the distance to the next 16-column group of L0C: with nSize = 16 it is not read (ops-nn's
    conv3d_backprop_input_v2 init_output passes 1); with more groups a srcStride below mSize is an error."""
    m = 32
    r, acc, _ = _run("v220_src1", "f16_to_f32", tmp_path, m=m, n=16, stride=m * 2, size=m * 16 * 4)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"].view(np.float32).reshape(m, 16), acc, rtol=1e-5, atol=1e-4)
    r, _, src = _run("v220_src1", "f16_to_f32", tmp_path, m=m, n=32, stride=m * 2)
    err = _err(r, src, "// NZ out")
    assert err.kind == "fixpipe-params" and "srcStride = 1" in err.message


def test_nz_to_gm_off_a_32_byte_boundary_is_an_error(tmp_path):
    r, _, src = _run("v220_off16", "f16_to_f32", tmp_path, stride=64)   # 4 floats in: 16 bytes
    err = _err(r, src, "// NZ out")
    assert err.kind == "cube-misaligned" and "16 bytes past a 32-byte boundary" in err.message


def test_float_out_into_l1_is_an_error(tmp_path):
    """A2 has no float or int32_t output into L1 (the API reference's table)."""
    r, _, src = _run("l1", "f16_to_f32", tmp_path, stride=64, l1bytes=32 * 64 * 4)
    err = _err(r, src, "// into L1")
    assert err.kind == "fixpipe-quant" and "in L1" in err.message and "do not go to L1" in err.hint


# ---- an int8 result requantised into L1 feeds a second Mmad as its A ----
TWO_GEMMS = r"""#include "kernel_operator.h"
using namespace AscendC;
// E = C x D with C = REQ8(A x B) left in L1 as int8 NZ (32-channel Z columns, M rows each: the A operand's NZ layout).
// A [M, K], B^T [N, K], D^T [P, N], all int8 rows; E [M, P] int32 rows.
constexpr uint32_t M = 32, K = 64, N = 64, P = 32, m1 = M / 16, k1 = K / 32, n1 = N / 16, c1n = N / 32, p1 = P / 16;
extern "C" __global__ __aicore__ void two_gemms(GM_ADDR a, GM_ADDR b, GM_ADDR d, GM_ADDR e, GM_ADDR w)
{
    TPipe pipe;
    TBuf<TPosition::A1> aL1, cL1;
    TBuf<TPosition::B1> bL1, dL1;
    TBuf<TPosition::A2> aL0;
    TBuf<TPosition::B2> bL0;
    TBuf<TPosition::CO1> cL0;
    pipe.InitBuffer(aL1, M * K); pipe.InitBuffer(cL1, M * N); pipe.InitBuffer(bL1, N * K); pipe.InitBuffer(dL1, P * N);
    pipe.InitBuffer(aL0, M * 64); pipe.InitBuffer(bL0, 64 * 64); pipe.InitBuffer(cL0, M * 64 * 4);
    GlobalTensor<int8_t> aGm, bGm, dGm;
    GlobalTensor<int32_t> eGm;
    aGm.SetGlobalBuffer((__gm__ int8_t *)a, M * K); bGm.SetGlobalBuffer((__gm__ int8_t *)b, N * K);
    dGm.SetGlobalBuffer((__gm__ int8_t *)d, P * N); eGm.SetGlobalBuffer((__gm__ int32_t *)e, M * P);
    LocalTensor<int8_t> a1 = aL1.Get<int8_t>(), b1 = bL1.Get<int8_t>(), d1 = dL1.Get<int8_t>(), c1 = cL1.Get<int8_t>();
    LocalTensor<int8_t> a2 = aL0.Get<int8_t>(), b2 = bL0.Get<int8_t>();
    LocalTensor<int32_t> acc = cL0.Get<int32_t>();
    Nd2NzParams nz;
    nz.ndNum = 1; nz.srcNdMatrixStride = 0; nz.dstNzNStride = 1; nz.dstNzMatrixStride = 0;
    nz.nValue = M; nz.dValue = K; nz.srcDValue = K; nz.dstNzC0Stride = m1 * 16;
    DataCopy(a1, aGm, nz);
    nz.nValue = N; nz.dValue = K; nz.srcDValue = K; nz.dstNzC0Stride = n1 * 16;
    DataCopy(b1, bGm, nz);
    nz.nValue = P; nz.dValue = N; nz.srcDValue = N; nz.dstNzC0Stride = p1 * 16;
    DataCopy(d1, dGm, nz);
    PipeBarrier<PIPE_ALL>();
    LoadData2DParams l;
    for (uint32_t i = 0; i < m1; ++i) {   // A's row of fractals i: fractal (i, kk) of NZ is at kk * m1 + i
        l.startIndex = i; l.repeatTimes = k1; l.srcStride = m1; l.ifTranspose = false;
        LoadData(a2[i * k1 * 512], a1, l);
    }
    l.startIndex = 0; l.repeatTimes = k1 * n1; l.srcStride = 1;
    LoadData(b2, b1, l);
    PipeBarrier<PIPE_ALL>();
    Mmad(acc, a2, b2, MmadParams(M, N, K, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f;
    f.nSize = N; f.mSize = M; f.srcStride = m1 * 16; f.dstStride = M;   // M rows of 32 bytes a Z column
    f.quantPre = QuantMode_t::REQ8; f.deqScalar = *(__gm__ uint64_t *)w;
    Fixpipe<int8_t, int32_t, CFG_NZ>(c1, acc, f);   // C into L1
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < m1; ++i) {   // C is the A of the second Mmad: its Z columns of 32 channels are K blocks
        l.startIndex = i; l.repeatTimes = c1n; l.srcStride = m1; l.ifTranspose = false;
        LoadData(a2[i * c1n * 512], c1, l);
    }
    l.startIndex = 0; l.repeatTimes = c1n * p1; l.srcStride = 1;
    LoadData(b2, d1, l);
    PipeBarrier<PIPE_ALL>();
    Mmad(acc, a2, b2, MmadParams(M, P, N, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 g;
    g.nSize = P; g.mSize = M; g.srcStride = m1 * 16; g.dstStride = P;
    Fixpipe<int32_t, int32_t, CFG_ROW_MAJOR>(eGm, acc, g);
}
"""


def test_an_int8_result_requantised_into_l1_feeds_a_second_mmad(tmp_path):
    path = tmp_path / "two_gemms.cpp"
    path.write_text(TWO_GEMMS)
    b = build(path)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(8)
    a = rng.integers(-128, 128, (32, 64)).astype(np.int8)
    bT = rng.integers(-128, 128, (64, 64)).astype(np.int8)
    dT = rng.integers(-128, 128, (32, 64)).astype(np.int8)
    wd = word(0.002, offset=0, signed=True)
    r = run(b, [GM("a", a), GM("b", bT), GM("d", dT), GM("e", np.zeros((32, 32), np.int32), "out"),
                GM("w", np.array([wd, 0, 0, 0], np.uint64))], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    c = reference(a.astype(np.int64) @ bT.T.astype(np.int64), [wd] * 64, "REQ8").astype(np.int64)
    assert len(np.unique(c)) > 20 and (c < 0).any()
    np.testing.assert_array_equal(r.outputs["e"], c @ dT.T.astype(np.int64))
