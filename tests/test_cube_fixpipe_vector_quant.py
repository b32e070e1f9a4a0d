"""Fixpipe's quantisations with a parameter word per output column (VDEQF16, VREQ8, VQF322B8_PRE) or one for the whole
matrix (DEQF16, REQ8, QF322B8_PRE), on the low-level GEMMs of cube_gemm.cpp. A word (A2): bits 31:0 the scale M1, a
float of which the NPU keeps 10 mantissa bits; 35:32 N and 36 MCB (shift first); 45:37 an offset added after the scale;
46 the sign (int8 or uint8 out). Per-channel words reach the Fixpipe through the Fixpipe buffer (GM -> L1 with
DataCopy, L1 -> C2PIPE2GM with DataCopy in 128-byte bursts, then SetFixPipeConfig) or as the cbufWorkspace argument (in
L1). The reference below is written from the API reference's description of each mode. A vector mode with no vector
named, or one shorter than nSize, is an error at the Fixpipe's line."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

GEMM = Path(__file__).parent / "emu_kernels" / "good" / "cube_gemm.cpp"
FIXPIPE = "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
QUANT = ("        if constexpr (std::is_same<OT, half>::value) p.quantPre = QuantMode_t::F322F16;\n"
         "        else p.quantPre = QuantMode_t::NoQuant;\n")
MODES = {"DEQF16": 3, "VDEQF16": 4, "QF322B8_PRE": 5, "VQF322B8_PRE": 6, "REQ8": 7, "VREQ8": 8}
# the words: GM -> L1 (C1), as the API reference's example does; g_channels of them; a scalar mode takes the first
TO_L1 = """        GlobalTensor<uint64_t> sGm;
        sGm.SetGlobalBuffer((__gm__ uint64_t *)g_words, N);
        TBuf<TPosition::C1> wordsL1;
        pipe.InitBuffer(wordsL1, (N * 8 + 127) / 128 * 128);
        LocalTensor<uint64_t> w1 = wordsL1.Get<uint64_t>();
        DataCopy(w1, sGm, (g_channels * 8 + 31) / 32 * 4);
        p.quantPre = static_cast<QuantMode_t>(g_mode);
        p.deqScalar = sGm.GetValue(0);
"""
FORMS = {
    "fixpipe_buffer": TO_L1 + """        TBuf<TPosition::C2PIPE2GM> wordsFb;
        pipe.InitBuffer(wordsFb, (g_channels * 8 + 127) / 128 * 128);
        LocalTensor<uint64_t> wf = wordsFb.Get<uint64_t>();
        DataCopy(wf, w1, DataCopyParams(1, static_cast<uint16_t>((g_channels * 8 + 127) / 128), 0, 0));
        SetFixPipeConfig(wf);
        PipeBarrier<PIPE_FIX>();
        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);
""",
    "workspace": TO_L1 + """        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, w1[0], p);
""",
    "not_set": TO_L1 + """        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);   // no SetFixPipeConfig
""",
}
ENTRIES = """
__gm__ uint8_t *g_words = nullptr;
uint32_t g_channels = 0, g_mode = 0;
#define ENTRY(NAME, AT, CT, OT, BT)                                                                                  \\
    extern "C" __global__ __aicore__ void NAME(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR w, uint32_t m, uint32_t n,  \\
                                               uint32_t k, uint32_t channels, uint32_t mode)                          \\
    {                                                                                                                 \\
        g_words = w; g_channels = channels; g_mode = mode;                                                            \\
        CubeGemm<AT, CT, OT, BT, false> op;                                                                           \\
        op.Init(a, b, c, m, n, k);                                                                                    \\
        op.Process();                                                                                                 \\
    }
ENTRY(gemm_i8_to_half, int8_t, int32_t, half, true)
ENTRY(gemm_i8_to_i8, int8_t, int32_t, int8_t, true)
ENTRY(gemm_f16_to_u8, half, float, uint8_t, false)
"""


def _build(tmp_path, form, entry):
    src = GEMM.read_text()
    assert FIXPIPE in src and QUANT in src
    src = src.replace("#include \"kernel_operator.h\"\n", "#include \"kernel_operator.h\"\nextern __gm__ uint8_t *g_words;\n"
                      "extern uint32_t g_channels, g_mode;\n", 1)
    src = src.replace(QUANT, "").replace(FIXPIPE, FORMS[form]) + ENTRIES
    path = tmp_path / f"{form}.cpp"
    path.write_text(src)
    b = build(path, entry=entry)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b, src


def word(scale, offset=0, signed=True, shift=None):
    "A quantisation word: the scale's float bits, the offset, the sign bit, and with `shift` MCB and N."
    w = int(np.float32(scale).view(np.uint32)) | (offset & 0x1FF) << 37 | int(signed) << 46
    return w | (1 << 36 | shift << 32 if shift is not None else 0)


def kept(words):
    "M1 as the NPU keeps it: the float in bits 31:0 with its low 13 mantissa bits dropped."
    return (np.asarray(words, np.uint64) & np.uint64(0xFFFFE000)).astype(np.uint32).view(np.float32)


def reference(acc, words, mode):
    "The output of a Fixpipe in `mode` for an L0C `acc` (int64 for int32 data, float32 for float), column j by words[j]."
    words = np.asarray(words, np.uint64)
    m1 = kept(words)
    if mode.endswith("DEQF16"):
        return (acc.astype(np.float32) * m1).astype(np.float16)
    shift = ((words >> np.uint64(32)) & np.uint64(0xF)).astype(np.int64)
    mcb = ((words >> np.uint64(36)) & np.uint64(1)).astype(bool)
    x = acc.copy()
    if mcb.any():
        shifted = (x >> shift) if x.dtype.kind == "i" else x / 2.0 ** shift
        x = np.where(mcb, np.clip(np.rint(shifted), -32768, 32767), x)
    q = np.clip(np.rint(x.astype(np.float32) * m1), -256, 255) + ((words >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
    signed = ((words >> np.uint64(46)) & np.uint64(1)).astype(bool)
    return np.where(signed, np.clip(q, -128, 127), np.clip(q, 0, 255))


def _run(b, entry, mode, words, m=32, n=48, k=64, channels=None, seed=6):
    rng = np.random.default_rng(seed)
    if entry == "gemm_f16_to_u8":
        a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
        acc, bT, out = (a.astype(np.float32) @ bm.astype(np.float32)), bm, np.uint8
    else:
        a, bm = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
        acc, bT = a.astype(np.int64) @ bm.astype(np.int64), np.ascontiguousarray(bm.T)
        out = np.float16 if entry == "gemm_i8_to_half" else np.int8
    channels = n if channels is None else channels
    gm_words = np.zeros(max(n, channels), np.uint64)
    gm_words[:len(words)] = words
    r = run(b, [GM("a", a), GM("b", bT), GM("c", np.zeros((m, n), out), "out"), GM("w", gm_words), Scalar(m, "uint32_t"),
            Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(channels, "uint32_t"), Scalar(MODES[mode], "uint32_t")],
            block_dim=1)
    per_column = list(words) if mode.startswith("V") else [words[0]] * n
    return r, reference(acc, per_column, mode) if len(per_column) == n else None


@pytest.mark.parametrize("form", ["fixpipe_buffer", "workspace"])
def test_vdeqf16_scales_each_output_column_by_its_channel(form, tmp_path):
    b, _ = _build(tmp_path, form, "gemm_i8_to_half")
    scales = np.random.default_rng(1).uniform(0.001, 0.01, 48).astype(np.float32)
    r, want = _run(b, "gemm_i8_to_half", "VDEQF16", [word(s) for s in scales])
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], want)
    assert (kept([word(s) for s in scales]) != scales).all()   # the NPU's 10-bit scales, not the floats given


def test_vreq8_requantises_each_column_with_its_scale_offset_and_sign(tmp_path):
    """int32 -> int8 / uint8 through the Fixpipe buffer: each column's scale, a 9-bit offset, and its sign bit, one column
    with MCB (the int32 shifted right by N, saturated to int16, first)."""
    b, _ = _build(tmp_path, "fixpipe_buffer", "gemm_i8_to_i8")
    rng = np.random.default_rng(2)
    words = [word(rng.uniform(0.001, 0.004), offset=int(rng.integers(0, 20)), signed=bool(j % 3)) for j in range(48)]
    words[5] = word(0.25, offset=3, shift=4)
    r, want = _run(b, "gemm_i8_to_i8", "VREQ8", words)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"].view(np.uint8), want.astype(np.int64).astype(np.uint8))
    assert (want < 0).any() and (want > 127).any()      # signed columns went negative, unsigned ones past 127


@pytest.mark.parametrize("mode", ["REQ8", "QF322B8_PRE", "VQF322B8_PRE"])
def test_the_scalar_and_float_requantisations(mode, tmp_path):
    entry = "gemm_i8_to_i8" if mode == "REQ8" else "gemm_f16_to_u8"
    b, _ = _build(tmp_path, "workspace", entry)
    scales = np.random.default_rng(3).uniform(0.5, 4, 48) if mode.startswith("V") else [0.003 if mode == "REQ8" else 9.0] * 48
    words = [word(s, offset=7, signed=mode == "REQ8") for s in scales]
    r, want = _run(b, entry, mode, words)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"].view(np.uint8), want.astype(np.int64).astype(np.uint8))
    assert len(np.unique(want)) > 10


def test_a_vector_mode_without_a_vector_is_an_error_at_the_fixpipe(tmp_path):
    b, src = _build(tmp_path, "not_set", "gemm_i8_to_half")
    r, _ = _run(b, "gemm_i8_to_half", "VDEQF16", [word(0.01)] * 48)
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "fixpipe-quant" and "SetFixPipeConfig" in err.message + err.hint
    assert "// no SetFixPipeConfig" in src.splitlines()[err.line - 1]


def test_a_vector_shorter_than_the_columns_is_an_error(tmp_path):
    b, _ = _build(tmp_path, "fixpipe_buffer", "gemm_i8_to_half")
    r, _ = _run(b, "gemm_i8_to_half", "VDEQF16", [word(0.01)] * 16, channels=16)   # 16 words for 48 columns
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "fixpipe-quant" and "48 channels" in err.message and "holds 16" in err.message
